#!/usr/bin/env bash
# Reports the CPU time each observability bridge adds per request, over its library's no-op backend:
# CoreAPI over AsyncHTTPClient on loopback (GET /user + JSON decode against BenchServer) and over
# StubTransport, each bare and with the swift-log, swift-metrics and tracing bridges; and what CoreAPI's
# OpenAPI bridge costs: a generated client's getNote (GET /notes/1) through ApiSessionTransport against
# CoreAPI's own call of it and against the generated client through swift-openapi-async-http-client; and
# CoreAPI over AsyncHTTPClient against raw AsyncHTTPClient with the transport's configuration, with its
# default configuration and through `HTTPClient.shared`.
# Reported, not enforced: CPU time on a shared two-core machine moves by several percent from run to
# run, so the enforceable figure is the instruction count of count-instructions.sh; this one says what the
# instructions cost in time, allocations and locks included.
#
# How a figure is made. `InstructionCount` runs natively (no valgrind) with one group of clients per
# process; each client makes 50 warm-up requests, then the counted ones, and prints the CPU time (user +
# system, every thread of the client process; the server runs in a process of its own) of those. Each group runs in several rounds, the order of its
# clients rotated each round; a client's figure is the median of its rounds, a ratio is taken between
# medians, and its spread is the range of the per-round ratios over their median.
#
# Usage: Benchmarks/bridge-cpu.sh [rounds] [requests]   (defaults: 7 rounds of 3,000 requests)
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
rounds="${1:-7}"
requests="${2:-3000}"
unset COREAPI_WARNINGS_AS_ERRORS
swift build -c release --package-path "$here" --product InstructionCount
swift build -c release --package-path "$here" --product BenchServer
bin="$(swift build -c release --package-path "$here" --show-bin-path)"
python3 "$here/Scripts/bridge_cpu.py" "$bin/InstructionCount" "$rounds" "$requests"
