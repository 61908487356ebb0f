"""The grader's full output on published boards, one JSON line each, for comparing two checkouts board
for board (a change meant to leave grading alone must print the same lines, byte for byte).

    .venv/bin/python bench/grade_digests.py [--data PATH ...] [--size N ...] [--limit N] [--jobs N] > out.jsonl
    diff <(before/.venv/bin/python bench/grade_digests.py ...) <(.venv/bin/python bench/grade_digests.py ...)

Default data: ../shared/calibration/starbattle-labelled.jsonl and queens-handmade.jsonl beside the
repository. A line holds the board's id, whether the ladder finished, its score, band and hardest
technique, and every step (technique, cost, cells placed and ruled out, units, sentence). `--limit N`
keeps the first N boards per (size, label); `--size` keeps the listed sizes.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.games.starbattle import Rules  # noqa: E402
from engine.games.starbattle.board import Board  # noqa: E402
from engine.games.starbattle.grade import grade, steps_json  # noqa: E402

CALIBRATION = ROOT.parent / "shared" / "calibration"
DEFAULT_DATA = [CALIBRATION / "starbattle-labelled.jsonl", CALIBRATION / "queens-handmade.jsonl"]


def digest(item: dict) -> str:
    rules = item["rules"]
    board = Board(Rules(rules["size"], rules["stars"], rules.get("diagonals", False)),
                  tuple(label for row in item["regions"] for label in row))
    graded = grade(board)
    return json.dumps({"id": item.get("id") or item.get("name"), "solved": graded.solved, "score": graded.score,
                       "band": graded.band, "hardest": graded.hardest,
                       "steps": steps_json(graded.steps, board.n)}, sort_keys=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, nargs="+", default=DEFAULT_DATA)
    parser.add_argument("--size", type=int, nargs="*", default=[])
    parser.add_argument("--limit", type=int, default=0, help="boards per (size, label), 0 = all")
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    items, kept = [], Counter()
    for path in args.data:
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
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as pool:
            for line in pool.map(digest, items, chunksize=4):
                print(line, flush=True)
    else:
        for item in items:
            print(digest(item), flush=True)


if __name__ == "__main__":
    main()
