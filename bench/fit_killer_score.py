"""Fit the Killer score's weights on the published booklets (engine/games/killer/grade.py).

    .venv/bin/python bench/fit_killer_score.py [--data PATH] [--jobs N] [--figures OUT.json]

For every board, the score's five measures (grade.measure: the scoring solve's path cost, its rule-of-45
steps, the slack of the cage sums, the opening's bits, the rounds). Then the weights of the four besides
the path: least
squares of the book number on the measures over every volume of the data, scaled so the path weighs 1
(what grade.py ships, rounded), and the same fit on each fold (volumes 1-3 against 4-5 both ways, each
volume held out alone) with Spearman's correlation of the score with the book on the volumes it held
back. Prints the weights, the folds, and the score quantiles (25%, 55%, 85%, with the shipped weights)
that the band ceilings sit at. The path's own costs (the technique table, COMBINATION_BIT_COST) are
taken as they are. `--figures OUT.json` also writes those figures as one JSON object.
"""

from __future__ import annotations

import argparse
import json
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.games.killer import GAME  # noqa: E402
from engine.games.killer.grade import measure  # noqa: E402

from bench_killer_calibration import (DEFAULT, MEASURES, SHIPPED, fit_weights, fold_figures,  # noqa: E402
                                      spearman, weighted)


def parts(line: str) -> dict:
    """The measures of one booklet board."""
    data = json.loads(line)
    board = GAME.board_from_json({k: v for k, v in data.items() if k != "solution"})
    measured = measure(board)
    if not measured.solved:
        raise SystemExit(f"{data.get('id')}: the scoring solve did not finish")
    return {"volume": data["volume"], "book": data["book"], "path": measured.path, "rule_of_45": measured.rule_of_45,
            "slack": measured.slack, "opening": measured.opening, "rounds": measured.rounds}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--figures", type=Path, metavar="OUT.json", help="also write the figures as JSON")
    args = parser.parse_args()
    lines = [line for line in args.data.read_text().splitlines() if line.strip()]
    with ProcessPoolExecutor(args.jobs) as pool:
        rows = list(pool.map(parts, lines, chunksize=50))
    weights = fit_weights(rows)
    books = [row["book"] for row in rows]
    shipped = [weighted(row, SHIPPED) for row in rows]
    figures = {
        "data": args.data.name, "boards": len(rows), "volumes": sorted({row["volume"] for row in rows}),
        "weights": weights, "shipped": SHIPPED,
        "spearman": {"fitted": spearman([weighted(row, weights) for row in rows], books),
                     "shipped": spearman(shipped, books)},
        "folds": fold_figures(rows),
        "ceilings": [round(float(q)) for q in np.percentile(shipped, [25, 55, 85])],
    }
    print(f"weights over all {len(rows)} boards (path 1): "
          + ", ".join(f"{m} {weights[m]:.1f}" for m in MEASURES[1:])
          + f"; Spearman {figures['spearman']['fitted']:.3f}, with the shipped weights {figures['spearman']['shipped']:.3f}")
    for fold in figures["folds"]:
        print(f"fitted on {fold['fitted']}, held back {fold['held_out']}: weights "
              + ", ".join(f"{fold['weights'][m]:.0f}" for m in MEASURES[1:])
              + f"; Spearman held back {fold['spearman_fitted']:.3f} (shipped weights {fold['spearman_shipped']:.3f}, "
              f"earlier form {fold['spearman_earlier']:.3f}, refitted {fold['spearman_earlier_refit']:.3f})")
    print("ceilings at the 25%, 55%, 85% quantiles: " + ", ".join(str(q) for q in figures["ceilings"]))
    if args.figures:
        args.figures.write_text(json.dumps(figures, indent=2) + "\n")


if __name__ == "__main__":
    main()
