"""The engine's boards of seeds 0..N-1, one JSON line each, for comparing two checkouts seed for seed.

    .venv/bin/python bench/board_digests.py --rules "queens 8" "starbattle 10 2 interlocking" --seeds 50 > out.jsonl
    diff <(before/.venv/bin/python bench/board_digests.py ...) <(.venv/bin/python bench/board_digests.py ...)

Each rule is "GAME SIZE [STARS] [STYLE]" (no style: the game's default). A line is the board's JSON
(`generate(rules, seed, style=...)`) less the timing field generation.seconds, keys sorted, so two
checkouts that draw the same boards print the same lines, byte for byte.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.games.starbattle import Rules, generate  # noqa: E402


def parse(rule: str) -> tuple[Rules, str | None]:
    """ "queens 8 organic" -> (Rules(8), "organic"); the style is the word after the rules' text."""
    words = rule.split()
    known = 2 if words[0] == "queens" else 3
    if len(words) > known and words[known] == "diagonals":
        known += 1
    return Rules.parse(" ".join(words[:known])), (words[known] if len(words) > known else None)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", nargs="+", required=True)
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--first", type=int, default=0)
    args = parser.parse_args()
    for rule in args.rules:
        rules, style = parse(rule)
        for seed in range(args.first, args.first + args.seeds):
            board, _ = generate(rules, seed, style=style)
            data = board.to_json()
            data["generation"].pop("seconds", None)
            print(json.dumps({"rule": rule, "seed": seed, "board": data}, sort_keys=True), flush=True)


if __name__ == "__main__":
    main()
