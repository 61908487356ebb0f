"""Grading and exact-band generation for the Star Battle family (grading like a person).

    .venv/bin/python bench/bench_grade.py [--quick] [--cpu N]

Prints Markdown: (1) grading time per board (best of 3, median and p90) on generated boards;
(2) seconds per stored board when a band is asked for, with rejections by reason; (3) the band mix
of `generate` without --band (after the fun and shape gates) and, per band, the share of unique
graded boards that the fun and shape gates accept.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import DeadlineExceeded  # noqa: E402
from engine.games.starbattle import Rules  # noqa: E402
from engine.games.starbattle.gates import gates_for  # noqa: E402
from engine.games.starbattle.generator import Settings, generate  # noqa: E402
from engine.games.starbattle.grade import BANDS, grade  # noqa: E402
from machine import cpu_model, write_result  # noqa: E402




def grading(rules: Rules, boards: int) -> tuple[float, float]:
    times = []
    for seed in range(boards):
        board, _ = generate(rules, 10_000 + seed)
        best = min(_timed(grade, board) for _ in range(3))
        times.append(best)
    times.sort()
    return statistics.median(times), times[int(0.9 * (len(times) - 1))]


def _timed(fn, *args) -> float:
    started = time.perf_counter()
    fn(*args)
    return time.perf_counter() - started


def banded(rules: Rules, band: str, boards: int, timeout: float) -> tuple[float, int, Counter]:
    times, failures, rejected = [], 0, Counter()
    for seed in range(boards):
        started = time.perf_counter()
        try:
            _, stats = generate(rules, 20_000 + seed, band=band, timeout=timeout)
            times.append(time.perf_counter() - started)
        except DeadlineExceeded as exc:
            failures += 1
            stats = exc.args[1]
        rejected.update(stats.rejected)
    return (statistics.median(times) if times else float("nan")), failures, rejected


def mix(rules: Rules, boards: int) -> tuple[Counter, Counter, Counter]:
    """Band of stored boards without --band; and, ungated, per band: unique graded vs gated-in."""
    stored = Counter(generate(rules, 30_000 + s)[0].extra["difficulty"]["band"] for s in range(boards))
    ungated, passed = Counter(), Counter()
    open_gates = Settings(min_fun=0, min_shape=0)
    for seed in range(boards):
        board, _ = generate(rules, 40_000 + seed, settings=open_gates)
        band = board.extra["difficulty"]["band"]
        ungated[band] += 1
        gates = gates_for(rules)
        if (board.extra["fun"]["score"] >= gates.min_fun
                and board.extra["shape"]["score"] >= gates.min_shape):
            passed[band] += 1
    return stored, ungated, passed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--cpu", type=int, default=0, help="pin to this core (-1: no pinning)")
    args = parser.parse_args()
    if args.cpu >= 0:
        os.sched_setaffinity(0, {args.cpu})
    scale = 4 if args.quick else 1
    started, load_at_start = time.perf_counter(), os.getloadavg()[0]
    speed, bands, mixes = [], [], []        # the printed rows again, for bench/results/grade.json
    print("```sh\n.venv/bin/python bench/bench_grade.py" + (" --quick" if args.quick else "") + "\n```\n")
    print(f"Machine: {cpu_model()}, {os.cpu_count()} cores (pinned to CPU {args.cpu}), Python "
          f"{platform.python_version()}, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, load "
          f"{os.getloadavg()[0]:.2f} at start.\n")

    print("| grading | boards | median | p90 | target |\n|---|---:|---:|---:|---|")
    for spec, target, boards in (("queens 9", "≤ 5 ms", 60), ("queens 9 diagonals", "—", 60),
                                 ("starbattle 10 2", "≤ 20 ms", 60), ("starbattle 14 3", "≤ 500 ms", 12)):
        count = max(3, boards // scale)
        median, p90 = grading(Rules.parse(spec), count)
        speed.append([spec, count, f"{median * 1000:.2f} ms", f"{p90 * 1000:.1f} ms", target])
        print("| " + " | ".join(map(str, speed[-1])) + " |")

    print("\n| exact band | boards | median s / board | timeouts | rejected drawings | target |\n"
          "|---|---:|---:|---:|---|---|")
    for spec, band, target in (("queens 9", "easy", ""), ("queens 9", "medium", ""),
                               ("queens 9", "hard", "≤ 0.5 s"), ("starbattle 10 2", "easy", ""),
                               ("starbattle 10 2", "hard", ""), ("starbattle 10 2", "expert", "≤ 2 s")):
        count = max(2, 8 // scale)
        median, failures, rejected = banded(Rules.parse(spec), band, count, 120.0)
        reasons = ", ".join(f"{r} {n}" for r, n in rejected.most_common()) or "none"
        bands.append([f"{spec} {band}", count, f"{median:.3f}", failures, reasons, target])
        print("| " + " | ".join(map(str, bands[-1])) + " |")

    print("\n| band mix without --band | stored boards by band | unique graded boards by band (no gates) "
          "| share passing the fun and shape gates, per band |\n|---|---|---|---|")
    for spec in ("queens 9", "starbattle 10 2"):
        stored, ungated, passed = mix(Rules.parse(spec), 100 // scale)
        shares = ", ".join(f"{b} {passed[b]}/{ungated[b]}" for b in BANDS if ungated[b])
        mixes.append([spec, ", ".join(f"{b} {stored[b]}" for b in BANDS if stored[b]),
                      ", ".join(f"{b} {ungated[b]}" for b in BANDS if ungated[b]), shares])
        print("| " + " | ".join(mixes[-1]) + " |")
    total = time.perf_counter() - started
    print(f"\nTotal run time {total:.0f} s.")
    write_result("grade", [
        {"title": "grading", "columns": ["grading", "boards", "median", "p90", "target"], "rows": speed},
        {"title": "exact band", "columns": ["exact band", "boards", "median s / board", "timeouts",
                                            "rejected drawings", "target"], "rows": bands},
        {"title": "band mix", "columns": ["band mix without --band", "stored boards by band",
                                          "unique graded boards by band (no gates)",
                                          "share passing the fun and shape gates, per band"], "rows": mixes},
    ], notes=[("Not pinned" if args.cpu < 0 else f"Pinned to CPU {args.cpu}") + f"; total run time {total:.0f} s."], load_at_start=load_at_start)


if __name__ == "__main__":
    main()
