"""The engine's boards of seeds 0..N-1, one JSON line each, for comparing two checkouts seed for seed.

    .venv/bin/python bench/board_digests.py --rules "queens 8" "starbattle 10 2 interlocking" --seeds 50 > out.jsonl
    diff <(before/.venv/bin/python bench/board_digests.py ...) <(.venv/bin/python bench/board_digests.py ...)

    .venv/bin/python bench/board_digests.py --rules "sudoku 9 band=hard" "killer 9 band=easy" --seeds 6

Each rule is "GAME SIZE [STARS] [STYLE]" for the Star Battle family (no style: the game's default), and
the rules' text form of any other game ("sudoku 9", "sudoku 9 by-clues", "killer 9"); either may end in
"band=BAND" (no band: the game's any). A line is the board's JSON (the game's `generate(rules, seed,
band=..., style=...)`) less the timing field generation.seconds, keys sorted, so two checkouts that draw
the same boards print the same lines, byte for byte.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.games import game_named  # noqa: E402
from engine.games.starbattle import Rules  # noqa: E402

STAR_FAMILY = ("queens", "starbattle")


def parse(rule: str) -> tuple[Any, str | None, str | None]:
    """ "queens 8 organic" -> (Rules(8), "organic", None); the style is the word after the rules' text.
    "killer 9 band=hard" -> (KillerRules(9), None, "hard"): any other game's rules are its text form."""
    words = rule.split()
    band = None
    if words and words[-1].startswith("band="):
        band = words.pop()[len("band="):]
    if words[0] not in STAR_FAMILY:
        return game_named(words[0]).parse_rules(" ".join(words)), None, band
    known = 2 if words[0] == "queens" else 3
    if len(words) > known and words[known] == "diagonals":
        known += 1
    return Rules.parse(" ".join(words[:known])), (words[known] if len(words) > known else None), band


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", nargs="+", required=True)
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--first", type=int, default=0)
    args = parser.parse_args()
    for rule in args.rules:
        rules, style, band = parse(rule)
        game = game_named(rules.game)
        for seed in range(args.first, args.first + args.seeds):
            board, _ = game.generate(rules, seed, band=band, style=style)
            data = board.to_json()
            data["generation"].pop("seconds", None)
            print(json.dumps({"rule": rule, "seed": seed, "board": data}, sort_keys=True), flush=True)


if __name__ == "__main__":
    main()
