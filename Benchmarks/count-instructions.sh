#!/usr/bin/env bash
# Counts the instructions each loopback client executes per request (GET /user + JSON decode), with
# valgrind's callgrind, and checks CoreAPI's bounds on them:
#   CoreAPI / URLSession with the same configuration              <= 1.05
#   CoreAPI default session / URLSession .default                  <= 0.75
# Unlike CPU time, which moves by 2-3x on a shared virtual machine, these counts repeat to within about
# 2 % from run to run: threads interleave differently under valgrind each time, and each process seeds
# Swift's hashing at random, which decides how often the transport's header dictionaries collide (with
# SWIFT_DETERMINISTIC_HASHING=1 the spread of the default session's counts fell from 16,000 to 4,000
# instructions per request, but one fixed seed would favour some clients over others for good). So each
# client is counted in five rounds, interleaved, and the ratios are taken between the medians. Per request =
# (count for 400 requests - count for 100) / 300, so start-up and warm-up cancel out. Only the client
# process is counted: the server runs in a child that callgrind does not follow. It also reports raw
# URLSession with CoreAPI's default configuration against `.default`: the lowest ratio CoreAPI's default
# session could reach through the same transport. Installs valgrind with apt-get when it is missing (as
# root, or with sudo).
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

rounds=5
results=""
for round in $(seq "$rounds"); do
    for client in coreapi-same urlsession-same coreapi-default urlsession-default urlsession-lean; do
        few="$(count "$client" 100)"
        many="$(count "$client" 400)"
        results="$results$client $few $many
"
    done
done

printf '%s' "$results" | python3 -c '
import statistics
import sys
rounds = {}
for line in sys.stdin:
    client, few, many = line.split()
    rounds.setdefault(client, []).append((int(many) - int(few)) / 300)
per_request = {client: statistics.median(counts) for client, counts in rounds.items()}
for client, counts in rounds.items():
    each = ", ".join(f"{count:,.0f}" for count in counts)
    print(f"{client:20} {per_request[client]:10,.0f} instructions per request (median of {each})")
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
