"""What the boards a band hunt grades look like, band by band: the measurement behind steering a
drawing toward a rare band (Queens 8×8 expert: a trial needed).

    .venv/bin/python bench/bench_band_features.py [--rules "queens 8"] [--band expert] [--seeds 2000]
        [--first 0]

One finished board per seed, through the generator itself (`generate` without a band, the region-size
spread drawn per seed from the asked band's range, as the hunt draws it), so each board has passed the
proof, the likeness, the shape gate and the fun gate: the boards a hunt for that band grades, less the
dull ones. Prints the band mix, how many fell in the asked band (with the 95% bound on its share when
none did: 3/N), the share of hard boards by each map feature (smallest and largest region, regions
within 1-2 rows or columns), the hardest technique of the hard boards, and the CPU seconds a board.
Writes nothing: a study, not a figure of BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.games.starbattle import Rules  # noqa: E402
from engine.games.starbattle.generator import SPREAD, Settings, generate  # noqa: E402


def narrow(n: int, regions: Sequence[int]) -> int:
    """Regions whose cells lie within one or two rows, plus those within one or two columns."""
    rows: dict[int, set[int]] = defaultdict(set)
    columns: dict[int, set[int]] = defaultdict(set)
    for cell, label in enumerate(regions):
        rows[label].add(cell // n)
        columns[label].add(cell % n)
    return sum(len(spans) <= 2 for spans in (*rows.values(), *columns.values()))


def table(title: str, boards: list[dict], feature: Callable[[dict], int], band: str) -> None:
    by_value: dict[int, Counter] = defaultdict(Counter)
    for board in boards:
        by_value[feature(board)][board["band"]] += 1
    print(f"\n{title}: boards, share hard, share {band}")
    for value in sorted(by_value):
        count = by_value[value]
        total = sum(count.values())
        print(f"  {value:>3}  {total:>6}  {count['hard'] / total:.3f}  {count[band] / total:.4f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="queens 8")
    parser.add_argument("--band", default="expert")
    parser.add_argument("--seeds", type=int, default=2000)
    parser.add_argument("--first", type=int, default=0)
    args = parser.parse_args()
    rules = Rules.parse(args.rules)
    low, high = SPREAD[args.band]
    boards = []
    started = time.process_time()
    for seed in range(args.first, args.first + args.seeds):
        spread = random.Random(seed).uniform(low, high)
        board, _ = generate(rules, seed, settings=Settings(spread=spread))
        sizes = sorted(Counter(board.regions).values())
        boards.append({"band": board.extra["difficulty"]["band"], "hardest": board.extra["difficulty"]["hardest"],
                       "smallest": sizes[0], "largest": sizes[-1], "narrow": narrow(board.n, board.regions)})
    cpu = time.process_time() - started
    bands = Counter(board["band"] for board in boards)
    found = bands[args.band]
    print(f"{args.rules}, {len(boards)} boards (seeds {args.first}..{args.first + args.seeds - 1}), "
          f"spread drawn from {low}-{high}: {dict(bands)}; {cpu / len(boards) * 1000:.1f} ms CPU a board")
    print(f"{args.band}: {found}" + ("" if found else f" (share below {3 / len(boards):.5f} at 95%)"))
    table("smallest region", boards, lambda b: b["smallest"], args.band)
    table("largest region (cells, by 5)", boards, lambda b: b["largest"] // 5 * 5, args.band)
    table("regions within 1-2 rows, plus within 1-2 columns", boards, lambda b: b["narrow"], args.band)
    hardest = Counter(board["hardest"] for board in boards if board["band"] == "hard")
    print("\nhardest technique of the hard boards:",
          ", ".join(f"{name} {count}" for name, count in hardest.most_common(10)))


if __name__ == "__main__":
    main()
