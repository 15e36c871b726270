#!/usr/bin/env bash
# Runs the concurrency stress tests that share state across many tasks under the thread sanitizer, and
# fails on any ThreadSanitizer report.
#
#   Scripts/tsan-stress.sh [extra swift test arguments]
#
# The sanitized build goes to its own scratch path (.build-tsan, or $TSAN_SCRATCH_PATH) so it does not
# replace the normal build. A report does not fail a Swift Testing test: the sanitizer prints
# "WARNING: ThreadSanitizer: ..." to standard error, the tests still pass, and only the process exits with
# 66 at the end. So besides the exit status, any line mentioning ThreadSanitizer (reports, the closing
# "ThreadSanitizer: reported N warnings", or a FATAL start-up error) fails this script. The scenarios run
# in child processes of the test binary (see ConcurrencyStressTests.swift); each parent test also fails on
# a report in its child's output and repeats that output, so it shows up here.
#
# No suppressions are needed: the sanitizer reported nothing, in CoreAPI or in the toolchain's libraries.
# Foundation, FoundationNetworking, libdispatch and libcurl are not instrumented, so the sanitizer sees a
# race only when both accesses are in CoreAPI or the tests, or in calls it intercepts (memcpy, free, ...).
set -euo pipefail
cd "$(dirname "$0")/.."

scratch="${TSAN_SCRATCH_PATH:-.build-tsan}"
log="$(mktemp)"
trap 'rm -f "$log"' EXIT

# The scenarios are integration tests: the unit test targets are not built (COREAPI_TEST_TARGETS, read by
# Package.swift), which halves the sanitized build.
export COREAPI_TEST_TARGETS="${COREAPI_TEST_TARGETS-CoreAPIIntegrationTests}"

# Keep going after a report so one run shows them all; keep any options the caller set.
export TSAN_OPTIONS="halt_on_error=0:second_deadlock_stack=1${TSAN_OPTIONS:+:$TSAN_OPTIONS}"

# The scenarios that exercise shared state from many tasks: a thousand overlapping requests, the mixed
# outcomes while the environment switches, and the release of the session. The three thousand-call cancel
# scenarios run in `swift test` only: under the sanitizer, starting a thousand calls took 28–57 s and
# cancelling them 1.6–32 s from run to run on two cores, so their time bounds measured the machine.
# Two thousand callers joining and leaving shared exchanges at random run in process: they touch no
# network and bound no time of their own.
scenarios='(ConcurrencyStressTests/(aThousandConcurrentRequestsAllSucceed|mixedCallsWhileTheEnvironmentSwitches)|URLSessionStressTests/sessionDelegateAndTasksAreReleasedAfterThousandsOfCalls|SharedCallsStressTests/twoThousandCallersJoiningAndCancellingAtRandom)'

start=$(date +%s)
status=0
swift test --sanitize=thread --scratch-path "$scratch" --filter "$scenarios" "$@" 2>&1 | tee "$log" \
    || status=$?
elapsed=$(($(date +%s) - start))

reports=$(grep -c "WARNING: ThreadSanitizer" "$log" || true)
# Every line the sanitizer prints names it with a colon ("WARNING: ThreadSanitizer:", "SUMMARY:
# ThreadSanitizer:", "ThreadSanitizer: reported …"); a source file of that name being compiled does not.
mentions=$(grep -c "ThreadSanitizer:" "$log" || true)
printf '\ntsan-stress: %d s (build included), swift test exit status %d, %d ThreadSanitizer reports\n' \
    "$elapsed" "$status" "$reports"
if [ "$mentions" -gt 0 ]; then
    echo "tsan-stress: FAILED, ThreadSanitizer output:" >&2
    grep -n "ThreadSanitizer:" "$log" >&2
    exit 1
fi
if [ "$status" -ne 0 ]; then
    echo "tsan-stress: FAILED, swift test exited with $status" >&2
    exit "$status"
fi
if ! grep -q "Test run with [0-9]* tests\{0,1\} .*passed" "$log"; then
    echo "tsan-stress: FAILED, no passing Swift Testing run found (did the filter match?)" >&2
    exit 1
fi
echo "tsan-stress: passed"
