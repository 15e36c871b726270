#!/usr/bin/env bash
# Runs every benchmark suite, exports the results and checks CoreAPI's performance bounds:
#   1. CPU per loopback request, CoreAPI over each transport / that transport raw with the same
#      configuration (URLSession .default, URLSession with CoreAPI's configuration, AsyncHTTPClient)
#                                                                                   <= 1.05
#   2. CPU per loopback request, CoreAPI over AsyncHTTPClient / URLSession .default <= 0.40 one at a
#      time, <= 0.25 with 8 in flight
#   3. allocations per request through the pipeline (MockMiddleware as transport)  <= 39 and 60
#   4. peak resident memory of the 1 GiB multipart upload                          <= 128 MiB
#      (64 MiB reported as a target)
#   5. blocks taken by the file response store kept at its 4 MiB byte limit         <= 4 MiB
# Prints each figure with its bound and PASS or FAIL, writes results/latest.json, and exits non-zero
# when any check fails.
#
# Usage: Benchmarks/check-thresholds.sh [--short | --full | --gates] [--cpu-ratios-as-targets]
#   --short                  few iterations per benchmark (a few minutes after the build), for CI
#   --full                   the full iteration counts (the default)
#   --gates                  CI's run: only the suites behind the enforced checks 3-5 (Pipeline, Upload,
#                            Caching), short, on the build of build.sh --gates; the CPU ratios, which are
#                            targets only, are left to a full run
#   --cpu-ratios-as-targets  report checks 1 and 2 without failing on them: CoreAPI does not meet them
#                            yet (see Docs/Performance.md)
# Every enforced check prints its spread (the range of its samples over their median) and its margin to
# the bound in spreads.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
mode="full"
targets=()
suites=()
for argument in "$@"; do
    case "$argument" in
        --short) mode="short" ;;
        --gates) mode="gates"; suites=(--target Pipeline --target Upload --target Caching) ;;
        --full) mode="full" ;;
        --cpu-ratios-as-targets) targets=(--cpu-ratios-as-targets) ;;
        -h | --help) sed -n '2,25p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "unknown option: $argument (use --short, --full, --gates or --cpu-ratios-as-targets)" >&2; exit 2 ;;
    esac
done
# The release build is shared with build.sh and count-instructions.sh, which leave CI's debug-only
# warnings-as-errors setting out too.
unset COREAPI_WARNINGS_AS_ERRORS
if [ "$mode" != "full" ]; then
    export COREAPI_BENCHMARKS_SHORT=1
else
    unset COREAPI_BENCHMARKS_SHORT
fi

raw="$here/results/raw"
rm -rf "$raw" "$raw-2" "$raw-3"
mkdir -p "$raw"

# Raw units (nanoseconds, bytes, counts) in the exported samples, one file per benchmark and metric.
export COREAPI_BENCHMARKS_RAW_UNITS=1
echo "== running every suite ($mode)"
swift package --package-path "$here" benchmark "${suites[@]}" --format histogramSamples --path "$raw" --no-progress

# Each process seeds Swift's hashing at random, and the seed shifts a client's cost for the whole
# process (see Docs/Performance.md), so a full run measures the loopback pairs in two more processes and
# pools the iterations of all three.
pair_runs=()
if [ "$mode" = "full" ]; then
    for run in 2 3; do
        echo "== loopback pairs, process $run of 3"
        mkdir -p "$raw-$run"
        swift package --package-path "$here" benchmark --target Loopback --filter ".*pair.*" \
            --format histogramSamples --path "$raw-$run" --no-progress
        pair_runs+=(--pair-runs "$raw-$run")
    done
fi

python3 "$here/Scripts/check_thresholds.py" --raw "$raw" --mode "$mode" --output "$here/results/latest.json" \
    "${pair_runs[@]}" "${targets[@]}"
