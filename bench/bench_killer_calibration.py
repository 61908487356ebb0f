"""Calibrating the Killer Sudoku grader on published booklets.

    .venv/bin/python bench/bench_killer_calibration.py [--data PATH] [--limit N] [--jobs N] [--json OUT]
        [--fit-volumes 1,2,3] [--opening-bit-cost C --round-cost C] [--figures OUT.json]

Grades every board of the booklets (default: ../shared/calibration/killer-sudoku-booklets.jsonl beside
the repository; each line a board with "volume" and "book": within a volume, books 1-100 are ordered by
difficulty) and prints Markdown for BENCHMARKS.md:
- how many boards are unique with the published solution, how many the ladder finishes by logic, and
  how many need a trial step;
- Spearman's rank correlation of the score with the book number, over all boards, per volume, and over
  the volumes the costs were fitted on (`--fit-volumes`, default 1-3, where the shipped costs were) and
  the others (held back);
- the band mix per tenth of the books, the median score per tenth, and the share of each hardest technique;
- grading time (median and p90) and the counter's time per board.
`--opening-bit-cost` and `--round-cost` grade with other costs than the shipped ones (those
bench/fit_killer_score.py found on other volumes: `--fit-volumes 4,5` with the costs fitted on 4-5 scores
volumes 1-3 as held back). `--json OUT` also writes one line per board (id, volume, book, score, band,
hardest, trial, seconds); `--figures OUT.json` the printed figures as one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections import Counter, defaultdict
from concurrent.futures import ProcessPoolExecutor
from importlib import import_module
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.games.killer import GAME, count_solutions  # noqa: E402
from engine.games.killer.grade import grade  # noqa: E402
from engine.games.killer.grade import OPENING_BIT_COST, ROUND_COST  # noqa: E402  (the shipped costs)
from engine.games.killer.techniques import TABLE  # noqa: E402

sys.path.insert(0, str(ROOT / "bench"))
from machine import write_result  # noqa: E402

grading = import_module("engine.games.killer.grade")

DEFAULT = ROOT.parent / "shared" / "calibration" / "killer-sudoku-booklets.jsonl"
TRIAL = "trial-and-error"


def split_volumes(text: str) -> tuple[int, ...]:
    """ "1,2,3" or "1-3" -> (1, 2, 3): the volumes named by a --fit-volumes flag."""
    out: list[int] = []
    try:
        for part in text.split(","):
            first, _, last = part.strip().partition("-")
            out += range(int(first), int(last or first) + 1)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected volumes as 1,2,3 or 1-3, got {text!r}") from None
    if not out:
        raise argparse.ArgumentTypeError("name at least one volume")
    return tuple(sorted(set(out)))


def use_costs(opening_bit_cost: int, round_cost: int) -> None:
    """Grade with these costs (in this process: a worker's initializer)."""
    grading.OPENING_BIT_COST = opening_bit_cost
    grading.ROUND_COST = round_cost


def measure(line: str) -> dict:
    data = json.loads(line)
    board = GAME.board_from_json({k: v for k, v in data.items() if k != "solution"})
    started = time.perf_counter()
    found = count_solutions(board, 2)
    counted = time.perf_counter() - started
    started = time.perf_counter()
    graded = grade(board)
    seconds = time.perf_counter() - started
    return {"id": data.get("id"), "volume": data.get("volume"), "book": data.get("book"),
            "unique": found.solutions == (data.get("solution"),), "solved": graded.solved and graded.values == data.get("solution"),
            "score": graded.score, "band": graded.band, "hardest": graded.hardest,
            "trial": any(step.technique == TRIAL for step in graded.steps), "seconds": seconds, "count_seconds": counted}


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT)
    parser.add_argument("--limit", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--json", type=Path)
    parser.add_argument("--fit-volumes", type=split_volumes, default=(1, 2, 3), metavar="V,V,...",
                        help="the volumes the costs were fitted on (default 1,2,3); the others are held back")
    parser.add_argument("--opening-bit-cost", type=int, default=OPENING_BIT_COST)
    parser.add_argument("--round-cost", type=int, default=ROUND_COST)
    parser.add_argument("--figures", type=Path, metavar="OUT.json", help="also write the figures as JSON")
    args = parser.parse_args()
    costs = (args.opening_bit_cost, args.round_cost)
    use_costs(*costs)
    load_at_start = os.getloadavg()[0]
    lines = [line for line in args.data.read_text().splitlines() if line.strip()]
    if args.limit:
        lines = lines[:: max(1, len(lines) // args.limit)][: args.limit]
    started = time.perf_counter()
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs, initializer=use_costs, initargs=costs) as pool:
            rows = list(pool.map(measure, lines, chunksize=20))
    else:
        rows = [measure(line) for line in lines]
    wall = time.perf_counter() - started
    if args.json:
        args.json.write_text("".join(json.dumps(row) + "\n" for row in rows))

    n = len(rows)

    def rho(group: list[dict]) -> float | None:
        return spearman([r["score"] for r in group], [r["book"] for r in group]) if group else None

    by_volume = defaultdict(list)
    for r in rows:
        by_volume[r["volume"]].append(r)
    fitted = [r for r in rows if r["volume"] in args.fit_volumes]
    held = [r for r in rows if r["volume"] not in args.fit_volumes]
    fitted_name = ",".join(map(str, args.fit_volumes))
    held_name = ",".join(map(str, sorted(by_volume.keys() - set(args.fit_volumes)))) or "none"
    grades = sorted(r["seconds"] for r in rows)
    counts = sorted(r["count_seconds"] for r in rows)
    by_tenth = defaultdict(list)
    for r in rows:
        by_tenth[(r["book"] - 1) // 10].append(r)
    hardest = Counter(r["hardest"] for r in rows)
    order = [e.name for e in TABLE]
    shipped = costs == (OPENING_BIT_COST, ROUND_COST)
    figures = {
        "data": args.data.name, "boards": n, "costs": {"opening_bit_cost": costs[0], "round_cost": costs[1],
                                                        "shipped": shipped},
        "fit_volumes": list(args.fit_volumes), "held_out_volumes": sorted(by_volume.keys() - set(args.fit_volumes)),
        "unique": sum(r["unique"] for r in rows), "solved": sum(r["solved"] for r in rows),
        "trial": sum(r["trial"] for r in rows),
        "spearman": {"all": rho(rows), "fitted": rho(fitted), "held_out": rho(held),
                     "per_volume": {str(v): rho(group) for v, group in sorted(by_volume.items())}},
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

    print(f"## Killer Sudoku calibration ({n} published boards, {args.data.name})\n")
    if not shipped:
        print(f"- costs: {costs[0]} per opening bit, {costs[1]} per round (not the shipped ones)")
    print(f"- unique with the published solution: {figures['unique']} / {n}")
    print(f"- finished by the ladder: {figures['solved']} / {n}; needing trial: {figures['trial']}")
    print(f"- Spearman (score, book) over all boards: {text(rho(rows))}")
    for volume, group in sorted(by_volume.items()):
        print(f"  - volume {volume} ({len(group)} boards): {text(rho(group))}")
    for label, group in ((f"volumes {fitted_name} (the costs fitted here)", fitted),
                         (f"volumes {held_name} (held out)", held)):
        if group:
            print(f"  - {label} ({len(group)} boards): {text(rho(group))}")
    grading_ms, counting_ms = figures["grading_ms"], figures["counting_ms"]
    print(f"- grading: median {grading_ms['median']:.1f} ms, p90 {grading_ms['p90']:.1f} ms; "
          f"counting to 2: median {counting_ms['median']:.2f} ms, max {counting_ms['max']:.1f} ms; "
          f"wall {wall:.1f} s with {args.jobs} job(s)")
    print("\n| books | boards | median score | " + " | ".join(GAME.bands) + " |")
    print("| --- | --- | --- | " + " | ".join("---" for _ in GAME.bands) + " |")
    for tenth in figures["tenths"]:
        print(f"| {tenth['books']} | {tenth['boards']} | {tenth['median_score']:.0f} | "
              + " | ".join(str(tenth["bands"][band]) for band in GAME.bands) + " |")
    print("\nhardest technique: " + ", ".join(f"{name} {count}" for name, count in figures["hardest"].items()))

    # The same figures for BENCHMARKS.md: the shipped costs on the default split are "killer_calibration",
    # any other run a file of its own, so a study run never replaces the published figure.
    name = "killer_calibration" if shipped and args.fit_volumes == (1, 2, 3) and not args.limit else \
        f"killer_calibration-fit-{'-'.join(map(str, args.fit_volumes))}-costs-{costs[0]}-{costs[1]}" + \
        (f"-limit-{args.limit}" if args.limit else "")
    correlations = [["all boards", n, text(rho(rows))]]
    correlations += [[f"volume {volume}", len(group), text(rho(group))] for volume, group in sorted(by_volume.items())]
    correlations += [[label, len(group), text(rho(group))]
                     for label, group in ((f"volumes {fitted_name} (costs fitted here)", fitted),
                                          (f"volumes {held_name} (held out)", held)) if group]
    write_result(name, [
        {"title": "Spearman", "columns": ["boards", "count", "Spearman (score, book)"], "rows": correlations},
        {"title": "bands by book", "columns": ["books", "boards", "median score", *GAME.bands],
         "rows": [[t["books"], t["boards"], f"{t['median_score']:.0f}", *(t["bands"][b] for b in GAME.bands)]
                  for t in figures["tenths"]]},
    ], notes=[f"costs {costs[0]} per opening bit, {costs[1]} per round"
              + (" (the shipped ones)" if shipped else " (not the shipped ones)"),
              f"unique with the published solution {figures['unique']} / {n}; finished by the ladder "
              f"{figures['solved']} / {n}; needing trial {figures['trial']}",
              f"grading median {grading_ms['median']:.1f} ms, p90 {grading_ms['p90']:.1f} ms; counting to 2 "
              f"median {counting_ms['median']:.2f} ms, max {counting_ms['max']:.1f} ms; wall {wall:.0f} s "
              f"with {args.jobs} job(s)",
              "hardest technique: " + ", ".join(f"{k} {v}" for k, v in figures["hardest"].items())],
        load_at_start=load_at_start)

if __name__ == "__main__":
    main()
