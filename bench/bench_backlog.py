"""Slots sent again under a steady backlog with no fault, with the default settings, on Redis and
RabbitMQ: a backlog is not a stall, so the answer should be zero.

    .venv/bin/python bench/bench_backlog.py [--repeat 1] [--brokers redis,rabbitmq] [--jobs 16]
                                            [--boards 120] [--size 12]

The scenario of tests/workers/test_recovery_defaults.py::test_a_backlog_is_not_a_stall at full size and
with no PUZZLEFLEET_* setting (beat's sweep every 10 s, a job looked at after 20 s without progress): a
broker of the script's own, a SQLite store in a temporary folder, one worker with one pool process and
beat; --jobs jobs of --boards Queens boards sent at once, so that most wait behind the others far
longer than the stall time. Prints a Markdown table (stdout): per run, the longest any job waited for
its first board, the sweeps that ran, and the slots they sent again. Progress goes to stderr.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--brokers", default="redis,rabbitmq")
    ap.add_argument("--jobs", type=int, default=16)
    ap.add_argument("--boards", type=int, default=120)
    ap.add_argument("--size", type=int, default=12)
    args = ap.parse_args()
    sys.path.insert(0, str(ROOT))
    from machine import markdown_head, markdown_row, run_header, write_result
    from tests.workers.conftest import Fleet, OwnRabbit, OwnRedis, flush
    from tests.workers.test_recovery_defaults import DEFAULTS, backlog_without_faults

    load_at_start = os.getloadavg()[0]
    print(run_header())
    columns = ["broker", "run", "jobs x boards", "all done after (s)", "longest wait for a first board (s)", "sweeps",
               "slots sent again"]
    rows: list[list[object]] = []
    print(markdown_head(columns))
    for kind in args.brokers.split(","):
        home = Path(tempfile.mkdtemp(prefix=f"bench-backlog-{kind}-"))
        server = OwnRedis(home) if kind == "redis" else OwnRabbit(home)
        try:
            server.start()
            for run_no in range(1, args.repeat + 1):
                tmp = home / f"run-{run_no}"
                tmp.mkdir()
                flush(server.url)
                fleet = Fleet(tmp, f"sqlite:///{tmp / 'puzzles.db'}", server.url, **DEFAULTS)
                try:
                    print(f"{kind} run {run_no}: a backlog ...", file=sys.stderr, flush=True)
                    started = time.monotonic()
                    run = backlog_without_faults(fleet, jobs=args.jobs, boards=args.boards, size=args.size,
                                                 within=1800.0)
                    rows.append([kind, run_no, f"{args.jobs} x {args.boards}", f"{time.monotonic() - started:.0f}",
                                 f"{run.longest_wait:.0f}", run.sweeps, run.resent])
                    print(markdown_row(rows[-1]), flush=True)
                finally:
                    fleet.stop()
        finally:
            server.stop()
            shutil.rmtree(home, ignore_errors=True)
    print(f"\nQueens {args.size}x{args.size}; load average {os.getloadavg()[0]:.1f} at the end.")
    write_result("backlog", [{"title": "backlog", "columns": columns, "rows": rows}],
                 notes=[f"Queens {args.size}x{args.size}; load average {os.getloadavg()[0]:.1f} at the end."],
                 load_at_start=load_at_start)
    return 0


if __name__ == "__main__":
    sys.exit(main())
