#!/usr/bin/env bash
# Builds the benchmark package in release once, so that check-thresholds.sh and count-instructions.sh
# compile nothing more.
#
#   Benchmarks/build.sh            every suite, BenchServer and InstructionCount, with the default traits
#                                  (the AsyncHTTPClient and the observability clients): what a full run
#                                  needs
#   Benchmarks/build.sh --gates    only what CI's gates run: the suites Pipeline, Upload and Caching,
#                                  InstructionCount and BenchServer, with the default traits too: the
#                                  instruction and malloc bounds over AsyncHTTPClient and the observability
#                                  bridges' bounds over it are counted
#
# CoreAPI's own warnings-as-errors setting (COREAPI_WARNINGS_AS_ERRORS, set by CI for the debug builds) is
# left out here: warnings are checked in the debug build, and the benchmark scripts build without it, so
# they share this build. The benchmark plugin's own tools are built here too, by listing the benchmarks.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
products=()
suites=()
case "${1:-}" in
    "") ;;
    --gates)
        products=(Pipeline Upload Caching InstructionCount BenchServer)
        suites=(--target Pipeline --target Upload --target Caching)
        ;;
    *) echo "usage: $0 [--gates]" >&2; exit 2 ;;
esac
unset COREAPI_WARNINGS_AS_ERRORS
started=$(date +%s)
if [ "${#products[@]}" -eq 0 ]; then
    swift build -c release --package-path "$here"
else
    for product in "${products[@]}"; do
        swift build -c release --package-path "$here" --product "$product"
    done
fi
swift package --package-path "$here" benchmark list "${suites[@]}" >/dev/null
echo "benchmarks: release build in $(($(date +%s) - started)) s"
