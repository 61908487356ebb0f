"""How long `generate` takes to stop after Ctrl-C: the README and docs/cli.md promise two seconds.

    .venv/bin/python bench/bench_interrupt.py [--rounds 5]

Each round starts `puzzlefleet generate --game starbattle --size 12 --stars 2 --count 500` (the
console script next to this interpreter) on a fresh SQLite store, waits for its first stored board,
sends SIGINT to its process group (once, or twice for the "second Ctrl-C stops at once" case) and
times the gap from the first signal to the exit of the whole group. It prints a Markdown table for
BENCHMARKS.md: per case, the median and the worst of the rounds, and whether the worst is within 2 s.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from machine import cpu_model

EXE = Path(sys.executable).with_name("puzzlefleet")
CASES = (("--jobs 2, one Ctrl-C", "2", 1), ("--jobs 1, one Ctrl-C", "1", 1), ("--jobs 2, two Ctrl-C", "2", 2))


def _stored(db_file: Path) -> int:
    try:
        with sqlite3.connect(db_file) as conn:
            return conn.execute("SELECT count(*) FROM puzzle").fetchone()[0]
    except sqlite3.OperationalError:        # the tables are not there yet
        return 0


def one_round(jobs: str, signals: int) -> float:
    with tempfile.TemporaryDirectory() as tmp:
        db_file = Path(tmp) / "p.db"
        env = {**os.environ, "PUZZLEFLEET_DB": f"sqlite:///{db_file}"}
        proc = subprocess.Popen([str(EXE), "generate", "--game", "starbattle", "--size", "12", "--stars", "2",
                                 "--count", "500", "--seed", "5", "--jobs", jobs], env=env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        try:
            deadline = time.monotonic() + 120
            while not (db_file.exists() and _stored(db_file)):
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise SystemExit("generate stored nothing in 120 s")
                time.sleep(0.1)
            started = time.monotonic()
            for _ in range(signals):
                os.killpg(proc.pid, signal.SIGINT)
                time.sleep(0.05)
            proc.wait(timeout=60)
            while True:                     # the whole group, pool processes included
                try:
                    os.killpg(proc.pid, 0)
                except ProcessLookupError:
                    break
                time.sleep(0.01)
            return time.monotonic() - started
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    print(f"`.venv/bin/python bench/bench_interrupt.py --rounds {args.rounds}` on {cpu_model()}, "
          f"{os.cpu_count()} cores, {dt.datetime.now(dt.timezone.utc):%Y-%m-%d %H:%M} UTC, "
          f"load {os.getloadavg()[0]:.2f}\n")
    print("| case | median s | worst s | within 2 s |\n|---|---|---|---|")
    for name, jobs, signals in CASES:
        took = [one_round(jobs, signals) for _ in range(args.rounds)]
        print(f"| {name} | {statistics.median(took):.2f} | {max(took):.2f} | {'yes' if max(took) <= 2 else 'no'} |",
              flush=True)


if __name__ == "__main__":
    main()
