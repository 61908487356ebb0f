"""The grader's full output on published boards, one JSON line each, for comparing two checkouts board
for board (a change meant to leave grading alone must print the same lines, byte for byte).

    .venv/bin/python bench/grade_digests.py [--game G] [--data PATH ...] [--size N ...] [--limit N] [--jobs N]
        [--time] > out.jsonl
    diff <(before/.venv/bin/python bench/grade_digests.py ...) <(.venv/bin/python bench/grade_digests.py ...)

Default data, beside the repository: ../shared/calibration/starbattle-labelled.jsonl and
queens-handmade.jsonl for --game starbattle (the default, Queens included), tango-linkedin-odd.jsonl
for --game tango. A line holds the board's id, whether the ladder finished, its score, band and
hardest technique, and every step (technique, cost, cells placed and ruled out, units, sentence); a
Tango line also holds the fun score and the grid the ladder reached. `--limit N` keeps the first N
boards per (size, label); `--size` keeps the listed sizes. `--time` prints to stderr the seconds the
grading took (best of --repeats runs, one process), and prints no lines.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.games.starbattle import Rules  # noqa: E402
from engine.games.starbattle.board import Board  # noqa: E402
from engine.games.starbattle.grade import grade, steps_json  # noqa: E402

CALIBRATION = ROOT.parent / "shared" / "calibration"
DEFAULT_DATA = {"starbattle": [CALIBRATION / "starbattle-labelled.jsonl", CALIBRATION / "queens-handmade.jsonl"],
                "tango": [CALIBRATION / "tango-linkedin-odd.jsonl"]}


def digest(item: dict) -> str:
    return (tango_digest if item.get("game") == "tango" else starbattle_digest)(item)


def starbattle_digest(item: dict) -> str:
    rules = item["rules"]
    board = Board(Rules(rules["size"], rules["stars"], rules.get("diagonals", False)),
                  tuple(label for row in item["regions"] for label in row))
    graded = grade(board)
    return json.dumps({"id": item.get("id") or item.get("name"), "solved": graded.solved, "score": graded.score,
                       "band": graded.band, "hardest": graded.hardest,
                       "steps": steps_json(graded.steps, board.n)}, sort_keys=True)


def tango_board(item: dict):
    from engine.games.tango.board import board_of
    return board_of(item["rules"]["size"], item["givens"], [(c["cells"], c["kind"]) for c in item["clues"]])


def tango_digest(item: dict) -> str:
    from engine.games.tango.grade import describe, grade
    board = tango_board(item)
    graded = grade(board)
    described = describe(board, graded)
    described.pop("engine_version")
    return json.dumps({"id": item.get("id"), "solved": graded.solved, "hardest": graded.hardest,
                       "contradiction": graded.contradiction, "values": graded.values, **described},
                      sort_keys=True)


def timed(items: list[dict], repeats: int) -> float:
    """The best of `repeats` runs of grading every board (the boards parsed beforehand)."""
    tango = items and items[0].get("game") == "tango"
    if tango:
        from engine.games.tango.grade import grade as grader
        boards = [tango_board(item) for item in items]
    else:
        grader = grade
        boards = [Board(Rules(item["rules"]["size"], item["rules"]["stars"], item["rules"].get("diagonals", False)),
                        tuple(label for row in item["regions"] for label in row)) for item in items]
    best = float("inf")
    for _ in range(repeats):
        started = time.perf_counter()
        for board in boards:
            grader(board)
        best = min(best, time.perf_counter() - started)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=sorted(DEFAULT_DATA), default="starbattle")
    parser.add_argument("--data", type=Path, nargs="+")
    parser.add_argument("--size", type=int, nargs="*", default=[])
    parser.add_argument("--limit", type=int, default=0, help="boards per (size, label), 0 = all")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--time", action="store_true", help="print the grading's seconds to stderr, no lines")
    parser.add_argument("--repeats", type=int, default=3, help="with --time: runs, the best is printed")
    args = parser.parse_args()
    items, kept = [], Counter()
    for path in args.data or DEFAULT_DATA[args.game]:
        for line in path.read_text().splitlines():
            if not line.strip():
                continue
            item = json.loads(line)
            size = item["rules"]["size"]
            key = (path.name, size, item.get("label"))
            if (args.size and size not in args.size) or (args.limit and kept[key] >= args.limit):
                continue
            kept[key] += 1
            items.append(item)
    if args.time:
        print(f"{len(items)} boards graded in {timed(items, args.repeats):.3f} s (best of {args.repeats})",
              file=sys.stderr)
        return
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as pool:
            for line in pool.map(digest, items, chunksize=4):
                print(line, flush=True)
    else:
        for item in items:
            print(digest(item), flush=True)


if __name__ == "__main__":
    main()
