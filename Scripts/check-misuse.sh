#!/usr/bin/env bash
# Compiles each program in Tests/Misuse — a misuse a newcomer writes the documented way — against the
# package's debug build, and checks what its first line expects (see Tests/Misuse/README.md): a compile
# error with a given text, or a given output when it runs.
#
# Usage: Scripts/check-misuse.sh [scratch-path]   (default: .build; it must hold a debug build of the
# library modules, as `swift build` leaves it). A program that runs is linked with the object files of
# CoreAPI, CoreAPIText and CoreAPITesting from that build, so nothing is compiled twice.
set -euo pipefail
cd "$(dirname "$0")/.."

build="${1:-.build}/debug"
for module in CoreAPI CoreAPIText CoreAPITesting; do
    if [ ! -f "$build/Modules/$module.swiftmodule" ]; then
        echo "check-misuse: no $module module in $build; run swift build first" >&2
        exit 1
    fi
done
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# The objects of the modules' current sources, from each module's output file map: a folder may still hold
# the object of a source file that was since renamed or removed.
mapfile -t objects < <(python3 - "$build" <<'PYTHON'
import json, sys
for module in ("CoreAPI", "CoreAPIText", "CoreAPITesting"):
    with open(f"{sys.argv[1]}/{module}.build/output-file-map.json") as file:
        for source, outputs in json.load(file).items():
            if source and "object" in outputs:
                print(outputs["object"])
PYTHON
)
failures=0
count=0
for program in Tests/Misuse/*.swift; do
    count=$((count + 1))
    name="$(basename "$program" .swift)"
    first="$(head -n 1 "$program")"
    log="$work/$name.log"
    case "$first" in
    "// expect-error: "*)
        expected="${first#// expect-error: }"
        if swiftc -typecheck -I "$build/Modules" "$program" >"$log" 2>&1; then
            echo "FAIL $name: compiled, expected an error containing: $expected"
            failures=$((failures + 1))
        elif grep -qF -- "$expected" "$log"; then
            echo "ok   $name: does not compile ($expected)"
        else
            echo "FAIL $name: the compiler did not say: $expected"
            sed 's/^/    /' "$log" | head -n 20
            failures=$((failures + 1))
        fi
        ;;
    "// expect-output: "*)
        expected="${first#// expect-output: }"
        if ! swiftc -parse-as-library -I "$build/Modules" "$program" "${objects[@]}" -o "$work/$name" >"$log" 2>&1; then
            echo "FAIL $name: does not compile"
            sed 's/^/    /' "$log" | head -n 20
            failures=$((failures + 1))
            continue
        fi
        output="$(timeout 60 "$work/$name" 2>&1 || true)"
        if [ "$output" = "$expected" ]; then
            echo "ok   $name: $output"
        else
            echo "FAIL $name: printed \"$output\", expected \"$expected\""
            failures=$((failures + 1))
        fi
        ;;
    *)
        echo "FAIL $name: the first line says neither expect-error nor expect-output"
        failures=$((failures + 1))
        ;;
    esac
done
echo "check-misuse: $((count - failures)) of $count programs behave as expected"
[ "$failures" -eq 0 ]
