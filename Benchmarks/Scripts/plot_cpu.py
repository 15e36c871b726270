#!/usr/bin/env python3
"""Plots CPU per loopback request, CoreAPI next to the raw client of each pair (URLSession or
AsyncHTTPClient), from a threshold-script summary.

Usage: plot_cpu.py [results/latest.json] [output.png]

Reads the pair figures (both clients alternating in the same iterations) that check_thresholds.py wrote
and draws one pair of bars per comparison. Needs matplotlib (`pip install matplotlib`).
"""

import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main():
    """Entry point."""
    source = sys.argv[1] if len(sys.argv) > 1 else "Benchmarks/results/latest.json"
    target = sys.argv[2] if len(sys.argv) > 2 else "Docs/performance-cpu.png"
    with open(source, encoding="utf-8") as handle:
        summary = json.load(handle)
    pairs = summary["figures"]["pairs"]
    labels = {
        "sequential: same configuration": "sequential\nsame configuration",
        "sequential: default session": "sequential\nCoreAPI default vs .default",
        "concurrent8: same configuration": "8 in flight\nsame configuration",
        "concurrent8: default session": "8 in flight\nCoreAPI default vs .default",
        "sequential: default session over transport floor": "sequential\nCoreAPI default vs\nURLSession, lean",
        "concurrent8: default session over transport floor": "8 in flight\nCoreAPI default vs\nURLSession, lean",
        "sequential: AsyncHTTPClient transport": "sequential\nCoreAPI vs\nAsyncHTTPClient",
        "concurrent8: AsyncHTTPClient transport": "8 in flight\nCoreAPI vs\nAsyncHTTPClient",
        "sequential: AsyncHTTPClient transport over URLSession default": "sequential\nCoreAPI on AHC vs\nURLSession .default",
        "concurrent8: AsyncHTTPClient transport over URLSession default": "8 in flight\nCoreAPI on AHC vs\nURLSession .default",
    }
    names = [name for name in labels if name in pairs]
    core = [pairs[name]["coreapi_cpu_us"] for name in names]
    raw = [pairs[name]["urlsession_cpu_us"] for name in names]
    positions = range(len(names))
    width = 0.38
    figure, axes = plt.subplots(figsize=(15, 5), dpi=110)
    axes.bar([p - width / 2 for p in positions], raw, width, label="the raw client of the pair + JSONDecoder", color="#8da0cb")
    bars = axes.bar([p + width / 2 for p in positions], core, width, label="CoreAPI perform", color="#fc8d62")
    for bar, name in zip(bars, names):
        axes.annotate("×%.3f" % pairs[name]["ratio"], (bar.get_x() + bar.get_width() / 2, bar.get_height()),
                      ha="center", va="bottom", fontsize=9)
    axes.set_xticks(list(positions))
    axes.set_xticklabels([labels[name] for name in names], fontsize=9)
    axes.set_ylabel("CPU per request (µs)")
    axes.set_xlabel("bars: median CPU per request over iterations; labels: median of the per-iteration ratios",
                    fontsize=8)
    axes.set_title("GET + JSON decode on loopback, clients alternating in one run (%s, %s mode)"
                   % (summary["time"][:10], summary["mode"]), fontsize=10)
    axes.set_ylim(0, max(core + raw) * 1.25)
    axes.legend(fontsize=9, loc="upper left")
    axes.grid(axis="y", alpha=0.3)
    figure.tight_layout()
    figure.savefig(target)
    print("wrote %s" % target)


if __name__ == "__main__":
    main()
