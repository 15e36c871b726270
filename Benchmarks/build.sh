#!/usr/bin/env bash
# Builds the benchmark package in release once, so that check-thresholds.sh and count-instructions.sh
# compile nothing more.
#
#   Benchmarks/build.sh            every suite, BenchServer and InstructionCount, with the default trait
#                                  (the AsyncHTTPClient clients): what a full run needs
#   Benchmarks/build.sh --gates    only what CI's gates run: the suites Pipeline, Upload and Caching,
#                                  InstructionCount and BenchServer, with the AsyncHTTPClient trait alone
#                                  (--traits AsyncHTTPClient): the instruction and malloc bounds over
#                                  AsyncHTTPClient are enforced, and the observability bridges' clients,
#                                  whose targets are reported only, are left out
#
# CoreAPI's own warnings-as-errors setting (COREAPI_WARNINGS_AS_ERRORS, set by CI for the debug builds) is
# left out here: warnings are checked in the debug build, and the benchmark scripts build without it, so
# they share this build. The benchmark plugin's own tools are built here too, by listing the benchmarks.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
traits=()
products=()
suites=()
case "${1:-}" in
    "") ;;
    --gates)
        traits=(--traits AsyncHTTPClient)
        products=(Pipeline Upload Caching InstructionCount BenchServer)
        suites=(--target Pipeline --target Upload --target Caching)
        ;;
    *) echo "usage: $0 [--gates]" >&2; exit 2 ;;
esac
unset COREAPI_WARNINGS_AS_ERRORS
started=$(date +%s)
if [ "${#products[@]}" -eq 0 ]; then
    swift build -c release --package-path "$here" "${traits[@]}"
else
    for product in "${products[@]}"; do
        swift build -c release --package-path "$here" "${traits[@]}" --product "$product"
    done
fi
swift package --package-path "$here" "${traits[@]}" benchmark list "${suites[@]}" >/dev/null
echo "benchmarks: release build in $(($(date +%s) - started)) s"
