"""Calibrating the Killer Sudoku grader on published booklets.

    .venv/bin/python bench/bench_killer_calibration.py [--data PATH] [--limit N] [--jobs N] [--json OUT]

Grades every board of the booklets (default: ../shared/calibration/killer-sudoku-booklets.jsonl beside
the repository; each line a board with "volume" and "book": within a volume, books 1-100 are ordered by
difficulty) and prints Markdown for BENCHMARKS.md:
- how many boards are unique with the published solution, how many the ladder finishes by logic, and
  how many need a trial step;
- Spearman's rank correlation of the score with the book number, over all boards, per volume, and over
  volumes 1-3 (where the costs were fitted) and 4-5 (held out);
- the band mix per tenth of the books, the median score per tenth, and the share of each hardest technique;
- grading time (median and p90) and the counter's time per board.
`--json OUT` also writes one line per board (id, volume, book, score, band, hardest, trial, seconds).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter, defaultdict
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.games.killer import GAME, count_solutions, grade  # noqa: E402
from engine.games.killer.techniques import TABLE  # noqa: E402

DEFAULT = ROOT.parent / "shared" / "calibration" / "killer-sudoku-booklets.jsonl"
TRIAL = "trial-and-error"


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
    args = parser.parse_args()
    lines = [line for line in args.data.read_text().splitlines() if line.strip()]
    if args.limit:
        lines = lines[:: max(1, len(lines) // args.limit)][: args.limit]
    started = time.perf_counter()
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as pool:
            rows = list(pool.map(measure, lines, chunksize=20))
    else:
        rows = [measure(line) for line in lines]
    wall = time.perf_counter() - started
    if args.json:
        args.json.write_text("".join(json.dumps(row) + "\n" for row in rows))

    n = len(rows)
    print(f"## Killer Sudoku calibration ({n} published boards, {args.data.name})\n")
    print(f"- unique with the published solution: {sum(r['unique'] for r in rows)} / {n}")
    print(f"- finished by the ladder: {sum(r['solved'] for r in rows)} / {n}; needing trial: "
          f"{sum(r['trial'] for r in rows)}")
    print(f"- Spearman (score, book) over all boards: {spearman([r['score'] for r in rows], [r['book'] for r in rows]):.3f}")
    by_volume = defaultdict(list)
    for r in rows:
        by_volume[r["volume"]].append(r)
    for volume, group in sorted(by_volume.items()):
        rho = spearman([r["score"] for r in group], [r["book"] for r in group])
        print(f"  - volume {volume} ({len(group)} boards): {rho:.3f}")
    for label, volumes in (("volumes 1-3 (the costs fitted here)", (1, 2, 3)), ("volumes 4-5 (held out)", (4, 5))):
        group = [r for r in rows if r["volume"] in volumes]
        if group:
            rho = spearman([r["score"] for r in group], [r["book"] for r in group])
            print(f"  - {label} ({len(group)} boards): {rho:.3f}")
    grades = sorted(r["seconds"] for r in rows)
    counts = sorted(r["count_seconds"] for r in rows)
    print(f"- grading: median {1000 * statistics.median(grades):.1f} ms, p90 {1000 * grades[int(0.9 * (n - 1))]:.1f} ms; "
          f"counting to 2: median {1000 * statistics.median(counts):.2f} ms, max {1000 * counts[-1]:.1f} ms; "
          f"wall {wall:.1f} s with {args.jobs} job(s)")
    print("\n| books | boards | median score | " + " | ".join(GAME.bands) + " |")
    print("| --- | --- | --- | " + " | ".join("---" for _ in GAME.bands) + " |")
    by_tenth = defaultdict(list)
    for r in rows:
        by_tenth[(r["book"] - 1) // 10].append(r)
    for tenth, group in sorted(by_tenth.items()):
        mix = Counter(r["band"] for r in group)
        print(f"| {tenth * 10 + 1}-{tenth * 10 + 10} | {len(group)} | {statistics.median(r['score'] for r in group):.0f} | "
              + " | ".join(str(mix.get(band, 0)) for band in GAME.bands) + " |")
    hardest = Counter(r["hardest"] for r in rows)
    order = [e.name for e in TABLE]
    print("\nhardest technique: " + ", ".join(f"{name} {hardest[name]}" for name in order if hardest.get(name)))


if __name__ == "__main__":
    main()
