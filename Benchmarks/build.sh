#!/usr/bin/env bash
# Builds the benchmark package in release once: every suite, BenchServer and InstructionCount, which
# check-thresholds.sh and count-instructions.sh then run without compiling anything again.
#
#   Benchmarks/build.sh
#
# CoreAPI's own warnings-as-errors setting (COREAPI_WARNINGS_AS_ERRORS, set by CI for the debug builds) is
# left out here: warnings are checked in the debug build, and the benchmark scripts build without it, so
# the three share one release build.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
unset COREAPI_WARNINGS_AS_ERRORS
started=$(date +%s)
swift build -c release --package-path "$here"
echo "benchmarks: release build in $(($(date +%s) - started)) s"
