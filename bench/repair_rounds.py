"""How many repair rounds a drawing needs, and what each round cap would cost per unique drawing.

    .venv/bin/python bench/repair_rounds.py [--rules "starbattle 14 3"] [--drawings 60] [--first 0] [--cap 420]

Each drawing is a fresh plant() and draw_regions() with the generator's settings (spread 0.2..0.9),
then repair() with a generous round cap. Printed: the rounds each successful repair took, the seconds
per round, and for each candidate cap the expected repair seconds per unique drawing (a drawing that
would pass the cap is charged cap x its own seconds per round, and counts as a failure).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from engine.games.starbattle import Rules, Settings  # noqa: E402
from engine.games.starbattle.count import new_search  # noqa: E402
from engine.games.starbattle.draw import draw_regions, plant  # noqa: E402
from engine.games.starbattle.repair import repair  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="starbattle 14 3")
    parser.add_argument("--drawings", type=int, default=60)
    parser.add_argument("--first", type=int, default=0, help="the first seed")
    parser.add_argument("--cap", type=int, default=420)
    args = parser.parse_args()
    rules = Rules.parse(args.rules)
    settings = Settings()
    results = []        # (unique, rounds, seconds, reason)
    for seed in range(args.first, args.first + args.drawings):
        rng = random.Random(seed)
        answer = plant(rules, rng)
        regions = draw_regions(rules, answer, rng, spread=rng.uniform(0.2, 0.9), gifts=0)
        if regions is None:
            continue
        started = time.perf_counter()
        outcome = repair(rules.size, new_search(rules, regions), regions, answer, rng, max_rounds=args.cap,
                         alternatives=settings.alternatives, count_budget=settings.count_budget)
        seconds = time.perf_counter() - started
        results.append((outcome.unique, outcome.rounds, seconds, outcome.reason))
        print(f"seed {seed}: {'unique' if outcome.unique else outcome.reason} after {outcome.rounds} rounds, "
              f"{seconds:.2f} s", file=sys.stderr, flush=True)
    unique = sorted(rounds for ok, rounds, _, _ in results if ok)
    per_round = [seconds / max(rounds, 1) for _, rounds, seconds, _ in results]
    print(f"{args.rules}: {len(results)} drawings, {len(unique)} made unique within {args.cap} rounds; "
          f"rounds of those: median {statistics.median(unique) if unique else '-'}, "
          f"p90 {unique[int(0.9 * (len(unique) - 1))] if unique else '-'}, max {unique[-1] if unique else '-'}; "
          f"seconds per round median {statistics.median(per_round) * 1000:.1f} ms")
    print("| round cap | unique drawings | repair seconds per unique drawing |")
    print("|---:|---:|---:|")
    for cap in (10, 20, 40, 60, 80, 120, 200, 300, args.cap):
        if cap > args.cap:
            continue
        spent = sum(seconds if rounds <= cap else cap * seconds / max(rounds, 1)
                    for _, rounds, seconds, _ in results)
        made = sum(1 for ok, rounds, _, _ in results if ok and rounds <= cap)
        print(f"| {cap} | {made} | {spent / made if made else float('inf'):.2f} |")


if __name__ == "__main__":
    main()
