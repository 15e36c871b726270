#!/usr/bin/env python3
"""Checks the instruction counts of count-instructions.sh against CoreAPI's guards and targets.

Reads lines `<mode> <client> <instructions> <requests> [<mallocs>]` on standard input, one per round of a
client: the instructions callgrind counted over that many requests, warm-up, start-up and shut-down left
out, and the malloc-family calls among them. Per request = count / requests; a client's figure is the
median of its rounds, and a ratio is taken between two medians.

The spread of a figure is the range of its samples over their median. A ratio's spread is the sum of its
two clients' spreads (each may move either way), except for two clients counted in one process
(`SAME_PROCESS`), whose Nth rounds share that process's state: a shift of the whole process moves both,
so their ratio's spread is the range of the per-round ratios. Every guard prints its figure, its spread and its margin
to the bound in spreads; a margin under three spreads is flagged, since noise alone could then trip it.
An absolute guard's spread is its client's. Clients that were not counted (a CI run counts only the
guards' clients and the bridges over AsyncHTTPClient) leave their checks out.
Standard library only.
"""

import statistics
import sys

# (label, mode, CoreAPI client, baseline client, bound, enforced)
CHECKS = []
for _mode in ("sequential", "concurrent8"):
    CHECKS += [
        (f"{_mode}: CoreAPI / URLSession, same configuration", _mode, "coreapi-same", "urlsession-same", 1.03,
         False),
        (f"{_mode}: CoreAPI default session / URLSession, same configuration", _mode, "coreapi-default",
         "urlsession-lean", 1.03, False),
        (f"{_mode}: CoreAPI / AsyncHTTPClient, same configuration", _mode, "coreapi-ahc", "ahc", 1.10, False),
    ]
CHECKS += [
    # Guard bounds, at least three spreads from their figures (Docs/Performance.md, "Gates and their
    # margins"). The rounds of a URLSession client still spread by 1-5 % with a fixed hash seed
    # (FoundationNetworking's queues wake and its timers re-arm at other points of a run under valgrind), so
    # these two ratios guard only against changes of several percent on the URLSession path; CoreAPI's own
    # path is watched closely by the stub-transport guard below. The 1.03 targets above stay where CoreAPI
    # means to be.
    ("sequential: CoreAPI / URLSession, same configuration (guard)", "sequential", "coreapi-same",
     "urlsession-same", 1.18, True),
    ("sequential: CoreAPI default session / URLSession .default (guard)", "sequential", "coreapi-default",
     "urlsession-default", 0.86, True),
    # Over AsyncHTTPClient the bound is 1.20, enforced since 2026-11-28: 1.151 in a count of three rounds
    # (CI's counts of the code before read 1.161-1.165), with the rounds' ratios spread by 0.1-0.5 % and
    # CI's counts of one commit by 0.3 % between runs; a build laid out anew moves raw AsyncHTTPClient's
    # count by up to 1.7 %, so even that leaves the figure under the bound. The 1.40 guard stays as the
    # outer line. Raw AsyncHTTPClient hops between its event loop and the calling task, and how often
    # its loop wakes depends on the load beside the run: on a loaded machine its count rose by up to 5 %,
    # which only lowers the ratio.
    ("sequential: CoreAPI / AsyncHTTPClient, instructions", "sequential", "coreapi-ahc", "ahc", 1.20, True),
    ("sequential: CoreAPI / AsyncHTTPClient, instructions (guard)", "sequential", "coreapi-ahc", "ahc", 1.40,
     True),
    # Against raw AsyncHTTPClient as a server without CoreAPI sets it up, `HTTPClient.Configuration()`
    # (ahc-default), whose client makes a tracing span of its own per request with the bootstrapped (here
    # the no-op) tracer and follows redirects: CoreAPI over its transport must cost no more. 0.936 when
    # set (2026-11-29, three rounds; 0.932 and 0.936 in CI); the bound is 7 % away, four times the 1.7 % a new build's layout moves
    # a raw AsyncHTTPClient count, and load raises that count, which only lowers the ratio.
    ("sequential: CoreAPI / AsyncHTTPClient, its default configuration", "sequential", "coreapi-ahc",
     "ahc-default", 1.00, True),
    # The same with 8 in flight, each client in a process of its own (a full run): reported.
    ("concurrent8: CoreAPI / AsyncHTTPClient, its default configuration", "concurrent8", "coreapi-ahc",
     "ahc-default", 1.00, False),
    # The 0.40 bound is on CPU (check-thresholds.sh), where the kernel time of FoundationNetworking's thread
    # hops counts; callgrind counts user-space instructions only, so this ratio is reported.
    ("sequential: CoreAPI over AsyncHTTPClient / URLSession .default", "sequential", "coreapi-ahc",
     "urlsession-default", 0.40, False),
]

# What each observability bridge adds over its library's no-op backend (a swift-log handler that drops
# everything, swift-metrics' NOOP handler, the no-op tracer): at most 5 % more instructions per request
# over the same call without it. Over AsyncHTTPClient on loopback, a request on the wire, CI counts all
# three; both clients of each ratio are CoreAPI over the same transport in one process, whose rounds and
# counts between builds move the ratio by under 0.3 %. Enforced where the figure sits three of those
# spreads below 1.05: swift-log (1.013), metrics (1.035 since the chain's end is no longer allocated and
# the bridge keeps its server and dimensions; 1.047 before) and tracing (1.037).
# Over StubTransport, CoreAPI's own path with no engine, a bridge weighs more (1.048 for swift-log,
# 1.15-1.16 for the others): reported by a full run.
for _bridge, _name, _enforced in (("logging", "swift-log", True), ("metrics", "swift-metrics", True),
                                  ("tracing", "tracing", True)):
    CHECKS.append((f"sequential: {_name} bridge (no-op) / none, over AsyncHTTPClient", "sequential",
                   f"coreapi-ahc-{_bridge}", "coreapi-ahc", 1.05, _enforced))
    CHECKS.append((f"sequential: {_name} bridge (no-op) / none, over StubTransport", "sequential",
                   f"coreapi-stub-{_bridge}", "coreapi-stub", 1.05, False))

# A client made by swift-openapi-generator, its `getNote` (GET /notes/1, a 36-byte JSON note) through
# CoreAPI's `ApiSessionTransport` over CoreAPI's AsyncHTTPClient transport, against CoreAPI's own call of
# the same operation over the same transport: what the bridge costs, target 1.05. Reported: it is not
# enforced unless the figure sits three spreads of its rounds inside the bound (Docs/Performance.md).
CHECKS.append(("sequential: OpenAPI bridge / CoreAPI's own call, same operation", "sequential", "openapi-bridge",
               "coreapi-ahc-note", 1.05, False))

# Ratios printed with the spread of their per-round ratios, with no bound: the generated client through
# CoreAPI's bridge against the same client through swift-openapi-async-http-client.
REPORTED = [
    ("sequential: CoreAPI / AsyncHTTPClient, HTTPClient.shared", "sequential", "coreapi-ahc", "ahc-shared"),
    ("sequential: OpenAPI bridge / swift-openapi-async-http-client", "sequential", "openapi-bridge", "openapi-ahc"),
    ("sequential: CoreAPI's own call / swift-openapi-async-http-client", "sequential", "coreapi-ahc-note",
     "openapi-ahc"),
]

# (label, mode, client, bound in instructions per request): enforced. CoreAPI over StubTransport is
# CoreAPI's own path with no engine: its rounds repeat to within 1.5 %, and between runs it moved by 2 %
# at most, so its bound sits 9 % above the figure (66,086, 2026-11-27; about 72,000 with CoreAPI's own
# request and response values, 96,000 before) and catches a change that makes the path a few percent
# longer.
ABSOLUTE_GUARDS = [
    ("sequential: CoreAPI over StubTransport, instructions per call (guard)", "sequential", "coreapi-stub",
     72_000),
]


# (label, mode, CoreAPI client, baseline client, bound): malloc-family calls per request, enforced. They do
# not depend on timing: the rounds of a client agree to a tenth of a malloc.
MALLOC_CHECKS = [
    ("sequential: CoreAPI / AsyncHTTPClient, mallocs per request", "sequential", "coreapi-ahc", "ahc", 1.4),
]


def margin_note(figure, bound, noise):
    """The spread, the margin to the bound and the margin in spreads, flagged under three spreads."""
    margin = (bound - figure) / figure
    if noise >= 0.0001:
        spreads = f"{margin / noise:.1f} spreads"
    else:
        # Rounds of a deterministic client agree to a few instructions: their spread says nothing of the
        # spread between runs, which Docs/Performance.md gives for this guard.
        spreads = "no spread within this run (see Docs/Performance.md for the spread between runs)"
    note = f"  spread {noise * 100:.2f} %, margin {margin * 100:.2f} % = {spreads}"
    if noise > 0 and margin < 3 * noise:
        note += "  THIN MARGIN"
    return note


# The clients count-instructions.sh counts in one process, round by round (joined by `+` there).
SAME_PROCESS = [
    {"ahc", "coreapi-ahc", "coreapi-ahc-logging", "coreapi-ahc-metrics", "coreapi-ahc-tracing", "ahc-default",
     "ahc-shared"},
    {"coreapi-stub", "coreapi-stub-logging", "coreapi-stub-metrics", "coreapi-stub-tracing"},
    {"coreapi-ahc-note", "openapi-bridge", "openapi-ahc"},
]


def ratio_spread(rounds, mode, coreapi, baseline):
    """The spread of coreapi / baseline: of the per-round ratios for two clients counted in one process,
    else the sum of the two clients' spreads."""
    ours, theirs = rounds[(mode, coreapi)], rounds[(mode, baseline)]
    if len(ours) == len(theirs) and any(coreapi in group and baseline in group for group in SAME_PROCESS):
        return spread([a / b for a, b in zip(ours, theirs)])
    return spread(ours) + spread(theirs)


def spread(values):
    """Range over median; 0 for a single value."""
    middle = statistics.median(values)
    return (max(values) - min(values)) / middle if middle else 0.0


def main():
    rounds = {}
    malloc_rounds = {}
    for line in sys.stdin:
        if not line.strip():
            continue
        mode, client, instructions, requests, *mallocs = line.split()
        rounds.setdefault((mode, client), []).append(int(instructions) / int(requests))
        if mallocs:
            malloc_rounds.setdefault((mode, client), []).append(int(mallocs[0]) / int(requests))
    if not rounds:
        sys.exit("no counts on standard input")
    per_request = {key: statistics.median(counts) for key, counts in rounds.items()}
    for (mode, client), counts in rounds.items():
        each = ", ".join(f"{count:,.0f}" for count in counts)
        print(f"{mode:12} {client:20} {per_request[(mode, client)]:10,.0f} instructions per request "
              f"(median of {each}; spread {spread(counts) * 100:.2f} %)")
    if ("sequential", "urlsession-lean") in per_request and ("sequential", "urlsession-default") in per_request:
        floor = per_request[("sequential", "urlsession-lean")] / per_request[("sequential", "urlsession-default")]
        label = "sequential: URLSession, CoreAPI configuration / .default"
        print(f"{label:70} {floor:6.3f}  (transport floor, not checked)")
    failed = False
    for label, mode, coreapi, baseline, bound, enforced in CHECKS:
        if (mode, coreapi) not in rounds or (mode, baseline) not in rounds:
            continue
        ratio = per_request[(mode, coreapi)] / per_request[(mode, baseline)]
        if ratio <= bound:
            verdict = "PASS"
        elif enforced:
            verdict = "FAIL"
            failed = True
        else:
            verdict = "ABOVE TARGET (not enforced)"
        line = f"{label:70} {ratio:6.3f}  (bound {bound:.2f})  {verdict}"
        if enforced:
            line += margin_note(ratio, bound, ratio_spread(rounds, mode, coreapi, baseline))
        elif coreapi == "openapi-bridge":
            # Reported with its spread, and its margin once the figure is under the target.
            noise = ratio_spread(rounds, mode, coreapi, baseline)
            line += margin_note(ratio, bound, noise) if ratio <= bound else f"  spread {noise * 100:.2f} %"
        print(line)
    for label, mode, ours, theirs in REPORTED:
        if (mode, ours) not in rounds or (mode, theirs) not in rounds:
            continue
        ratio = per_request[(mode, ours)] / per_request[(mode, theirs)]
        noise = ratio_spread(rounds, mode, ours, theirs)
        print(f"{label:70} {ratio:6.3f}  (reported; spread {noise * 100:.2f} %)")
    for label, mode, coreapi, baseline, bound in MALLOC_CHECKS:
        if (mode, coreapi) not in malloc_rounds or (mode, baseline) not in malloc_rounds:
            continue
        ours, theirs = malloc_rounds[(mode, coreapi)], malloc_rounds[(mode, baseline)]
        ratio = statistics.median(ours) / statistics.median(theirs)
        verdict = "PASS" if ratio <= bound else "FAIL"
        failed = failed or verdict == "FAIL"
        figures = f"{statistics.median(ours):.1f} / {statistics.median(theirs):.1f}"
        line = f"{label:70} {ratio:6.3f}  ({figures}; bound {bound:.2f})  {verdict}"
        print(line + margin_note(ratio, bound, spread(ours) + spread(theirs)))
    for label, mode, client, bound in ABSOLUTE_GUARDS:
        if (mode, client) not in rounds:
            continue
        figure = per_request[(mode, client)]
        verdict = "PASS" if figure <= bound else "FAIL"
        failed = failed or verdict == "FAIL"
        line = f"{label:70} {figure:,.0f}  (bound {bound:,})  {verdict}"
        print(line + margin_note(figure, bound, spread(rounds[(mode, client)])))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
