"""Calibrating the Killer Sudoku grader on published booklets.

    .venv/bin/python bench/bench_killer_calibration.py [--data PATH] [--limit N] [--jobs N] [--json OUT]
        [--figures OUT.json]

Grades every board of the booklets (default: ../shared/calibration/killer-sudoku-booklets.jsonl beside
the repository; each line a board with "volume" and "book": within a volume, books 1-100 are ordered by
difficulty) and prints Markdown for BENCHMARKS.md:
- how many boards are unique with the published solution, how many the ladder finishes by logic, and
  how many need a trial step;
- Spearman's rank correlation of the score with the book number, over all boards and per volume;
- the folds: the score's weights fitted on some volumes (least squares of the book on the score's five
  measures, grade.Measures) and Spearman on the others held back, for volumes 1-3 against 4-5 both ways
  and each volume held out alone; beside it the shipped weights and the earlier form of the score (the
  path, 160 per bit the opening cage pass leaves to find, 500 per round) on the same held-back volumes;
- the band mix per tenth of the books, the median score per tenth, and the share of each hardest technique;
- grading time (median and p90) and the counter's time per board.
`--json OUT` also writes one line per board (id, volume, book, score, band, hardest, trial, seconds, the
measures); `--figures OUT.json` the printed figures as one JSON object.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import sys
import time
from collections import Counter, defaultdict
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.games.killer import GAME, count_solutions  # noqa: E402
from engine.games.killer.grade import (OPENING_BIT_COST, ROUND_COST, RULE_OF_45_COST, SLACK_COST, Score, grade,  # noqa: E402
                                      measure)
from engine.games.killer.techniques import TABLE  # noqa: E402

sys.path.insert(0, str(ROOT / "bench"))
from machine import write_result  # noqa: E402

DEFAULT = ROOT.parent / "shared" / "calibration" / "killer-sudoku-booklets.jsonl"
TRIAL = "trial-and-error"

# The score's measures (grade.Measures) and their shipped weights, in the path's cost units.
MEASURES = ("path", "rule_of_45", "slack", "opening", "rounds")
SHIPPED = {"path": 1.0, "rule_of_45": RULE_OF_45_COST, "slack": SLACK_COST, "opening": OPENING_BIT_COST,
           "rounds": ROUND_COST}
# The earlier form of the score, measured beside it: the path, these costs per opening bit and per round.
EARLIER_BIT_COST, EARLIER_ROUND_COST = 160, 500
EARLIER_GRID = [(bit, depth) for bit in range(0, 401, 40) for depth in range(0, 1601, 200)]


def measure_line(line: str) -> dict:
    data = json.loads(line)
    board = GAME.board_from_json({k: v for k, v in data.items() if k != "solution"})
    started = time.perf_counter()
    found = count_solutions(board, 2)
    counted = time.perf_counter() - started
    started = time.perf_counter()
    measured = measure(board)
    graded = grade(board, scored=Score.of(measured))
    seconds = time.perf_counter() - started
    return {"id": data.get("id"), "volume": data.get("volume"), "book": data.get("book"),
            "unique": found.solutions == (data.get("solution"),), "solved": graded.solved and graded.values == data.get("solution"),
            "score": graded.score, "band": graded.band, "hardest": graded.hardest,
            "trial": any(step.technique == TRIAL for step in graded.steps), "seconds": seconds, "count_seconds": counted,
            "path": measured.path, "rule_of_45": measured.rule_of_45, "slack": measured.slack,
            "opening": measured.opening, "rounds": measured.rounds}


def ranks(values: list[float]) -> list[float]:
    order = sorted(range(len(values)), key=values.__getitem__)
    out = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            out[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return out


def spearman(xs: list[float], ys: list[float]) -> float:
    rx, ry = ranks(xs), ranks(ys)
    mx, my = statistics.fmean(rx), statistics.fmean(ry)
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    var = (sum((a - mx) ** 2 for a in rx) * sum((b - my) ** 2 for b in ry)) ** 0.5
    return cov / var if var else 0.0


def folds(volumes: list[int]) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """(fitted, held back): volumes 1-3 against 4-5 both ways (when the data has them), then each volume
    held out alone."""
    out = []
    first, second = tuple(v for v in volumes if v <= 3), tuple(v for v in volumes if v > 3)
    if first and second:
        out += [(first, second), (second, first)]
    if len(volumes) > 1:
        out += [(tuple(v for v in volumes if v != held), (held,)) for held in volumes]
    return out


def fit_weights(rows: list[dict]) -> dict[str, float]:
    """The score's weights fitted on `rows`: least squares of the book on the measures (and a constant),
    scaled so the path weighs 1."""
    design = np.array([[row[m] for m in MEASURES] + [1.0] for row in rows], dtype=float)
    solution = np.linalg.lstsq(design, np.array([row["book"] for row in rows], dtype=float), rcond=None)[0]
    return {m: float(w / solution[0]) for m, w in zip(MEASURES, solution)}


def weighted(row: dict, weights: dict[str, float]) -> float:
    return sum(weights[m] * row[m] for m in MEASURES)


def earlier(row: dict, bit_cost: float = EARLIER_BIT_COST, round_cost: float = EARLIER_ROUND_COST) -> float:
    return row["path"] + bit_cost * row["opening"] + round_cost * row["rounds"]


def fold_figures(rows: list[dict]) -> list[dict]:
    """Each fold: the weights fitted on its fitted volumes and Spearman (score, book) on the held-back
    ones with those weights, with the shipped ones, and with the earlier form (its own costs, and refitted
    on the fitted volumes over EARLIER_GRID)."""
    volumes = sorted({row["volume"] for row in rows})
    out = []
    for fitted, held in folds(volumes):
        train = [row for row in rows if row["volume"] in fitted]
        test = [row for row in rows if row["volume"] in held]
        books = [row["book"] for row in test]
        weights = fit_weights(train)
        train_books = [row["book"] for row in train]
        refit = max(EARLIER_GRID, key=lambda c: spearman([earlier(row, *c) for row in train], train_books))
        out.append({"fitted": list(fitted), "held_out": list(held), "weights": weights,
                    "spearman_fitted": spearman([weighted(row, weights) for row in test], books),
                    "spearman_shipped": spearman([weighted(row, SHIPPED) for row in test], books),
                    "spearman_earlier": spearman([earlier(row) for row in test], books),
                    "earlier_refit_costs": list(refit),
                    "spearman_earlier_refit": spearman([earlier(row, *refit) for row in test], books)})
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT)
    parser.add_argument("--limit", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--json", type=Path)
    parser.add_argument("--figures", type=Path, metavar="OUT.json", help="also write the figures as JSON")
    args = parser.parse_args()
    load_at_start = os.getloadavg()[0]
    lines = [line for line in args.data.read_text().splitlines() if line.strip()]
    if args.limit:
        lines = lines[:: max(1, len(lines) // args.limit)][: args.limit]
    started = time.perf_counter()
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as pool:
            rows = list(pool.map(measure_line, lines, chunksize=20))
    else:
        rows = [measure_line(line) for line in lines]
    wall = time.perf_counter() - started
    if args.json:
        args.json.write_text("".join(json.dumps(row) + "\n" for row in rows))

    n = len(rows)

    def rho(group: list[dict]) -> float | None:
        return spearman([r["score"] for r in group], [r["book"] for r in group]) if group else None

    by_volume = defaultdict(list)
    for r in rows:
        by_volume[r["volume"]].append(r)
    grades = sorted(r["seconds"] for r in rows)
    counts = sorted(r["count_seconds"] for r in rows)
    by_tenth = defaultdict(list)
    for r in rows:
        by_tenth[(r["book"] - 1) // 10].append(r)
    hardest = Counter(r["hardest"] for r in rows)
    order = [e.name for e in TABLE]
    figures = {
        "data": args.data.name, "boards": n, "weights": SHIPPED,
        "unique": sum(r["unique"] for r in rows), "solved": sum(r["solved"] for r in rows),
        "trial": sum(r["trial"] for r in rows),
        "spearman": {"all": rho(rows), "per_volume": {str(v): rho(group) for v, group in sorted(by_volume.items())}},
        "folds": fold_figures(rows),
        "grading_ms": {"median": 1000 * statistics.median(grades), "p90": 1000 * grades[int(0.9 * (n - 1))]},
        "counting_ms": {"median": 1000 * statistics.median(counts), "max": 1000 * counts[-1]},
        "wall_seconds": wall, "jobs": args.jobs,
        "tenths": [{"books": f"{t * 10 + 1}-{t * 10 + 10}", "boards": len(group),
                    "median_score": statistics.median(r["score"] for r in group),
                    "bands": {band: sum(r["band"] == band for r in group) for band in GAME.bands}}
                   for t, group in sorted(by_tenth.items())],
        "hardest": {name: hardest[name] for name in order if hardest.get(name)},
    }
    if args.figures:
        args.figures.write_text(json.dumps(figures, indent=2) + "\n")

    def text(value: float | None) -> str:
        return "-" if value is None else f"{value:.3f}"

    def names(volumes: list[int]) -> str:
        return ",".join(map(str, volumes))

    print(f"## Killer Sudoku calibration ({n} published boards, {args.data.name})\n")
    print(f"- unique with the published solution: {figures['unique']} / {n}")
    print(f"- finished by the ladder: {figures['solved']} / {n}; needing trial: {figures['trial']}")
    print(f"- Spearman (score, book) over all boards: {text(rho(rows))}")
    for volume, group in sorted(by_volume.items()):
        print(f"  - volume {volume} ({len(group)} boards): {text(rho(group))}")
    grading_ms, counting_ms = figures["grading_ms"], figures["counting_ms"]
    print(f"- grading: median {grading_ms['median']:.1f} ms, p90 {grading_ms['p90']:.1f} ms; "
          f"counting to 2: median {counting_ms['median']:.2f} ms, max {counting_ms['max']:.1f} ms; "
          f"wall {wall:.1f} s with {args.jobs} job(s)")
    fold_header = ["fitted on", "held back", "weights fitted (45 / slack / bit / round)", "held back: fitted weights",
                   "shipped weights (fitted on all)", "earlier form", "earlier form refitted"]
    fold_rows = [[names(f["fitted"]), names(f["held_out"]),
                  " / ".join(f"{f['weights'][m]:.0f}" for m in MEASURES[1:]),
                  text(f["spearman_fitted"]), text(f["spearman_shipped"]), text(f["spearman_earlier"]),
                  text(f["spearman_earlier_refit"])] for f in figures["folds"]]
    print("\n| " + " | ".join(fold_header) + " |")
    print("| " + " | ".join("---" for _ in fold_header) + " |")
    for row in fold_rows:
        print("| " + " | ".join(row) + " |")
    print("\n| books | boards | median score | " + " | ".join(GAME.bands) + " |")
    print("| --- | --- | --- | " + " | ".join("---" for _ in GAME.bands) + " |")
    for tenth in figures["tenths"]:
        print(f"| {tenth['books']} | {tenth['boards']} | {tenth['median_score']:.0f} | "
              + " | ".join(str(tenth["bands"][band]) for band in GAME.bands) + " |")
    print("\nhardest technique: " + ", ".join(f"{name} {count}" for name, count in figures["hardest"].items()))

    # The whole file is "killer_calibration" in BENCHMARKS.md; a --limit run gets a file of its own.
    name = "killer_calibration" + (f"-limit-{args.limit}" if args.limit else "")
    correlations = [["all boards", n, text(rho(rows))]]
    correlations += [[f"volume {volume}", len(group), text(rho(group))] for volume, group in sorted(by_volume.items())]
    write_result(name, [
        {"title": "Spearman", "columns": ["boards", "count", "Spearman (score, book)"], "rows": correlations},
        {"title": "folds", "columns": fold_header, "rows": fold_rows},
        {"title": "bands by book", "columns": ["books", "boards", "median score", *GAME.bands],
         "rows": [[t["books"], t["boards"], f"{t['median_score']:.0f}", *(t["bands"][b] for b in GAME.bands)]
                  for t in figures["tenths"]]},
    ], notes=[f"shipped weights: {RULE_OF_45_COST} per rule-of-45 step, {SLACK_COST} per cage of full slack, "
              f"{OPENING_BIT_COST} per opening bit, {ROUND_COST} per round, on top of the path; the earlier form: "
              f"{EARLIER_BIT_COST} per opening bit, {EARLIER_ROUND_COST} per round",
              f"unique with the published solution {figures['unique']} / {n}; finished by the ladder "
              f"{figures['solved']} / {n}; needing trial {figures['trial']}",
              f"grading median {grading_ms['median']:.1f} ms, p90 {grading_ms['p90']:.1f} ms; counting to 2 "
              f"median {counting_ms['median']:.2f} ms, max {counting_ms['max']:.1f} ms; wall {wall:.0f} s "
              f"with {args.jobs} job(s)",
              "hardest technique: " + ", ".join(f"{k} {v}" for k, v in figures["hardest"].items())],
        load_at_start=load_at_start)


if __name__ == "__main__":
    main()
