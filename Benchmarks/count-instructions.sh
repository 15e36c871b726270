#!/usr/bin/env bash
# Counts the instructions each loopback client executes per request (GET /user + JSON decode), with
# valgrind's callgrind, and checks CoreAPI's bounds on them:
#   CoreAPI / URLSession with the same configuration              <= 1.05
#   CoreAPI default session / URLSession .default                  <= 0.75
# Unlike CPU time, which moves by 2-3x on a shared virtual machine, these counts repeat to within about
# 1 % from run to run. Per request = (count for 400 requests - count for 100) / 300, so start-up and
# warm-up cancel out. Only the client process is counted: the server runs in a child that callgrind does
# not follow. It also reports raw URLSession with CoreAPI's default configuration against `.default`:
# the lowest ratio CoreAPI's default session could reach through the same transport. Installs valgrind
# with apt-get when it is missing (as root, or with sudo).
#
# Usage: Benchmarks/count-instructions.sh
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
if ! command -v valgrind >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
    $SUDO apt-get update -qq && $SUDO apt-get install -y -qq valgrind
fi

swift build -c release --package-path "$here" --product InstructionCount
swift build -c release --package-path "$here" --product BenchServer
bin="$(swift build -c release --package-path "$here" --show-bin-path)"

# Instructions of one run of `InstructionCount <client> <requests>`.
count() {
    local log
    log="$(mktemp)"
    if ! valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin/InstructionCount" "$1" "$2" >"$log" 2>&1; then
        cat "$log" >&2
        rm -f "$log"
        return 1
    fi
    sed -n 's/.*I *refs: *//p' "$log" | tr -d ','
    rm -f "$log"
}

results=""
for client in coreapi-same urlsession-same coreapi-default urlsession-default urlsession-lean; do
    few="$(count "$client" 100)"
    many="$(count "$client" 400)"
    results="$results$client $few $many
"
done

printf '%s' "$results" | python3 -c '
import sys
per_request = {}
for line in sys.stdin:
    client, few, many = line.split()
    per_request[client] = (int(many) - int(few)) / 300
    print(f"{client:20} {per_request[client]:10,.0f} instructions per request")
checks = [
    ("CoreAPI / URLSession, same configuration", "coreapi-same", "urlsession-same", 1.05),
    ("CoreAPI default session / URLSession .default", "coreapi-default", "urlsession-default", 0.75),
]
floor = per_request["urlsession-lean"] / per_request["urlsession-default"]
label = "URLSession, CoreAPI default configuration / .default"
print(f"{label:48} {floor:6.3f}  (transport floor, not checked)")
failed = False
for label, coreapi, baseline, bound in checks:
    ratio = per_request[coreapi] / per_request[baseline]
    verdict = "PASS" if ratio <= bound else "FAIL"
    failed |= verdict == "FAIL"
    print(f"{label:48} {ratio:6.3f}  (bound {bound:.2f})  {verdict}")
sys.exit(1 if failed else 0)
'
