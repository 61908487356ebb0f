"""Start-up of the command line: whole processes, timed as a user runs them.

    .venv/bin/python bench/bench_startup.py [--runs 10]

Times, over --runs runs each (the median and the quickest, wall and CPU seconds: user + system of the
child), the bare interpreter (`python -c pass`), `puzzlefleet --help`, `puzzlefleet jobs` and
`puzzlefleet generate --game queens --size 8 --count 1` (seeds 100, 101, ... on a migrated SQLite store
of its own, as a user's second run finds it), the commands taking turns so that a change in the
machine's load falls on all of them alike. Then one `python -X importtime` run of that `generate`: the
import time by top-level package (self times summed; importtime's own overhead inflates them, so read
them as shares). Prints Markdown and writes bench/results/startup.json (machine.write_result).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from machine import run_header, write_result  # noqa: E402

PYTHON = sys.executable
PUZZLEFLEET = str(Path(sys.executable).parent / "puzzlefleet")
GENERATE = ["generate", "--game", "queens", "--size", "8", "--count", "1"]
OWN = ("engine", "store", "workers", "puzzlefleet")    # our packages: shown by module, not as one


def timed(command: list[str], env: dict[str, str], cwd: str) -> tuple[float, float]:
    """(wall, CPU) seconds of one run; a failing command stops the bench with its stderr."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(command, env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"bench_startup: {' '.join(command)} exited {done.returncode}: {done.stderr.strip()[-400:]}")
    return wall, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def import_shares(env: dict[str, str], cwd: str) -> list[tuple[str, float]]:
    """Milliseconds of import by package (ours by module) in one `-X importtime` run of the generate."""
    done = subprocess.run([PYTHON, "-X", "importtime", PUZZLEFLEET, *GENERATE, "--seed", "99"], env=env, cwd=cwd,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, check=True)
    shares: Counter[str] = Counter()
    for line in done.stderr.splitlines():
        if not line.startswith("import time:") or "self [us]" in line:
            continue
        own_us, _, name = line.split(":", 1)[1].split("|")
        parts = name.strip().split(".")
        shares[".".join(parts[:3]) if parts[0] in OWN else parts[0]] += int(own_us)
    return [(name, us / 1000) for name, us in shares.most_common()]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args()
    print(run_header())
    load_at_start = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="puzzlefleet-startup-") as folder:
        env = {**os.environ, "PUZZLEFLEET_DB": f"sqlite:///{folder}/store.db"}
        env.pop("PUZZLEFLEET_GAMES", None)
        timed([PUZZLEFLEET, "list"], env, folder)                    # make and migrate the store
        timed([PUZZLEFLEET, *GENERATE, "--seed", "1"], env, folder)  # a job for `jobs` to list
        commands = {
            "`python -c pass` (the bare interpreter)": lambda run: [PYTHON, "-c", "pass"],
            "`puzzlefleet --help`": lambda run: [PUZZLEFLEET, "--help"],
            "`puzzlefleet jobs`": lambda run: [PUZZLEFLEET, "jobs"],
            "`puzzlefleet generate --game queens --size 8 --count 1`, migrated store":
                lambda run: [PUZZLEFLEET, *GENERATE, "--seed", str(100 + run)],
        }
        runs: dict[str, list[tuple[float, float]]] = {label: [] for label in commands}
        for run in range(args.runs):
            for label, command in commands.items():
                runs[label].append(timed(command(run), env, folder))
        shares = import_shares(env, folder)
    rows = []
    for label, times in runs.items():
        walls, cpus = [w for w, _ in times], [c for _, c in times]
        rows.append([label, f"{statistics.median(walls) * 1000:.0f} ms", f"{min(walls) * 1000:.0f} ms",
                     f"{statistics.median(cpus) * 1000:.0f} ms", f"{min(cpus) * 1000:.0f} ms"])
    total = sum(ms for _, ms in shares)
    top = [[name, f"{ms:.1f} ms", f"{100 * ms / total:.0f}%"] for name, ms in shares[:15]]
    tables = [
        {"title": f"Start-up, whole processes ({args.runs} runs each, taking turns)",
         "columns": ["command", "wall median", "wall quickest", "CPU median", "CPU quickest"], "rows": rows},
        {"title": f"Import time of that generate by package (one -X importtime run, {total:.0f} ms in all)",
         "columns": ["package", "import time (self)", "share"], "rows": top},
    ]
    for table in tables:
        print(f"\n{table['title']}\n")
        print("| " + " | ".join(table["columns"]) + " |")
        print("|---" + "|---:" * (len(table["columns"]) - 1) + "|")
        for row in table["rows"]:
            print("| " + " | ".join(row) + " |")
    print(f"\nload average {load_at_start:.1f} at the start, {os.getloadavg()[0]:.1f} at the end")
    path = write_result("startup", tables, load_at_start=load_at_start,
                        notes=["The goal: generate --count 1 at most 0.35 s on a quiet machine."])
    print(f"wrote {path.relative_to(Path(__file__).resolve().parents[1])}")


if __name__ == "__main__":
    main()
