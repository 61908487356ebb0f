"""Fit a drawing style's likeness: how much more often people draw a map like this than the style does.

    .venv/bin/python bench/fit_likeness.py --style composed [--stars 1] [--boards 300]
        [--sizes 6 7 8 9 10 11 13 15] [--calibration PATH] [--jobs 2] [--write]

Needs scikit-learn (`pip install -e '.[bench]'`). Generates `--boards` finished boards per size with the
style's sampling off (`Settings(sample=False)`: the style's own habits), seeds 1,000,000 + i (never the
classifier bench's 70,000 + i), and fits a logistic regression of calibration boards against them on
`engine.core.likeness.features`, the generated boards weighing as much as the calibration boards. Each
star count and each size with 20+ calibration boards gets a fit of its own (other sizes are not
sampled). The cap is the `--quantile` of the generated boards' log-ratio: above it a map
is always kept, so the share kept is the cost (reported).
`--write` writes the tables to engine/games/starbattle/styles/<style>_fit.py.
"""

from __future__ import annotations

import argparse
import json
import sys
from multiprocessing import Pool
from pathlib import Path

import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.preprocessing import StandardScaler

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine import DeadlineExceeded  # noqa: E402
from engine.core.likeness import features  # noqa: E402
from engine.games.starbattle import Rules  # noqa: E402
from engine.games.starbattle.generator import Settings, generate  # noqa: E402

SHARED = ROOT / ".." / "shared" / "calibration"
CORPUS = {"composed": SHARED / "queens-handmade.jsonl", "interlocking": SHARED / "starbattle-labelled.jsonl"}
SEED = 1_000_000
MIN_BOARDS = 20             # published boards a size needs for a fit of its own


def _board(job: tuple[int, int, str, int]) -> tuple[int, ...] | None:
    size, stars, style, seed = job
    try:
        board, _ = generate(Rules(size, stars), SEED + seed, style=style, timeout=60,
                            settings=Settings(sample=False))
    except DeadlineExceeded:
        return None
    return board.regions


def corpus(path: Path, stars: int) -> dict[int, list[tuple[int, ...]]]:
    out: dict[int, list[tuple[int, ...]]] = {}
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                board = json.loads(line)
                if board["rules"]["stars"] == stars:
                    out.setdefault(board["rules"]["size"], []).append(
                        tuple(label for row in board["regions"] for label in row))
    return out


def fit(style: str, stars: int, sizes: list[int], published: dict[int, list[tuple[int, ...]]], boards: int,
        quantile: float, strength: float, jobs: int) -> str:
    """The {size: Likeness(...)} source for one star count: a fit per size with at least MIN_BOARDS
    published boards (other sizes are not sampled)."""
    sizes = [size for size in sizes if len(published.get(size, ())) >= MIN_BOARDS]
    if not sizes:
        raise SystemExit(f"the calibration file has no size with {MIN_BOARDS}+ {stars}-star boards")
    drawn: dict[int, list[tuple[int, ...]]] = {}
    with Pool(jobs) as pool:
        for size in sizes:
            maps = pool.map(_board, [(size, stars, style, i) for i in range(boards)], chunksize=4)
            drawn[size] = [m for m in maps if m is not None]
            print(f"{size}x{size} {stars}*: {len(drawn[size])} boards drawn, {len(published[size])} published",
                  file=sys.stderr, flush=True)

    def numbers(values) -> str:
        return "(" + ", ".join(f"{float(v):.6g}" for v in values) + ",)"

    tables = []
    for size in sizes:
        theirs, ours = published[size], drawn[size]
        x = np.array([features(size, regions, size, size) for regions in theirs + ours])
        y = np.array([1] * len(theirs) + [0] * len(ours))
        # the drawn boards weigh as much as the published ones together
        weights = np.where(y == 1, 1.0, len(theirs) / len(ours))
        scaler = StandardScaler().fit(x)
        scales = np.where(scaler.scale_ > 0, scaler.scale_, 1.0)
        model = LogisticRegression(C=strength, max_iter=10_000).fit((x - scaler.mean_) / scales, y,
                                                                     sample_weight=weights)
        own = model.decision_function((x[y == 0] - scaler.mean_) / scales)
        log_cap = float(np.quantile(own, quantile))
        kept = np.minimum(1.0, np.exp(own - log_cap)).mean()
        print(f"{size}x{size} {stars}*: keeps {kept:.0%} of the style's own maps", file=sys.stderr)
        tables.append(f"{size}: Likeness(\n            names=NAMES,\n            means={numbers(scaler.mean_)},\n"
                      f"            scales={numbers(scales)},\n            weights={numbers(model.coef_[0])},\n"
                      f"            intercept={float(model.intercept_[0]):.6g},\n"
                      f"            log_caps={{{size}: {log_cap:.6g}}},\n        )")
    return "{\n        " + ",\n        ".join(tables) + ",\n    }"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--style", default="composed")
    parser.add_argument("--stars", type=int, nargs="*", default=[1])
    parser.add_argument("--boards", type=int, default=300)
    parser.add_argument("--sizes", type=int, nargs="*", default=[6, 7, 8, 9, 10, 11, 13, 15])
    parser.add_argument("--calibration", type=Path)
    parser.add_argument("--quantile", type=float, default=0.85, help="of the style's own log-ratios")
    parser.add_argument("--strength", type=float, default=1.0, help="inverse regularisation C")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    path = args.calibration or CORPUS[args.style]
    tables = {stars: fit(args.style, stars, args.sizes, corpus(path, stars), args.boards, args.quantile,
                         args.strength, args.jobs) for stars in args.stars}
    command = (f".venv/bin/python bench/fit_likeness.py --style {args.style} --stars "
               f"{' '.join(map(str, args.stars))} --boards {args.boards} --sizes {' '.join(map(str, args.sizes))} "
               f"--quantile {args.quantile} --strength {args.strength} --write")
    source = (f'"""The fitted likeness of the {args.style} style, by star count (engine/core/likeness.py);\n'
              f"written by\n\n    {command}\n\nagainst {path.name}. Refit after changing the drawing.\n"
              '"""\n\nfrom engine.core.likeness import NAMES, Likeness\n\nLIKENESS: dict[int, dict[int, Likeness]] = {\n'
              + "".join(f"    {stars}: {table},\n" for stars, table in tables.items()) + "}\n")
    if args.write:
        out = ROOT / "engine" / "games" / "starbattle" / "styles" / f"{args.style}_fit.py"
        out.write_text(source, encoding="utf-8")
        print(f"wrote {out.relative_to(ROOT)}", file=sys.stderr)
    else:
        print(source)


if __name__ == "__main__":
    main()
