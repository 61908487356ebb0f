"""Benchmark for the Sudoku engine: the counter, the generator per band, and QQwing side by side.

    .venv/bin/python bench/bench_sudoku.py [--quick] [--markdown] [--cpu N] [--boards N] [--qqwing N]

Everything runs in this one process pinned to one core (`--cpu`, default 0; -1 leaves it unpinned);
QQwing runs as a child process on the same core. It measures

  a. the counter: count_solutions(givens, 2) on the generated boards of every band: the minimum of
     20 calls per board, then the median across boards (the raw compiled call and the typed front);
  b. generation per technique band (easy, medium, hard, expert): `generate(seed, band=B)` over N
     consecutive seeds, boards per second of wall time, grids drawn per board (the rest were
     rejected as wrong-band), the clue-count spread and the hardest techniques;
  c. generation per clue band (band_by="clues": easy 36-40, medium 30-35, hard 24-29): boards per
     second, clue spread, and the technique band the same boards get;
  d. QQwing (Debian's `qqwing`): `qqwing --generate M --difficulty expert --one-line` (and simple),
     boards per second of wall time.

Targets: counting to 2 median <= 50 us; easy >= 100 boards/s; hard >= 3x QQwing's expert rate.
With --markdown, stdout carries only the report (progress goes to stderr).
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import platform
import shlex
import shutil
import statistics
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:          # the repo is not installed into the venv; run from anywhere
    sys.path.insert(0, str(ROOT))

from engine.games.sudoku import generate  # noqa: E402
from engine.games.sudoku._count import count_masks  # noqa: E402
from engine.games.sudoku.count import count_solutions, masks_of  # noqa: E402
from machine import cpu_model  # noqa: E402

BANDS = ("easy", "medium", "hard", "expert")
CLUE_BANDS = ("easy", "medium", "hard")
COUNT_REPEATS = 20




def pin(cpu: int) -> str:
    if cpu < 0 or not hasattr(os, "sched_setaffinity"):
        return "not pinned"
    try:
        os.sched_setaffinity(0, {cpu})
    except OSError as exc:
        return f"not pinned (CPU {cpu}: {exc.strerror})"
    return f"pinned to CPU {cpu}"


def git_commit() -> str:
    try:
        rev = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                             text=True, timeout=5).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return rev or "unknown"


def spread(values: list[int]) -> str:
    if not values:
        return "-"
    return f"{min(values)} / {statistics.median(values):g} / {max(values)}"


def top(counter: Counter, n: int = 3) -> str:
    total = sum(counter.values())
    return ", ".join(f"{name} {count / total:.0%}" for name, count in counter.most_common(n))


def run_band(band: str, n: int, by: str, log) -> dict:
    boards, grids, clues, hardest, other = [], 0, [], Counter(), Counter()
    started = time.perf_counter()
    for seed in range(n):
        board, stats = generate(seed, band=band, band_by=by)
        boards.append(board)
        grids += stats.grids
        clues.append(board.clues)
        difficulty = board.extra["difficulty"]
        hardest[difficulty["hardest"]] += 1
        if by == "clues":
            other[difficulty["technique_band"]] += 1
    seconds = time.perf_counter() - started
    log(f"{by} {band}: {n / seconds:.1f} boards/s")
    return {"band": band, "by": by, "n": n, "rate": n / seconds, "grids": grids / n, "clues": clues,
            "hardest": hardest, "other": other, "boards": boards}


def count_timing(boards) -> tuple[float, float]:
    raw, front = [], []
    for board in boards:
        masks = masks_of(board.givens)
        best_raw = best_front = float("inf")
        for _ in range(COUNT_REPEATS):
            t = time.perf_counter()
            count_masks(masks, 2)
            best_raw = min(best_raw, time.perf_counter() - t)
            t = time.perf_counter()
            count_solutions(board.givens, 2)
            best_front = min(best_front, time.perf_counter() - t)
        raw.append(best_raw)
        front.append(best_front)
    return statistics.median(raw) * 1e6, statistics.median(front) * 1e6


def qqwing_rate(count: int, difficulty: str) -> float | None:
    exe = shutil.which("qqwing")
    if exe is None:
        return None
    started = time.perf_counter()
    out = subprocess.run([exe, "--generate", str(count), "--difficulty", difficulty, "--one-line"],
                         capture_output=True, text=True, check=True).stdout
    seconds = time.perf_counter() - started
    made = sum(1 for line in out.splitlines() if len(line.strip()) == 81)
    return made / seconds


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="a smoke run: a quarter of the boards")
    p.add_argument("--markdown", action="store_true", help="only the Markdown report on stdout")
    p.add_argument("--cpu", type=int, default=0, help="core to pin to (default 0; -1: do not pin)")
    p.add_argument("--boards", type=int, default=400, help="boards per band (default 400)")
    p.add_argument("--qqwing", type=int, default=400, help="QQwing expert boards (default 400)")
    return p.parse_args(argv)


def main(argv=None) -> int:
    args = parse_args(argv)
    n = max(8, args.boards // 4) if args.quick else args.boards
    qn = max(20, args.qqwing // 4) if args.quick else args.qqwing
    out = sys.stderr if args.markdown else sys.stdout

    def log(msg: str) -> None:
        print(msg, file=out, flush=True)

    pinned = pin(args.cpu)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    results = [run_band(band, n, "technique", log) for band in BANDS]
    clue_results = [run_band(band, n, "clues", log) for band in CLUE_BANDS]
    raw_us, front_us = count_timing([b for r in results for b in r["boards"]])
    log(f"counting to 2: {raw_us:.1f} us raw, {front_us:.1f} us through count_solutions")
    qq_expert = qqwing_rate(qn, "expert")
    qq_simple = qqwing_rate(max(10, qn // 8), "simple")
    log(f"qqwing expert {qq_expert} boards/s, simple {qq_simple} boards/s")

    rate = {r["band"]: r["rate"] for r in results}
    lines = [
        "## Sudoku 9x9",
        "",
        f"`{shlex.join([os.path.relpath(sys.executable), *sys.argv])}` at {git_commit()}; "
        f"{cpu_model()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
        f"{dt.date.today().isoformat()}, load {load:.2f}, {pinned}.",
        "",
        "| Generator | Boards/s | Grids per board | Clues min / median / max | Hardest technique | Target | Met |",
        "|---|---|---|---|---|---|---|",
    ]
    targets = {"easy": (100.0, ">= 100/s")}
    if qq_expert:
        targets["hard"] = (3 * qq_expert, f">= 3x QQwing expert ({3 * qq_expert:.0f}/s)")
    for r in results:
        goal = targets.get(r["band"])
        met = "" if goal is None else ("yes" if r["rate"] >= goal[0] else "**no**")
        lines.append(f"| technique {r['band']} | {r['rate']:.1f} | {r['grids']:.2f} | {spread(r['clues'])} | "
                     f"{top(r['hardest'])} | {goal[1] if goal else '-'} | {met} |")
    for r in clue_results:
        lines.append(f"| clues {r['band']} | {r['rate']:.1f} | {r['grids']:.2f} | {spread(r['clues'])} | "
                     f"graded {top(r['other'], 4)} | - | |")
    for name, value in (("expert", qq_expert), ("simple", qq_simple)):
        lines.append(f"| QQwing {name} | {value:.1f} | | | | | |" if value else
                     f"| QQwing {name} | not installed | | | | | |")
    lines += [
        "",
        "| Counter | Median µs (min of 20 calls per board) | Target | Met |",
        "|---|---|---|---|",
        f"| count to 2, compiled call | {raw_us:.1f} | <= 50 | {'yes' if raw_us <= 50 else '**no**'} |",
        f"| count to 2, `count_solutions` | {front_us:.1f} | | |",
        "",
        f"{n} boards per band on consecutive seeds 0..{n - 1}; hard / QQwing expert = "
        + (f"{rate['hard'] / qq_expert:.1f}x." if qq_expert else "n/a (QQwing missing)"),
        f"QQwing: `qqwing --generate {qn} --difficulty expert --one-line` (simple: {max(10, qn // 8)} "
        "boards) timed as a child process on the same core.",
    ]
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
