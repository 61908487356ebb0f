"""Difficulty in every drawing style: the band mix without `--band`, and what each band costs with it.

    .venv/bin/python bench/bench_style_bands.py [--rules "queens 8" "starbattle 10 2" ...]
        [--styles composed organic] [--boards 40] [--per-band 4] [--timeout 30] [--cpu 0]

For each rules and each style that draws them: `--boards` boards without a band (seeds 80,000 + i) give
the band mix; then `--per-band` boards of each band (seeds 81,000 + i) give whether the band is
reachable (boards stored within `--timeout` seconds each), the median seconds per stored board, and the
acceptance: stored boards per drawing tried. Prints Markdown and writes bench/results/style_bands.json.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import DeadlineExceeded  # noqa: E402
from engine.games.starbattle import Rules, styles  # noqa: E402
from engine.games.starbattle.generator import generate  # noqa: E402
from engine.games.starbattle.grade import BANDS  # noqa: E402
from machine import cpu_model, markdown_head, markdown_row, write_result  # noqa: E402


def run(rules: Rules, style: str, band: str | None, seeds: range, timeout: float) -> tuple[Counter, list[float], int, int]:
    """Band of each stored board, seconds per stored board, drawings tried, timeouts."""
    mix: Counter = Counter()
    seconds, drawings, timeouts = [], 0, 0
    for seed in seeds:
        started = time.perf_counter()
        try:
            board, stats = generate(rules, seed, band=band, style=style, timeout=timeout)
        except DeadlineExceeded as exc:
            timeouts += 1
            drawings += exc.args[1].drawings
            continue
        seconds.append(time.perf_counter() - started)
        drawings += stats.drawings
        mix[board.to_json()["difficulty"]["band"]] += 1
    return mix, seconds, drawings, timeouts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", nargs="*", default=["queens 6", "queens 8", "queens 9", "queens 11",
                                                       "starbattle 10 2", "starbattle 14 3"])
    parser.add_argument("--styles", nargs="*", default=None, help="default: every style that draws the rules")
    parser.add_argument("--boards", type=int, default=40)
    parser.add_argument("--per-band", type=int, default=4)
    parser.add_argument("--timeout", type=float, default=30.0)
    parser.add_argument("--cpu", type=int, default=0, help="pin to this core (-1: no pinning)")
    args = parser.parse_args()
    if args.cpu >= 0:
        os.sched_setaffinity(0, {args.cpu})
    print(f"Machine: {cpu_model()}, {os.cpu_count()} cores (pinned to CPU {args.cpu}), Python "
          f"{platform.python_version()}, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}.\n")
    load_at_start = os.getloadavg()[0]
    columns = ["rules", "style", "band mix without --band",
               *(f"{band}: stored, s/board, acceptance" for band in BANDS)]
    print(markdown_head(columns))
    rows: list[list[object]] = []
    for text in args.rules:
        rules = Rules.parse(text)
        names = args.styles or [name for name in styles.names() if styles.named(name).available(rules)]
        for name in names:
            if not styles.named(name).available(rules):
                continue
            mix, _, _, timeouts = run(rules, name, None, range(80_000, 80_000 + args.boards), args.timeout)
            total = sum(mix.values())
            cells = [", ".join(f"{band} {mix[band] / total:.0%}" for band in BANDS if mix[band])
                     + (f" ({timeouts} timeouts)" if timeouts else "")]
            for band in BANDS:
                got, seconds, drawings, timeouts = run(rules, name, band, range(81_000, 81_000 + args.per_band),
                                                       args.timeout)
                stored = sum(got.values())
                cells.append(f"{stored}/{args.per_band}, "
                             + (f"{statistics.median(seconds):.2f} s, {stored / max(1, drawings):.1%}" if stored
                                else f"none in {args.timeout:.0f} s"))
            rows.append([f"{rules}{' (default)' if styles.default_for(rules).NAME == name else ''}", name, *cells])
            print(markdown_row(rows[-1]), flush=True)
    write_result("style_bands", [{"title": "band mix and bands asked for", "columns": columns, "rows": rows}],
                 notes=[f"{args.boards} boards without a band, {args.per_band} of each band, {args.timeout:.0f} s "
                        f"a board at most; " + ("not pinned" if args.cpu < 0 else f"pinned to CPU {args.cpu}")],
                 load_at_start=load_at_start)


if __name__ == "__main__":
    main()
