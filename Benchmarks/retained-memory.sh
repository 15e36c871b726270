#!/usr/bin/env bash
# Measures the heap memory each small loopback call leaves behind (GET /user + JSON decode against
# BenchServer), for CoreAPI's default session over URLSession and for raw URLSession driven two ways,
# each client in a process of its own. Reported only: nothing is enforced.
#
#   Benchmarks/retained-memory.sh [calls] [in flight]     100,000 calls, one at a time, by default
#
# Each line is RetainedMemory's (see Sources/RetainedMemory/main.swift): retained_bytes_per_call is the
# slope of glibc's heap in use (mallinfo2) over ten readings taken as the calls go, after 2,000 warm-up
# calls; after_release_per_call is what is still held once the client was shut down and released.
# CoreAPI's share is the difference between coreapi-default and urlsession-delegate (raw URLSession
# with the same configuration, a session delegate and data tasks, as CoreAPI's transport drives it).
# Set COREAPI_RETAINED_CLIENTS to measure other clients (coreapi-ahc and ahc need the package's
# AsyncHTTPClient trait: build without --disable-default-traits).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
calls="${1:-100000}"
in_flight="${2:-1}"
clients="${COREAPI_RETAINED_CLIENTS:-coreapi-default urlsession-delegate urlsession-lean}"
unset COREAPI_WARNINGS_AS_ERRORS
swift build -c release --package-path "$here" --disable-default-traits --product RetainedMemory
swift build -c release --package-path "$here" --disable-default-traits --product BenchServer
bin="$(swift build -c release --package-path "$here" --disable-default-traits --show-bin-path)"
for client in $clients; do
    "$bin/RetainedMemory" "$client" "$calls" "$in_flight"
done
