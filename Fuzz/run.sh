#!/usr/bin/env bash
# Builds the libFuzzer targets in Fuzz/ into .build-fuzz/ and runs each for a while.
#
#   Fuzz/run.sh                      every target for 10 s
#   Fuzz/run.sh --seconds 300        a longer local run
#   Fuzz/run.sh --jobs 1 multipart   one target, nothing in parallel
#   Fuzz/run.sh --unoptimized        built without optimisation, into .build-fuzz-onone/ (CI's short runs:
#                                    the build takes a fraction of the time, each input runs slower)
#
# Exits non-zero when a target crashes, fails a property, times out, leaks or runs out of memory; the
# input that did it is kept in .build-fuzz/artifacts/<target>/. See Fuzz/README.md.
set -euo pipefail

cd "$(dirname "$0")/.."

usage() {
    sed -n '2,11s/^# \{0,1\}//p' "$0"
    echo "targets: ${all_targets[*]}"
}

# target name -> Swift file in Fuzz/; seeds are in Fuzz/Corpus/<target>/.
all_targets=(headers query-encoder multipart retry-after)
source_of() {
    case "$1" in
    headers) echo Fuzz/HeadersFuzz.swift ;;
    query-encoder) echo Fuzz/QueryEncoderFuzz.swift ;;
    multipart) echo Fuzz/MultipartFuzz.swift ;;
    retry-after) echo Fuzz/RetryAfterFuzz.swift ;;
    *) return 1 ;;
    esac
}

seconds=10
optimization=-O
jobs=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
targets=()
while [ $# -gt 0 ]; do
    case "$1" in
    --seconds)
        seconds="${2:-}"
        shift 2 || { usage >&2; exit 2; }
        ;;
    --unoptimized)
        optimization=-Onone
        shift
        ;;
    --jobs)
        jobs="${2:-}"
        shift 2 || { usage >&2; exit 2; }
        ;;
    -h | --help)
        usage
        exit 0
        ;;
    -*)
        echo "fuzz: unknown option $1" >&2
        usage >&2
        exit 2
        ;;
    *)
        source_of "$1" >/dev/null || { echo "fuzz: unknown target $1 (targets: ${all_targets[*]})" >&2; exit 2; }
        targets+=("$1")
        shift
        ;;
    esac
done
[ ${#targets[@]} -gt 0 ] || targets=("${all_targets[@]}")
case "$seconds" in '' | *[!0-9]* | 0) echo "fuzz: --seconds needs a positive integer" >&2; exit 2 ;; esac
case "$jobs" in '' | *[!0-9]* | 0) echo "fuzz: --jobs needs a positive integer" >&2; exit 2 ;; esac

out=.build-fuzz
[ "$optimization" = -O ] || out=.build-fuzz-onone
mkdir -p "$out/lib" "$out/logs"

# MARK: toolchain

swiftc=$(command -v swiftc) || { echo "fuzz: swiftc not found on PATH" >&2; exit 2; }
# The same language settings as Package.swift, so the library compiles exactly as in the package.
language_flags=(
    -swift-version 6
    -enable-upcoming-feature ExistentialAny
    -enable-upcoming-feature MemberImportVisibility
    -enable-upcoming-feature InternalImportsByDefault
)
sanitize_flags=(-sanitize=fuzzer,address "$optimization")

# libFuzzer ships with swift.org Linux toolchains (libclang_rt.fuzzer-<arch>.a), not with Xcode's.
probe_dir=$(mktemp -d)
pids=()
# Background jobs of a script ignore Ctrl-C, so stop them here (each pid is a compiler or a fuzzer).
cleanup() {
    [ ${#pids[@]} -eq 0 ] || kill "${pids[@]}" 2>/dev/null || true
    rm -rf "$probe_dir"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
printf '@_cdecl("LLVMFuzzerTestOneInput") public func fuzz(_ d: UnsafePointer<UInt8>, _ n: Int) -> CInt { 0 }\n' \
    >"$probe_dir/probe.swift"
if ! "$swiftc" "${sanitize_flags[@]}" -parse-as-library "$probe_dir/probe.swift" -o "$probe_dir/probe" \
    >"$probe_dir/log" 2>&1; then
    echo "fuzz: this Swift toolchain cannot build libFuzzer targets (swiftc -sanitize=fuzzer,address failed):" >&2
    grep -i -m 5 -E 'error|fuzzer|undefined' "$probe_dir/log" >&2 || tail -n 5 "$probe_dir/log" >&2
    echo "fuzz: use a swift.org Linux toolchain, which ships lib/clang/*/lib/linux/libclang_rt.fuzzer-$(uname -m).a" >&2
    exit 2
fi

# MARK: build

# Whether $1 is missing or older than any of the other paths (files or directories of .swift files).
stale() {
    local target=$1
    shift
    [ -e "$target" ] || return 0
    [ -n "$(find "$@" -newer "$target" \( -name '*.swift' -o -name run.sh \) 2>/dev/null | head -n 1)" ]
}

# The library once, as a module with testing enabled so the targets can reach internal symbols with
# `@testable import CoreAPI`; compiling it into every target would cost ~40 s of CPU per target.
library="$out/lib/CoreAPI.o"
started=$(date +%s)
if stale "$library" Sources/CoreAPI Fuzz/run.sh; then
    echo "fuzz: building CoreAPI with -sanitize=fuzzer,address ..."
    sources=()
    while IFS= read -r file; do sources+=("$file"); done < <(find Sources/CoreAPI -name '*.swift' | LC_ALL=C sort)
    if ! "$swiftc" "${sanitize_flags[@]}" "${language_flags[@]}" -parse-as-library -wmo -enable-testing \
        -module-name CoreAPI -package-name CoreAPI -emit-module -emit-module-path "$out/lib/CoreAPI.swiftmodule" \
        -c "${sources[@]}" -o "$library" >"$out/logs/build-CoreAPI.log" 2>&1; then
        rm -f "$library"
        cat "$out/logs/build-CoreAPI.log" >&2
        echo "fuzz: building CoreAPI failed" >&2
        exit 2
    fi
fi

build_target() {
    local target=$1 source binary
    source=$(source_of "$target")
    binary="$out/$target"
    stale "$binary" "$source" Fuzz/Support "$library" Fuzz/run.sh || return 0
    if ! "$swiftc" "${sanitize_flags[@]}" -swift-version 6 -parse-as-library -module-name "Fuzz_${target//-/_}" \
        -I "$out/lib" Fuzz/Support/*.swift "$source" "$library" -o "$binary" >"$out/logs/build-$target.log" 2>&1; then
        rm -f "$binary"
        return 1
    fi
}

echo "fuzz: building ${#targets[@]} targets ..."
for target in "${targets[@]}"; do
    build_target "$target" &
    pids+=($!)
    if [ ${#pids[@]} -ge "$jobs" ]; then
        wait "${pids[0]}" || true
        pids=("${pids[@]:1}")
    fi
done
while [ ${#pids[@]} -gt 0 ]; do
    wait "${pids[0]}" || true
    pids=("${pids[@]:1}")
done
for target in "${targets[@]}"; do
    if [ ! -x "$out/$target" ]; then
        cat "$out/logs/build-$target.log" >&2
        echo "fuzz: building $target failed" >&2
        exit 2
    fi
done
echo "fuzz: built in $(($(date +%s) - started)) s"

# MARK: run

run_target() {
    local target=$1
    local corpus="$out/corpus/$target" artifacts="$out/artifacts/$target/"
    mkdir -p "$corpus" "$artifacts"
    # The seeds join whatever earlier runs found; the repository's corpus is never written.
    cp Fuzz/Corpus/"$target"/* "$corpus"/
    SWIFT_BACKTRACE=enable=no exec "$out/$target" -max_total_time="$seconds" -timeout=5 -rss_limit_mb=2048 -print_final_stats=1 \
        -artifact_prefix="$artifacts" "$corpus" >"$out/logs/run-$target.log" 2>&1
}

echo "fuzz: running ${#targets[@]} targets for $seconds s each, $jobs at a time ..."
declare -A status
names=()
collect() {
    local code=0
    wait "${pids[0]}" || code=$?
    status[${names[0]}]=$code
    pids=("${pids[@]:1}")
    names=("${names[@]:1}")
}
for target in "${targets[@]}"; do
    run_target "$target" &
    pids+=($!)
    names+=("$target")
    [ ${#pids[@]} -lt "$jobs" ] || collect
done
while [ ${#pids[@]} -gt 0 ]; do collect; done

# MARK: report

stat() {
    sed -n "s/^stat::$1: *//p" "$2" | tail -n 1
}

failed=()
for target in "${targets[@]}"; do
    log="$out/logs/run-$target.log"
    runs=$(stat number_of_executed_units "$log")
    rate=$(stat average_exec_per_sec "$log")
    new=$(stat new_units_added "$log")
    rss=$(stat peak_rss_mb "$log")
    cov=$(sed -n 's/^#[0-9].* cov: \([0-9]*\) ft: \([0-9]*\).*/\1 edges, \2 features/p' "$log" | tail -n 1)
    if [ "${status[$target]}" = 0 ]; then
        printf 'fuzz: %-13s clean   %s execs (%s/s), %s new inputs, coverage %s, peak RSS %s MB\n' \
            "$target" "${runs:-?}" "${rate:-?}" "${new:-?}" "${cov:-?}" "${rss:-?}"
    else
        failed+=("$target")
        printf 'fuzz: %-13s FAILED  (exit %s) after %s execs; log: %s\n' "$target" "${status[$target]}" "${runs:-?}" "$log"
        { grep -E 'PROPERTY FAILED|ERROR: |SUMMARY: ' "$log" || tail -n 5 "$log"; } | head -n 10 | sed 's/^/    /' || true
        artifact=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tail -n 1)
        [ -z "$artifact" ] || echo "    reproduce: $out/$target $artifact"
    fi
done

if [ ${#failed[@]} -gt 0 ]; then
    echo "fuzz: ${#failed[@]} of ${#targets[@]} targets failed: ${failed[*]}"
    exit 1
fi
echo "fuzz: ${#targets[@]} targets, all clean"
