"""Seconds per stored board of `generate` with its default settings (gates included).

    .venv/bin/python bench/bench_generate_speed.py ["queens 8" "starbattle 10 2" ...] [--seeds 60] [--cpu N]

Seeds 70,000 + i, one after the other; prints Markdown with the median and mean per board, the
drawings made and the rejections by reason. To compare two commits, run it on both under the same load
(the scripts read the engine from the checkout they live in).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.games.starbattle import Rules, generate  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("specs", nargs="*", default=["queens 8", "starbattle 10 2"])
    parser.add_argument("--seeds", type=int, default=60)
    parser.add_argument("--cpu", type=int, default=-1, help="pin to this core (-1: no pinning)")
    args = parser.parse_args()
    if args.cpu >= 0:
        os.sched_setaffinity(0, {args.cpu})
    print("| rules | boards | median / board | mean / board | drawings | rejected |\n|---|---:|---:|---:|---:|---|")
    for spec in args.specs:
        rules = Rules.parse(spec)
        times, drawings, rejected = [], 0, Counter()
        for seed in range(args.seeds):
            started = time.perf_counter()
            _, stats = generate(rules, 70_000 + seed)
            times.append(time.perf_counter() - started)
            drawings += stats.drawings
            rejected.update(stats.rejected)
        reasons = ", ".join(f"{reason} {count}" for reason, count in rejected.most_common()) or "none"
        print(f"| {spec} | {args.seeds} | {statistics.median(times) * 1000:.1f} ms | "
              f"{statistics.mean(times) * 1000:.1f} ms | {drawings} | {reasons} |", flush=True)


if __name__ == "__main__":
    main()
