"""How many boards are designs (concentric frames), published against ours; can a classifier tell them apart.

    .venv/bin/python bench/bench_designs.py [--sizes 10 11] [--boards 200] [--repeats 3] [--speed 15]

Needs scikit-learn (`pip install -e '.[bench]'`). Per size: of the shared daily Queens boards, and of
them pooled with the hand-drawn corpus (the daily 11x11 boards are few), and of `--boards` boards of
the default style (`generate`, seeds 70,000 + i), the share with a frame (a region of n+ cells, 70%+
of them in one ring from the edge, covering 40%+ of that ring: `frame_rings` of
engine/games/starbattle/styles/pictured_frames.py) and the share drawn as a design (two frames, or one
inside the edge ring: `is_design`); then the AUC of bench/bench_shape_classifier.py's classifiers
telling those boards from the published ones, cross-validated, the style as shipped (its figures for
the daily file are that bench's without --honest: the same boards and folds). Then `--speed` whole
`puzzlefleet generate --game queens --size N --count 1 --seed S --band medium` processes per size
(seeds 1 to `--speed`), timed start to exit: the median seconds a board costs a user (goal ≤ 2 s).
Writes bench/results/designs.json and prints Markdown.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench_shape_classifier import FAMILIES, MODELS, auc_of, compare  # noqa: E402
from engine.games.starbattle import Rules  # noqa: E402
from engine.games.starbattle.generator import generate  # noqa: E402
from engine.games.starbattle.styles import pictured_frames  # noqa: E402
from machine import markdown_row, run_header, write_result  # noqa: E402

SHARED = ROOT / ".." / "shared" / "calibration"
FILES = {"daily": SHARED / "queens-linkedin-odd.jsonl", "hand-drawn": SHARED / "queens-handmade.jsonl"}
GOAL_SECONDS = 2.0


def published(path: Path, n: int) -> list[tuple[int, ...]]:
    maps = []
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            board = json.loads(line)
            rules = board["rules"]
            if rules["size"] == n and rules.get("stars", 1) == 1 and not rules.get("diagonals"):
                maps.append(tuple(label for row in board["regions"] for label in row))
    return maps


def shares(n: int, maps: list[tuple[int, ...]]) -> tuple[int, int, int]:
    """(boards, with a frame, designs)."""
    framed = sum(bool(pictured_frames.frame_rings(n, regions)) for regions in maps)
    return len(maps), framed, sum(pictured_frames.is_design(n, regions) for regions in maps)


def whole_process_seconds(n: int, seeds: int) -> float:
    """Median wall seconds of `puzzlefleet generate --game queens --size n --count 1 --seed S --band medium`."""
    command = [str(ROOT / ".venv" / "bin" / "puzzlefleet"), "generate", "--game", "queens", "--size", str(n),
               "--count", "1", "--band", "medium"]
    times = []
    for seed in range(1, seeds + 1):
        started = time.perf_counter()
        subprocess.run(command + ["--seed", str(seed)], check=True, capture_output=True)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="*", default=[10, 11])
    parser.add_argument("--boards", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=3, help="seeded fold draws pooled per AUC")
    parser.add_argument("--speed", type=int, default=15, help="whole generate processes per size (0: none)")
    args = parser.parse_args()
    load = os.getloadavg()[0]
    print(run_header())
    columns = ["rules", "published", "boards", "published: frames, designs", "ours: frames, designs",
               "shape, logistic", "shape, boosting", "texture, logistic", "texture, boosting",
               f"whole generate --band medium: median s (goal ≤ {GOAL_SECONDS:g})"]
    rows = []
    for n in args.sizes:
        ours = [generate(Rules(n), 70_000 + i)[0].regions for i in range(args.boards)]
        _, our_frames, our_designs = shares(n, ours)
        seconds = f"{whole_process_seconds(n, args.speed):.2f}" if args.speed else "not run"
        daily = published(FILES["daily"], n)
        for name, theirs in (("daily", daily), ("daily + hand-drawn", daily + published(FILES["hand-drawn"], n))):
            boards, frames, designs = shares(n, theirs)
            auc = compare(n, ours, theirs, args.repeats)
            rows.append([f"queens {n}", name, boards, f"{frames / boards:.0%}, {designs / boards:.0%}",
                         f"{our_frames / len(ours):.0%}, {our_designs / len(ours):.0%}"]
                        + [round(auc_of(auc[fam][model]), 3) for fam in FAMILIES for model in MODELS] + [seconds])
            print(markdown_row(rows[-1]), flush=True)
    write_result("designs", [{"title": "Frames, designs, AUC (as shipped, cross-validated), speed", "columns": columns,
                              "rows": rows}], load_at_start=load,
                 notes=[f"{args.boards} generated boards per size (seeds 70,000 + i), {args.repeats} fold draws pooled; "
                        f"{args.speed} whole processes per size (seeds 1 to {args.speed})"])


if __name__ == "__main__":
    main()
