"""Tuning toward the asked band against drawing alone: seconds per board, and what the boards are.

    .venv/bin/python bench/bench_band_tuning.py [--rules "queens 8" "starbattle 10 2" ...]
        [--bands hard expert] [--seeds 3] [--budget 40] [--timeout 60] [--name band_tuning]

For each rules and band: `--seeds` boards (seeds 0..) drawn alone (`Settings.climb_steps` 0) and with
a near miss tuned by the shared loop (engine/ladder/tune.py) for up to `--budget` boundary nudges. Per
board: seconds of CPU (this process), whether it was stored within `--timeout` seconds, and checks made
afresh on each stored board: proved unique by the counter, re-graded in the band, fun and shape gates
passed. Prints Markdown and writes bench/results/<name>.json.

    .venv/bin/python bench/bench_band_tuning.py --walk "queens 8" --from-band hard --bands expert \
        [--seeds 10] [--budget 2000]

prints instead (and writes nothing) how far long tuning runs get: from a board of `--from-band` per seed
toward the first of `--bands`, `--budget` nudges each, through the game contract (`Game.tune`).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import DeadlineExceeded  # noqa: E402
from engine.games.starbattle import Rules, count_solutions  # noqa: E402
from engine.games.starbattle import styles  # noqa: E402
from engine.games.starbattle.generator import Settings, generate  # noqa: E402
from engine.games.starbattle.grade import grade  # noqa: E402
from engine.games import game_named  # noqa: E402
from engine.ladder.fun import fun_score  # noqa: E402
from machine import markdown_head, markdown_row, run_header, write_result  # noqa: E402


def run(rules: Rules, band: str, seeds: range, budget: int, timeout: float) -> dict[str, object]:
    seconds: list[float] = []
    stored = timeouts = tuned = sound = 0
    for seed in seeds:
        started = time.process_time()
        try:
            board, stats = generate(rules, seed, band=band, settings=Settings(climb_steps=budget), timeout=timeout)
        except DeadlineExceeded:
            timeouts += 1
            seconds.append(time.process_time() - started)
            continue
        seconds.append(time.process_time() - started)
        stored += 1
        tuned += board.extra["generation"]["tuned_nudges"] > 0
        gates = styles.named(board.extra["style"]).gates(rules)
        graded = grade(board)
        sound += (count_solutions(rules, board.regions, 2).solutions == (board.solution,)
                  and graded.band == band
                  and fun_score(graded.tiers).score >= (gates.min_fun or 0)
                  and styles.named(board.extra["style"]).score(rules, board.regions) >= (gates.min_shape or 0))
    return {"seconds": seconds, "stored": stored, "timeouts": timeouts, "tuned": tuned, "sound": sound}


def walk(rules: Rules, start_band: str, band: str, seeds: range, budget: int) -> None:
    """Long tuning runs from boards of `start_band` toward `band`: how many got there, and at what cost."""
    game = game_named(rules.game)
    reached = measured = 0
    started = time.process_time()
    for seed in seeds:
        board, _ = generate(rules, seed, band=start_band)
        done = game.tune(board, band, random.Random(seed), budget)
        reached += done.in_band
        measured += done.measured
        print(f"seed {seed}: {done.to_json()}, distance {done.distance}", flush=True)
    print(f"{rules} {start_band} -> {band}: {reached}/{len(seeds)} reached, {measured} tuned boards measured, "
          f"{time.process_time() - started:.1f} s CPU")


def cell(result: dict[str, object], timeout: float) -> str:
    """Stored of tried within the timeout, the median and worst CPU seconds of a board (a board not
    stored counts with the seconds it took to give up), and how many stored boards passed the checks."""
    seconds = result["seconds"]
    return (f"{result['stored']}/{len(seconds)}, {statistics.median(seconds):.2f} / {max(seconds):.2f} s, "
            f"{result['sound']} checked")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", nargs="*", default=["queens 8", "queens 9", "starbattle 10 2"])
    parser.add_argument("--bands", nargs="*", default=["hard", "expert"])
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--budget", type=int, default=40)
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("--name", default="band_tuning")
    parser.add_argument("--walk", metavar="RULES", help="long tuning runs on these rules instead (writes nothing)")
    parser.add_argument("--from-band", default="hard")
    args = parser.parse_args()
    print(run_header())
    if args.walk:
        walk(Rules.parse(args.walk), args.from_band, args.bands[0], range(args.seeds), args.budget)
        return
    load_at_start = os.getloadavg()[0]
    columns = ["rules", *(f"{band}: {how}" for band in args.bands
                          for how in ("drawn alone", f"tuned ({args.budget} nudges; boards tuning changed)"))]
    print(markdown_head(columns))
    rows: list[list[object]] = []
    for text in args.rules:
        rules = Rules.parse(text)
        row: list[object] = [str(rules)]
        for band in args.bands:
            alone = run(rules, band, range(args.seeds), 0, args.timeout)
            tuned = run(rules, band, range(args.seeds), args.budget, args.timeout)
            row += [cell(alone, args.timeout), f"{cell(tuned, args.timeout)}; {tuned['tuned']}/{tuned['stored']}"]
        rows.append(row)
        print(markdown_row(rows[-1]), flush=True)
    write_result(args.name, [{"title": "drawing alone and tuned", "columns": columns, "rows": rows}],
                 notes=[f"seeds 0-{args.seeds - 1}; "
                        f"a cell: boards stored within {args.timeout:.0f} s of those tried, "
                        "median / worst CPU seconds a board, "
                        "boards checked: stored boards proved unique afresh, re-graded in the band, clearing "
                        "the fun and shape gates"],
                 load_at_start=load_at_start)


if __name__ == "__main__":
    main()
