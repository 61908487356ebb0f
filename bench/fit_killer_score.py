"""Fit the Killer score's costs on the published booklets (engine/games/killer/grade.py).

    .venv/bin/python bench/fit_killer_score.py [--data PATH] [--jobs N]

For every board: the scoring solve's path cost, the opening's bits and the rounds (grade.score's three
parts). Then OPENING_BIT_COST and ROUND_COST are searched on a grid for the best Spearman correlation
of the score with the book number over volumes 1-3; volumes 4-5 are held out. Prints the costs, the
correlation over all boards, per volume and held out, and the score quantiles (25%, 55%, 85%) that
the band ceilings sit at. The path's own costs (the technique table, COMBINATION_BIT_COST) are
taken as they are.
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
from engine.games.killer.grade import SCORING, opening_bits, rounds  # noqa: E402
from engine.games.killer.techniques import KillerState  # noqa: E402
from engine.ladder import run  # noqa: E402

from bench_killer_calibration import spearman  # noqa: E402  (the calibration's own measure)

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
    args = parser.parse_args()
    lines = [line for line in args.data.read_text().splitlines() if line.strip()]
    with ProcessPoolExecutor(args.jobs) as pool:
        volume, book, path, bits, depth = (np.array(column) for column in zip(*pool.map(parts, lines, chunksize=50)))
    fitting = volume <= 3

    def rho(scores: np.ndarray, where: np.ndarray) -> float:
        return spearman(scores[where].tolist(), book[where].tolist())

    best = max((rho(path + round_cost * depth + np.round(bit_cost * bits), fitting), bit_cost, round_cost)
               for bit_cost in OPENING_GRID for round_cost in ROUND_GRID)
    _, bit_cost, round_cost = best
    scores = path + round_cost * depth + np.round(bit_cost * bits)
    everything = np.ones_like(fitting)
    print(f"OPENING_BIT_COST = {bit_cost}, ROUND_COST = {round_cost} ({len(lines)} boards)")
    print(f"Spearman: all {rho(scores, everything):.3f}, volumes 1-3 {rho(scores, fitting):.3f}, "
          f"held out 4-5 {rho(scores, ~fitting):.3f}")
    print("per volume: " + ", ".join(f"{v}: {rho(scores, volume == v):.3f}" for v in sorted(set(volume.tolist()))))
    print("ceilings at the 25%, 55%, 85% quantiles: " + ", ".join(f"{q:.0f}" for q in np.percentile(scores, [25, 55, 85])))


if __name__ == "__main__":
    main()
