"""Fit the Killer score's costs on the published booklets (engine/games/killer/grade.py).

    .venv/bin/python bench/fit_killer_score.py [--data PATH] [--jobs N] [--fit-volumes 1,2,3] [--figures OUT.json]

For every board: the scoring solve's path cost, the opening's bits and the rounds (grade.score's three
parts). Then OPENING_BIT_COST and ROUND_COST are searched on a grid for the best Spearman correlation
of the score with the book number over the volumes `--fit-volumes` (default 1-3, where the shipped
costs were fitted); the other volumes are held back, scored once with the costs found. Prints the
costs, the correlation over all boards, per volume, on the fitted and on the held-back volumes (with
the costs found and with the shipped ones), and the score quantiles (25%, 55%, 85%) that the band
ceilings sit at. The path's own costs (the technique table, COMBINATION_BIT_COST) are taken as they
are. `--figures OUT.json` also writes those figures as one JSON object.

Both directions of the held-back check:

    .venv/bin/python bench/fit_killer_score.py --jobs 1 --fit-volumes 1,2,3 --figures fit-1-3.json
    .venv/bin/python bench/fit_killer_score.py --jobs 1 --fit-volumes 4,5 --figures fit-4-5.json
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
from engine.games.killer.grade import OPENING_BIT_COST, ROUND_COST, SCORING, opening_bits, rounds  # noqa: E402
from engine.games.killer.techniques import KillerState  # noqa: E402
from engine.ladder import run  # noqa: E402

from bench_killer_calibration import split_volumes, spearman  # noqa: E402  (the calibration's own measure)

DEFAULT = ROOT.parent / "shared" / "calibration" / "killer-sudoku-booklets.jsonl"
OPENING_GRID = range(0, 401, 20)
ROUND_GRID = range(0, 1601, 100)


def parts(line: str) -> tuple[int, int, int, float, int]:
    """(volume, book, path cost, opening bits, rounds) of one booklet board."""
    data = json.loads(line)
    board = GAME.board_from_json({k: v for k, v in data.items() if k != "solution"})
    state = KillerState.start(board)
    bits, depth = opening_bits(state), rounds(state)
    result = run(state, SCORING)
    if not result.solved:
        raise SystemExit(f"{data.get('id')}: the scoring solve did not finish")
    return data["volume"], data["book"], result.total_cost, bits, depth


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--fit-volumes", type=split_volumes, default=(1, 2, 3), metavar="V,V,...",
                        help="the volumes the costs are fitted on (default 1,2,3); the others are held back")
    parser.add_argument("--figures", type=Path, metavar="OUT.json", help="also write the figures as JSON")
    args = parser.parse_args()
    lines = [line for line in args.data.read_text().splitlines() if line.strip()]
    with ProcessPoolExecutor(args.jobs) as pool:
        volume, book, path, bits, depth = (np.array(column) for column in zip(*pool.map(parts, lines, chunksize=50)))
    fitting = np.isin(volume, args.fit_volumes)
    if not fitting.any():
        raise SystemExit(f"no board of volumes {args.fit_volumes} in {args.data}")
    held = sorted(set(volume[~fitting].tolist()))

    def rho(scores: np.ndarray, where: np.ndarray) -> float | None:
        return spearman(scores[where].tolist(), book[where].tolist()) if where.any() else None

    def scored(bit_cost: int, round_cost: int) -> np.ndarray:
        return path + round_cost * depth + np.round(bit_cost * bits)

    best = max((rho(scored(bit_cost, round_cost), fitting), bit_cost, round_cost)
               for bit_cost in OPENING_GRID for round_cost in ROUND_GRID)
    _, bit_cost, round_cost = best
    scores, shipped = scored(bit_cost, round_cost), scored(OPENING_BIT_COST, ROUND_COST)
    everything = np.ones_like(fitting)
    fitted_name = ",".join(map(str, args.fit_volumes))
    held_name = ",".join(map(str, held)) or "none"

    def text(value: float | None) -> str:
        return "-" if value is None else f"{value:.3f}"

    figures = {
        "data": args.data.name, "boards": len(lines), "fit_volumes": list(args.fit_volumes), "held_out_volumes": held,
        "grid": {"opening_bit_cost": [OPENING_GRID.start, OPENING_GRID.stop - 1, OPENING_GRID.step],
                 "round_cost": [ROUND_GRID.start, ROUND_GRID.stop - 1, ROUND_GRID.step]},
        "fitted": {"opening_bit_cost": bit_cost, "round_cost": round_cost},
        "shipped": {"opening_bit_cost": OPENING_BIT_COST, "round_cost": ROUND_COST},
        "spearman": {"all": rho(scores, everything), "fitted": rho(scores, fitting), "held_out": rho(scores, ~fitting),
                     "per_volume": {str(v): rho(scores, volume == v) for v in sorted(set(volume.tolist()))}},
        "spearman_shipped": {"all": rho(shipped, everything), "fitted": rho(shipped, fitting),
                             "held_out": rho(shipped, ~fitting)},
        "ceilings": [round(float(q)) for q in np.percentile(scores, [25, 55, 85])],
    }
    print(f"OPENING_BIT_COST = {bit_cost}, ROUND_COST = {round_cost} ({len(lines)} boards, fitted on volumes "
          f"{fitted_name})")
    spear = figures["spearman"]
    print(f"Spearman: all {text(spear['all'])}, fitted on {fitted_name} {text(spear['fitted'])}, "
          f"held out {held_name} {text(spear['held_out'])}")
    print("per volume: " + ", ".join(f"{v}: {text(r)}" for v, r in spear["per_volume"].items()))
    ship = figures["spearman_shipped"]
    print(f"the shipped costs ({OPENING_BIT_COST}, {ROUND_COST}): all {text(ship['all'])}, volumes {fitted_name} "
          f"{text(ship['fitted'])}, {held_name} {text(ship['held_out'])}")
    print("ceilings at the 25%, 55%, 85% quantiles: " + ", ".join(str(q) for q in figures["ceilings"]))
    if args.figures:
        args.figures.write_text(json.dumps(figures, indent=2) + "\n")


if __name__ == "__main__":
    main()
