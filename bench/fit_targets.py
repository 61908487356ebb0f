"""Fit the interlocking style's shape targets: the published boards' features, per kind of board.

    .venv/bin/python bench/fit_targets.py [--rules 14x3] [--calibration PATH] [--write]

The published site draws two kinds of board, and its labels follow them (BENCHMARKS.md, "Drawing
styles: interlocking against the calibration site"): `medium` boards are blocky, `hard` ones ragged.
For each rules given (size x stars) and each kind, the mean and standard deviation of every feature
of engine/games/starbattle/targets.py over the calibration boards of that kind: what `tune` pulls a
finished map toward. `--write` writes engine/games/starbattle/styles/interlocking_targets.py (the rules not given
get no targets, and their boards stay as they were).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.games.starbattle.targets import Target, features, names  # noqa: E402

CORPUS = ROOT / ".." / "shared" / "calibration" / "starbattle-labelled.jsonl"
KINDS = {"medium": "blocky", "hard": "ragged"}
MIN_SCALE = 0.01            # a feature (nearly) constant on the site still gets a finite pull


def fit(path: Path, size: int, stars: int) -> dict[str, Target]:
    by_kind: dict[str, list[list[float]]] = {}
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            if not line.strip():
                continue
            board = json.loads(line)
            if (board["rules"]["size"], board["rules"]["stars"]) != (size, stars):
                continue
            regions = tuple(label for row in board["regions"] for label in row)
            by_kind.setdefault(KINDS[board["label"]], []).append(features(size, regions))
    out = {}
    for kind, rows in sorted(by_kind.items()):
        columns = list(zip(*rows))
        means = tuple(statistics.fmean(c) for c in columns)
        scales = tuple(max(MIN_SCALE, statistics.pstdev(c)) for c in columns)
        standard = (np.array(rows) - means) / scales
        # a small ridge: features nearly constant on the site (rectangles) make the matrix singular
        factor = np.linalg.cholesky(np.cov(standard, rowvar=False, bias=True) + 1e-6 * np.eye(len(means)))
        out[kind] = Target(names(size), means, scales, tuple(tuple(map(float, row)) for row in factor))
        print(f"{size}x{size} {stars}*: {kind}, {len(rows)} boards", file=sys.stderr)
    return out


def source(tables: dict[tuple[int, int], dict[str, Target]], command: str, path: Path) -> str:
    def numbers(values) -> str:
        return "(" + ", ".join(f"{v:.6g}" for v in values) + ",)"

    body = []
    for (stars, size), kinds in tables.items():
        rows = [f'        "{kind}": Target(\n            names=names({size}),\n'
                f"            means={numbers(t.means)},\n            scales={numbers(t.scales)},\n"
                f"            factor=(\n" + "".join(f"                {numbers(row)},\n" for row in t.factor)
                + "            ),\n        ),\n"
                for kind, t in kinds.items()]
        body.append(f"    ({stars}, {size}): {{\n" + "".join(rows) + "    },\n")
    return (f'"""The interlocking style\'s shape targets, by (stars, size) and kind of board\n'
            f"(engine/games/starbattle/targets.py): the mean and spread of each feature over the published boards of that kind\n"
            f"({path.name}: `medium` boards are blocky, `hard` ones ragged). Written by\n\n    {command}\n"
            f'"""\n\nfrom engine.games.starbattle.targets import Target, names\n\n'
            f"TARGETS: dict[tuple[int, int], dict[str, Target]] = {{\n" + "".join(body) + "}\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", nargs="*", default=["14x3"], help="size x stars, e.g. 14x3")
    parser.add_argument("--calibration", type=Path, default=CORPUS)
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    tables = {}
    for text in args.rules:
        size, stars = map(int, text.split("x"))
        tables[(stars, size)] = fit(args.calibration, size, stars)
    command = f".venv/bin/python bench/fit_targets.py --rules {' '.join(args.rules)} --write"
    text = source(tables, command, args.calibration)
    if args.write:
        out = ROOT / "engine" / "games" / "starbattle" / "styles" / "interlocking_targets.py"
        out.write_text(text, encoding="utf-8")
        print(f"wrote {out.relative_to(ROOT)}", file=sys.stderr)
    else:
        print(text)


if __name__ == "__main__":
    main()
