"""Calibrating the Star Battle grader on published boards with their site's own labels.

    .venv/bin/python bench/bench_calibration.py [--data PATH] [--limit N] [--jobs N] [--size N ...] [--json OUT]

Grades every board of the labelled collection (default: ../shared/calibration/starbattle-labelled.jsonl
beside the repository; each line holds rules, regions and the site's label "medium" or "hard") and the
published boards of tests/data, and prints Markdown for BENCHMARKS.md, per size:
- the share the ladder finishes, and the share that needs a trial step (any "contradiction" rung);
- AUC: the chance that a board the site calls hard scores above one it calls medium (ties count half),
  and the same chance for the length of the region boundary (a feature of the drawing, not the solve);
- the band mix per label, the median score per label, and grading time (median and p90);
- which techniques the solves used, and how often each was the hardest;
- the share that passes the generator's fun and shape gates (a board the ladder does not finish fails
  the fun gate).
`--json OUT` also writes one line per board (id, label, score, band, trial, seconds) for further study.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import statistics
import sys
import time
from collections import Counter, defaultdict
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.games.starbattle import Rules  # noqa: E402
from engine.games.starbattle.board import Board  # noqa: E402
from engine.games.starbattle.shape import shape_features, shape_score  # noqa: E402
from engine.games.starbattle.gates import gates_for  # noqa: E402
from engine.games.starbattle.grade import BANDS, grade  # noqa: E402
from engine.ladder.fun import fun_score  # noqa: E402
from engine.games.starbattle.techniques import TRIALS  # noqa: E402
from machine import cpu_model, markdown_tables, write_result  # noqa: E402

DEFAULT_DATA = ROOT.parent / "shared" / "calibration" / "starbattle-labelled.jsonl"
PUBLISHED = ROOT / "tests" / "data" / "starbattle_published.json"


def load(path: Path) -> list[dict]:
    if path.suffix == ".jsonl":
        return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return json.loads(path.read_text())


def measure(item: dict) -> dict:
    rules = item["rules"]
    board = Board(Rules(rules["size"], rules["stars"], rules.get("diagonals", False)),
                  tuple(label for row in item["regions"] for label in row))
    start = time.perf_counter()
    graded = grade(board)
    seconds = time.perf_counter() - start
    used = Counter(step.technique for step in graded.steps)
    gates = gates_for(board.rules).verdict(fun=fun_score(graded.tiers).score if graded.solved else None,
                                          shape=shape_score(board.n, board.regions, board.rules.stars).score)
    return {"id": item.get("id") or item.get("name"), "label": item.get("label", "published"),
            "fun": gates.get("fun", False), "shape": gates.get("shape", False),
            "size": board.n, "stars": board.rules.stars, "solved": graded.solved, "score": graded.score,
            "band": graded.band, "hardest": graded.hardest, "seconds": seconds,
            "trial": any(name in TRIALS for name in used), "used": dict(used),
            "boundary": shape_features(board.n, board.regions).boundary_per_row}


def auc(hard: list[int], medium: list[int]) -> float:
    """P(a hard board scores above a medium one), ties counting half."""
    if not hard or not medium:
        return float("nan")
    wins = 0.0
    for h in hard:
        for m in medium:
            wins += 1.0 if h > m else 0.5 if h == m else 0.0
    return wins / (len(hard) * len(medium))


def report(rows: list[dict]) -> str:
    out = []
    by_kind: dict[tuple[int, int], list[dict]] = defaultdict(list)
    for row in rows:
        by_kind[(row["size"], row["stars"])].append(row)
    out.append("| board | boards | finished | needs trial | AUC hard > medium | median score medium / hard"
               " | AUC of boundary length | grade median / p90 | pass fun / shape / both gates |")
    out.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for (n, k), group in sorted(by_kind.items()):
        finished = sum(r["solved"] for r in group) / len(group)
        trial = sum(r["trial"] for r in group) / len(group)
        hard = [r["score"] for r in group if r["label"] == "hard"]
        medium = [r["score"] for r in group if r["label"] == "medium"]
        times = sorted(r["seconds"] for r in group)
        area = auc(hard, medium)
        # the site's label against a drawing feature, not a solving one: the region boundary's length
        # (per row, the same order within one size)
        drawn = auc([r["boundary"] for r in group if r["label"] == "hard"],
                    [r["boundary"] for r in group if r["label"] == "medium"])
        med = (f"{statistics.median(medium):,.0f} / {statistics.median(hard):,.0f}" if hard and medium
               else f"{statistics.median(r['score'] for r in group):,.0f}")
        out.append(f"| {n}×{n} {k}★ | {len(group)} | {finished:.1%} | {trial:.1%} | "
                   + ("–" if area != area else f"{area:.3f}")
                   + f" | {med} | " + ("–" if drawn != drawn else f"{drawn:.3f}")
                   + f" | {1000 * statistics.median(times):.1f} ms / "
                   f"{1000 * times[math.ceil(0.9 * len(times)) - 1]:.1f} ms | "
                   f"{sum(r['fun'] for r in group) / len(group):.1%} / {sum(r['shape'] for r in group) / len(group):.1%}"
                   f" / {sum(r['fun'] and r['shape'] for r in group) / len(group):.1%} |")
    out.append("")
    out.append("Band mix per label (easy / medium / hard / expert / unfinished):")
    out.append("")
    out.append("| board | label | " + " | ".join(BANDS) + " | unfinished |")
    out.append("|---|---|" + "---:|" * (len(BANDS) + 1))
    for (n, k), group in sorted(by_kind.items()):
        for label in sorted({r["label"] for r in group}):
            part = [r for r in group if r["label"] == label]
            mix = Counter(r["band"] for r in part)
            cells = " | ".join(f"{mix[b] / len(part):.0%}" for b in BANDS)
            out.append(f"| {n}×{n} {k}★ | {label} | {cells} | {mix[None] / len(part):.0%} |")
    out.append("")
    out.append("Techniques: boards whose solve used each one, and boards where it was the hardest:")
    out.append("")
    used = Counter()
    hardest = Counter()
    for row in rows:
        used.update(row["used"].keys())
        hardest[row["hardest"]] += 1
    out.append("| technique | boards using it | hardest on |")
    out.append("|---|---:|---:|")
    for name, count in used.most_common():
        out.append(f"| {name} | {count} | {hardest[name]} |")
    return "\n".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--limit", type=int, default=0, help="boards per (size, label), 0 = all")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--size", type=int, action="append", default=[],
                        help="grade only boards of this size (repeatable; the default: every size)")
    args = parser.parse_args()
    if not args.data.exists():
        sys.exit(f"bench_calibration: no labelled boards at {args.data} (give --data PATH)")
    items = load(args.data)
    if args.limit:
        seen: Counter = Counter()
        kept = []
        for item in items:
            key = (item["rules"]["size"], item["label"])
            if seen[key] < args.limit:
                seen[key] += 1
                kept.append(item)
        items = kept
    items += load(PUBLISHED)
    if args.size:
        items = [item for item in items if item["rules"]["size"] in args.size]
    start, load_at_start = time.perf_counter(), os.getloadavg()[0]
    with ProcessPoolExecutor(args.jobs) as pool:
        rows = list(pool.map(measure, items, chunksize=4))
    wall = time.perf_counter() - start
    if args.json:
        args.json.write_text("".join(json.dumps(row) + "\n" for row in rows))
    print(f"{len(rows)} boards graded in {wall:.0f} s on {args.jobs} processes "
          f"({cpu_model()}, Python {platform.python_version()}); "
          f"`{' '.join(['.venv/bin/python', 'bench/bench_calibration.py'] + sys.argv[1:])}`\n")
    text = report(rows)
    print(text)
    # One result file per selection of boards, so a run on one size does not replace the whole file's.
    name = "calibration" + (f"-limit-{args.limit}" if args.limit else "") + "".join(f"-size-{n}" for n in args.size)
    tables = markdown_tables(text)
    for table, title in zip(tables, ("per size", "band mix per label", "techniques")):
        table["title"] = title      # fixed titles, so BENCHMARKS.in.md can name one table
    write_result(name, tables, notes=[f"{len(rows)} boards graded in {wall:.0f} s on {args.jobs} processes"],
                 load_at_start=load_at_start)


if __name__ == "__main__":
    main()
