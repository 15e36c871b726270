#!/usr/bin/env bash
# Builds the benchmark package in release once, so that check-thresholds.sh and count-instructions.sh
# compile nothing more.
#
#   Benchmarks/build.sh            every suite, BenchServer and InstructionCount, with the default trait
#                                  (the AsyncHTTPClient clients): what a full run needs
#   Benchmarks/build.sh --gates    the same without the AsyncHTTPClient trait (--disable-default-traits):
#                                  what CI's gates need; SwiftNIO, BoringSSL and AsyncHTTPClient are not built
#
# CoreAPI's own warnings-as-errors setting (COREAPI_WARNINGS_AS_ERRORS, set by CI for the debug builds) is
# left out here: warnings are checked in the debug build, and the benchmark scripts build without it, so
# they share this build. The benchmark plugin's own tools are built here too, by listing the benchmarks.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
traits=()
case "${1:-}" in
    "") ;;
    --gates) traits=(--disable-default-traits) ;;
    *) echo "usage: $0 [--gates]" >&2; exit 2 ;;
esac
unset COREAPI_WARNINGS_AS_ERRORS
started=$(date +%s)
swift build -c release --package-path "$here" "${traits[@]}"
swift package --package-path "$here" "${traits[@]}" benchmark list >/dev/null
echo "benchmarks: release build in $(($(date +%s) - started)) s"
