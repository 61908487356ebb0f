"""Whole `generate` commands of two checkouts, side by side: seconds per stored board as a user times them.

    .venv/bin/python bench/bench_whole_generate.py --before ../before [--rules "queens 8:200" ...]
        [--rounds 2] [--cpu 0] [--jobs 1 | --jobs 0 --cpu -1] [--write]

Each checkout runs its own installed command (`CHECKOUT/.venv/bin/puzzlefleet generate --game G --size N
[--stars K] --count C --seed 1`, one process, a fresh SQLite store in a temporary folder), alternating
this checkout and `--before` for `--rounds` rounds so that both see the same load. `--jobs N` passes
`--jobs N` to both (with `--cpu -1`, so that the processes have the machine's cores); `--jobs 0` passes
no `--jobs`: each checkout's own default, the command as a user types it. Prints Markdown: wall
seconds of the whole command per stored board, the best and the worst round of each, and beside it the
command's CPU seconds (user + system, the best round): on a machine shared with other work the wall
time stretches with the load, the CPU time much less.
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from machine import cpu_model, current_commit, markdown_head, markdown_row, write_result  # noqa: E402

DEFAULT_RULES = ["queens 8:200", "starbattle 10 2:40", "starbattle 14 3:10"]


def command(checkout: Path, rules: str, count: int, jobs: int = 1) -> list[str]:
    """The command of "GAME SIZE [STARS] [band=BAND]" rules: "sudoku 9 band=hard"."""
    words = [word for word in rules.split() if not word.startswith("band=")]
    band = ["--band", rules.split("band=")[1].split()[0]] if "band=" in rules else []
    game, size = words[0], words[1]
    stars = ["--stars", words[2]] if len(words) > 2 else []
    return [str(checkout / ".venv" / "bin" / "puzzlefleet"), "generate", "--game", game, "--size", size, *stars,
            *band, "--count", str(count), "--seed", "1", *(["--jobs", str(jobs)] if jobs else [])]


def cpu_of_children() -> float:
    """User + system seconds of the child processes waited for so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(checkout: Path, rules: str, count: int, cpu: int, jobs: int) -> tuple[float, float]:
    """Wall and CPU seconds of one command."""
    with tempfile.TemporaryDirectory() as folder:
        env = dict(os.environ, PUZZLEFLEET_DB=f"sqlite:///{folder}/boards.db")
        pin = ["taskset", "-c", str(cpu)] if cpu >= 0 else []
        started, cpu_before = time.perf_counter(), cpu_of_children()
        done = subprocess.run(pin + command(checkout, rules, count, jobs), env=env, cwd=folder,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        elapsed, cpu_seconds = time.perf_counter() - started, cpu_of_children() - cpu_before
    if done.returncode != 0:
        raise SystemExit(f"{checkout}: generate {rules} failed: {done.stderr.strip().splitlines()[-1]}")
    return elapsed, cpu_seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, required=True, help="the other checkout (built: make build)")
    parser.add_argument("--rules", nargs="*", default=DEFAULT_RULES, help='"RULES:COUNT" ("sudoku 9 band=hard:200")')
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--cpu", type=int, default=0, help="pin each command to this core (-1: no pinning)")
    parser.add_argument("--jobs", type=int, default=1, help="generate's --jobs, on both sides (0: none given)")
    parser.add_argument("--write", action="store_true", help="also write bench/results/whole_generate.json")
    args = parser.parse_args()
    load = os.getloadavg()[0]
    sides = {"this checkout": ROOT, "before": args.before.resolve()}
    pinned = f"commands pinned to CPU {args.cpu}" if args.cpu >= 0 else "commands not pinned"
    jobs = f"--jobs {args.jobs}" if args.jobs else "no --jobs (each checkout's default)"
    print(f"Machine: {cpu_model()}, {os.cpu_count()} cores ({pinned}), {jobs}, "
          f"Python "
          f"{platform.python_version()}, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}.\n")
    print(f"Load average {load:.1f} at the start.\n")
    columns = (["rules", "boards"] + [f"{side}: per board (best, worst of {args.rounds})" for side in sides]
               + ["ratio (best)"] + [f"{side}: CPU per board" for side in sides] + ["CPU ratio"])
    print(markdown_head(columns))
    rows = []
    for item in args.rules:
        rules, count = item.rsplit(":", 1)
        walls: dict[str, list[float]] = {side: [] for side in sides}
        cpus: dict[str, list[float]] = {side: [] for side in sides}
        for _ in range(args.rounds):
            for side, checkout in sides.items():
                wall, cpu_seconds = timed(checkout, rules, int(count), args.cpu, args.jobs)
                walls[side].append(wall / int(count) * 1000)
                cpus[side].append(cpu_seconds / int(count) * 1000)
        now, before = min(walls["this checkout"]), min(walls["before"])
        now_cpu, before_cpu = min(cpus["this checkout"]), min(cpus["before"])
        # two decimals: the 8x8 goal (5 ms) sits where one decimal cannot tell met from missed
        rows.append([rules, int(count), f"{now:.2f}, {max(walls['this checkout']):.2f} ms",
                     f"{before:.2f}, {max(walls['before']):.2f} ms", f"{now / before:.2f}", f"{now_cpu:.2f} ms",
                     f"{before_cpu:.2f} ms", f"{now_cpu / before_cpu:.2f}"])
        print(markdown_row(rows[-1]), flush=True)
    if args.write:
        write_result("whole_generate", [{"title": "Whole generate commands, per stored board", "columns": columns,
                                         "rows": rows}],
                     notes=[f"before: commit {current_commit(sides['before'])}; {pinned}; {jobs}; {args.rounds} alternating rounds"],
                     load_at_start=load)

if __name__ == "__main__":
    main()
