#!/usr/bin/env python3
"""Runs the bridge groups of bridge-cpu.sh and prints CPU microseconds per request and each bridge's ratio.

Arguments: the InstructionCount binary, the number of rounds, the number of counted requests per client.
Standard library only.
"""

import os
import statistics
import subprocess
import sys

BRIDGES = ("logging", "metrics", "tracing")
GROUPS = {
    "AsyncHTTPClient on loopback": ["coreapi-ahc"] + [f"coreapi-ahc-{bridge}" for bridge in BRIDGES],
    "StubTransport": ["coreapi-stub"] + [f"coreapi-stub-{bridge}" for bridge in BRIDGES],
    # A generated OpenAPI client's getNote through CoreAPI's ApiSessionTransport and through
    # swift-openapi-async-http-client, against CoreAPI's own call of the same operation.
    "generated OpenAPI client over AsyncHTTPClient": ["coreapi-ahc-note", "openapi-bridge", "openapi-ahc"],
    # CoreAPI over its AsyncHTTPClient transport against raw AsyncHTTPClient with the transport's
    # configuration, with AsyncHTTPClient's default configuration and through `HTTPClient.shared`.
    "CoreAPI over AsyncHTTPClient against raw AsyncHTTPClient": ["coreapi-ahc", "ahc", "ahc-default", "ahc-shared"],
}
# Clients measured against the first of their group with no target: another library's transport, or raw
# AsyncHTTPClient (its ratios to CoreAPI are the extra ratios below).
UNTARGETED = {"openapi-ahc", "ahc", "ahc-default", "ahc-shared"}
# Extra ratios (client, baseline) of one group, per round: the bridge against the other transport, and
# CoreAPI over AsyncHTTPClient against each raw AsyncHTTPClient set-up (target 1.0 against the default
# configuration, which CI enforces on instructions).
EXTRA_RATIOS = [
    ("openapi-bridge", "openapi-ahc"),
    ("coreapi-ahc", "ahc"),
    ("coreapi-ahc", "ahc-default"),
    ("coreapi-ahc", "ahc-shared"),
]


def run_group(binary, clients, requests):
    """CPU microseconds per request of each client of one process, by client."""
    output = subprocess.run(
        [binary, "+".join(clients), str(requests), "1"],
        cwd=os.path.dirname(binary), check=True, capture_output=True, text=True,
    ).stdout
    figures = {}
    for line in output.splitlines():
        fields = line.split()
        if len(fields) == 4 and fields[0] == "cpu":
            figures[fields[1]] = int(fields[2]) / int(fields[3])
    return figures


def main():
    binary, rounds, requests = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    for title, clients in GROUPS.items():
        samples = {client: [] for client in clients}
        ratios = {client: [] for client in clients[1:]}
        for round_index in range(rounds):
            shift = round_index % len(clients)
            figures = run_group(binary, clients[shift:] + clients[:shift], requests)
            for client in clients:
                samples[client].append(figures[client])
            for client in clients[1:]:
                ratios[client].append(figures[client] / figures[clients[0]])
            for ours, theirs in EXTRA_RATIOS:
                if ours in clients and theirs in clients:
                    ratios.setdefault((ours, theirs), []).append(figures[ours] / figures[theirs])
        print(f"{title}: CPU per request, median of {rounds} rounds of {requests} requests")
        base = statistics.median(samples[clients[0]])
        print(f"  {clients[0]:22} {base:8.1f} us")
        for client in clients[1:]:
            figure = statistics.median(samples[client])
            ratio_median = statistics.median(ratios[client])
            spread = (max(ratios[client]) - min(ratios[client])) / ratio_median
            target = "reported" if client in UNTARGETED else "target 1.05, reported"
            print(f"  {client:22} {figure:8.1f} us  ratio {figure / base:.3f} (per-round ratios: median "
                  f"{ratio_median:.3f}, spread {spread * 100:.1f} %)  {target}")
        for ours, theirs in EXTRA_RATIOS:
            if (ours, theirs) in ratios:
                values = ratios[(ours, theirs)]
                middle = statistics.median(values)
                figure = statistics.median(samples[ours]) / statistics.median(samples[theirs])
                print(f"  {ours} / {theirs}: {figure:.3f} (per-round ratios: median {middle:.3f}, spread "
                      f"{(max(values) - min(values)) / middle * 100:.1f} %)  reported")


if __name__ == "__main__":
    main()
