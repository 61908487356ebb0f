"""Fit the numbers the pictured style draws with, per size, on the daily Queens boards.

    .venv/bin/python bench/fit_pictured.py [--calibration PATH] [--sizes 7 8 9 10 11] [--write]

For each size of the calibration file (default: ../shared/calibration/queens-linkedin-odd.jsonl, the
shared half of the daily boards): how often each symmetry is the board's strongest (the share of its
boundary edges that its image maps onto boundary edges: left-right, up-down, half turn, transpose,
anti-transpose; "none" when that share is under NONE_BELOW), and the quantiles (0, 0.1, ..., 1) of
the largest region's share of the board and of the other regions' size spread (standard deviation /
mean). `--write` writes engine/games/starbattle/styles/pictured_params.py; without it, prints it.
bench/bench_shape_classifier.py --honest calls `params` on one half of the boards at a time.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import boundary_texture  # noqa: E402
from engine.games.starbattle.styles.pictured_types import Params  # noqa: E402

DAILY = ROOT / ".." / "shared" / "calibration" / "queens-linkedin-odd.jsonl"
OUT = ROOT / "engine" / "games" / "starbattle" / "styles" / "pictured_params.py"
KINDS = (("lr", "mirror_lr"), ("ud", "mirror_ud"), ("half", "half_turn"), ("diag", "transpose"),
         ("anti", "anti_transpose"))
NONE_BELOW = 0.55            # a board whose best symmetry maps fewer boundary edges is drawn without one
MIN_BOARDS = 5               # a size needs this many boards for a fit of its own

Map = tuple[int, ...]


def corpus(path: Path) -> dict[int, list[Map]]:
    """One-star region maps by size, in file order."""
    out: dict[int, list[Map]] = {}
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                board = json.loads(line)
                if board["rules"].get("stars", 1) == 1:
                    out.setdefault(board["rules"]["size"], []).append(
                        tuple(label for row in board["regions"] for label in row))
    return out


def quantiles(values: list[float]) -> tuple[float, ...]:
    """The 0, 0.1, ..., 1 quantiles (linear between order statistics)."""
    ordered = sorted(values)
    out = []
    for i in range(11):
        at = i / 10 * (len(ordered) - 1)
        low = int(at)
        high = min(low + 1, len(ordered) - 1)
        out.append(round(ordered[low] + (ordered[high] - ordered[low]) * (at - low), 4))
    return tuple(out)


def fit_size(n: int, maps: list[Map]) -> Params:
    """The Params of one size from its boards."""
    kinds: Counter = Counter()
    largest, spread = [], []
    for regions in maps:
        texture = boundary_texture.texture(n, regions)
        best, share = max(((kind, texture[name]) for kind, name in KINDS), key=lambda pair: pair[1])
        kinds[best if share >= NONE_BELOW else "none"] += 1
        sizes = sorted(regions.count(label) for label in set(regions))
        largest.append(sizes[-1] / (n * n))
        rest = sizes[:-1]
        spread.append(statistics.pstdev(rest) / statistics.mean(rest))
    names = tuple(kind for kind, _ in KINDS) + ("none",)
    return Params(names, tuple(round(kinds[kind] / len(maps), 4) for kind in names), quantiles(largest),
                  quantiles(spread))


def params(maps: dict[int, list[Map]], sizes: list[int] | None = None) -> dict[int, Params]:
    """Params per size with MIN_BOARDS boards or more (`sizes`: only these)."""
    return {n: fit_size(n, group) for n, group in sorted(maps.items())
            if len(group) >= MIN_BOARDS and (sizes is None or n in sizes)}


def source(fitted: dict[int, Params], command: str) -> str:
    """pictured_params.py's text."""
    rows = "".join(f"    {n}: Params({p.symmetries!r},\n              {p.symmetry_odds!r},\n"
                   f"              {p.largest!r},\n              {p.spread!r}),\n" for n, p in fitted.items())
    return f'''"""The numbers the pictured style draws its pictures with, per size; written by

    {command}

from the shared daily Queens boards (bench/fit_pictured.py says what each number is). Refit after
changing what it measures."""

from engine.games.starbattle.styles.pictured_types import Params

PARAMS: dict[int, Params] = {{
{rows}}}
'''


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calibration", type=Path, default=DAILY)
    parser.add_argument("--sizes", type=int, nargs="*", default=[7, 8, 9, 10, 11])
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    command = f".venv/bin/python bench/fit_pictured.py --sizes {' '.join(map(str, args.sizes))} --write"
    text = source(params(corpus(args.calibration), args.sizes), command)
    if args.write:
        OUT.write_text(text, encoding="utf-8")
        print(f"wrote {OUT.relative_to(ROOT)}", file=sys.stderr)
    else:
        print(text)


if __name__ == "__main__":
    main()
