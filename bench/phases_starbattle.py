"""Where a Star Battle board's time goes, seed by seed: planting, drawing, repair, the proving count,
grading and the gates.

    .venv/bin/python bench/phases_starbattle.py [--rules "starbattle 14 3"] [--band B] [--seeds 20] [--first 0]
                                               [--timeout 60] [--cpu N] [--profile SECONDS]

Each seed runs `generate(rules, seed, band=B, timeout=T)` as the slot loop does, with the generator's steps
wrapped in timers (the wrappers time the very functions the generator calls, so the board is the
same). One Markdown row per seed: total seconds (wall and CPU: on a loaded machine the CPU
seconds are the fairer measure), seconds per phase, drawings, repair rounds and the
rejections. With --profile S, a seed slower than S seconds is run again under cProfile and its top
functions (by own time) are printed under the table.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:          # the repo is not installed into the venv; run from anywhere
    sys.path.insert(0, str(ROOT))

from engine.errors import DeadlineExceeded  # noqa: E402
from engine.games.starbattle import Rules  # noqa: E402
from engine.games.starbattle import generator  # noqa: E402
from machine import cpu_model  # noqa: E402

# The generator's steps, by the names generator.py calls them.
PHASES = {"plant": "plant", "draw": "draw_regions", "search setup": "new_search", "repair": "repair",
          "prove": "count_solutions", "grade": "grade", "fun": "fun_score", "shape": "shape_score"}


def timed(spent: Counter, phase: str, function: Callable[..., Any]) -> Callable[..., Any]:
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            return function(*args, **kwargs)
        finally:
            spent[phase] += time.perf_counter() - started
    return wrapper


def run_seed(rules: Rules, seed: int, timeout: float, band: str | None = None) -> dict[str, Any]:
    spent: Counter = Counter()
    originals = {name: getattr(generator, name) for name in PHASES.values()}
    for phase, name in PHASES.items():
        setattr(generator, name, timed(spent, phase, originals[name]))
    started, cpu = time.perf_counter(), time.process_time()
    try:
        _board, stats = generator.generate(rules, seed, band=band, timeout=timeout)
        timed_out = False
    except DeadlineExceeded as exc:
        stats, timed_out = exc.args[1], True
    finally:
        for name, function in originals.items():
            setattr(generator, name, function)
    return {"seed": seed, "seconds": time.perf_counter() - started, "cpu": time.process_time() - cpu,
            "timeout": timed_out, "spent": spent,
            "drawings": stats.drawings, "answers": stats.answers, "rounds": stats.repair_rounds,
            "rejected": stats.rejected}


def profile_seed(rules: Rules, seed: int, timeout: float, band: str | None = None, top: int = 12) -> str:
    profiler = cProfile.Profile()
    profiler.enable()
    try:
        generator.generate(rules, seed, band=band, timeout=timeout)
    except DeadlineExceeded:
        pass
    profiler.disable()
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(top)
    lines = [line for line in out.getvalue().splitlines() if line.strip()]
    start = next(i for i, line in enumerate(lines) if line.lstrip().startswith("ncalls"))
    return "\n".join(lines[start:])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="starbattle 14 3")
    parser.add_argument("--band", help="the band asked for (default: none)")
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("--cpu", type=int, default=-1, help="pin to this CPU (default: not pinned)")
    parser.add_argument("--profile", type=float, default=0.0, help="cProfile seeds slower than this")
    args = parser.parse_args()
    if args.cpu >= 0:
        os.sched_setaffinity(0, {args.cpu})
    rules = Rules.parse(args.rules)
    generator.generate(Rules.parse("starbattle 8 1"), 0)        # warm-up
    print(f"`{' '.join(sys.argv)}`; {cpu_model()}, {os.cpu_count()} cores, load "
          f"{os.getloadavg()[0]:.2f} at start\n")
    names = list(PHASES)
    print("| seed | seconds | CPU seconds | " + " | ".join(names) + " | answers | drawings | repair rounds | rejected |")
    print("|---:|---:|---:|" + "---:|" * len(names) + "---:|---:|---:|---|")
    rows = []
    for seed in range(args.first, args.first + args.seeds):
        row = run_seed(rules, seed, args.timeout, args.band)
        rows.append(row)
        rejected = ", ".join(f"{reason} {n}" for reason, n in row["rejected"].most_common())
        total = f"**{row['seconds']:.2f} (timeout)**" if row["timeout"] else f"{row['seconds']:.2f}"
        print(f"| {seed} | {total} | {row['cpu']:.2f} | " + " | ".join(f"{row['spent'][p]:.2f}" for p in names)
              + f" | {row['answers']} | {row['drawings']} | {row['rounds']} | {rejected} |", flush=True)
    times = sorted(row["seconds"] for row in rows)
    p90 = times[max(0, -(-9 * len(times) // 10) - 1)]
    spent = sum((row["spent"] for row in rows), Counter())
    whole = sum(times)
    cpu = sorted(row["cpu"] for row in rows)
    print(f"\nCPU seconds: median {statistics.median(cpu):.2f}, p90 {cpu[max(0, -(-9 * len(cpu) // 10) - 1)]:.2f}, "
          f"worst {cpu[-1]:.2f}; wall (the machine's load stretches it):")
    print(f"median {statistics.median(times):.2f} s, p90 {p90:.2f} s, worst {times[-1]:.2f} s "
          f"(seed {max(rows, key=lambda r: r['seconds'])['seed']}), timeouts "
          f"{sum(row['timeout'] for row in rows)} of {len(rows)}")
    print("share of all time: " + ", ".join(f"{p} {spent[p] / whole:.0%}" for p in names))
    if args.profile:
        for row in rows:
            if row["seconds"] > args.profile:
                print(f"\ncProfile of seed {row['seed']} ({row['seconds']:.1f} s), top by own time:\n```")
                print(profile_seed(rules, row["seed"], args.timeout, args.band))
                print("```")


if __name__ == "__main__":
    main()
