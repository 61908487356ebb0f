"""How soon a SIGKILLed worker's tasks are taken again, on Redis and on RabbitMQ.

    .venv/bin/python bench/bench_worker_kill.py [--repeat 3] [--visibility SECONDS] [--brokers redis,rabbitmq]

The scenario of tests/workers/test_fleet_faults.py::test_a_killed_workers_tasks_go_to_a_waiting_worker:
a broker of the script's own (a redis-server, or a RabbitMQ node, on free ports), a SQLite store in a
temporary folder; worker w1 (two pool processes) takes a job's two tasks of 150 Queens 12x12 slots,
worker w2 (two pool processes) is ready and told to consume the queue too, then w1 is SIGKILLed.
Prints a Markdown table (stdout): per run, the seconds from the kill until w2 received each of the two
tasks again. With the default settings (a visibility timeout of 45 s on Redis, tasks of at most 30 s),
or PUZZLEFLEET_VISIBILITY_TIMEOUT=--visibility. Progress goes to stderr. Needs redis-server and
rabbitmq-server installed.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--visibility", type=float, default=None,
                    help="Redis visibility timeout (default: the fleet's default)")
    ap.add_argument("--brokers", default="redis,rabbitmq")
    args = ap.parse_args()
    sys.path.insert(0, str(ROOT))
    from machine import markdown_head, markdown_row, run_header, write_result
    from tests.workers.conftest import DEFAULT_SETTINGS, Fleet, OwnRabbit, OwnRedis, assert_exactly, flush
    from tests.workers.test_fleet_faults import kill_with_a_worker_waiting

    load_at_start = os.getloadavg()[0]
    print(run_header())
    columns = ["broker", "run", "seconds from the SIGKILL until each task was taken again"]
    rows: list[list[object]] = []
    print(markdown_head(columns))
    for kind in args.brokers.split(","):
        home = Path(tempfile.mkdtemp(prefix=f"bench-kill-{kind}-"))
        server = OwnRedis(home) if kind == "redis" else OwnRabbit(home)
        try:
            server.start()
            for run_no in range(1, args.repeat + 1):
                tmp = home / f"run-{run_no}"
                tmp.mkdir()
                flush(server.url)
                visibility = "" if args.visibility is None else f"{args.visibility:g}"     # empty: the default
                fleet = Fleet(tmp, f"sqlite:///{tmp / 'puzzles.db'}", server.url,
                              **{**DEFAULT_SETTINGS, "PUZZLEFLEET_VISIBILITY_TIMEOUT": visibility},
                              PUZZLEFLEET_SPLIT_SECONDS="600")
                try:
                    print(f"{kind} run {run_no}: killing a worker ...", file=sys.stderr, flush=True)
                    run = kill_with_a_worker_waiting(fleet, within=120.0)
                    assert_exactly(fleet, run.job, 300)
                    times = ", ".join(f"{run.taken_again[task]:.2f}" for task in run.held)
                    rows.append([kind, run_no, times])
                    print(markdown_row(rows[-1]), flush=True)
                finally:
                    fleet.stop()
        finally:
            server.stop()
            shutil.rmtree(home, ignore_errors=True)
    shown = "the default (45 s)" if args.visibility is None else f"{args.visibility:g} s"
    print(f"\nRedis visibility timeout {shown}; load average {os.getloadavg()[0]:.1f} at the end.")
    write_result("worker_kill", [{"title": "worker killed", "columns": columns, "rows": rows}],
                 notes=[f"Redis visibility timeout {shown}; every run ended with exactly the job's 300 boards; load average "
                        f"{os.getloadavg()[0]:.1f} at the end."], load_at_start=load_at_start)
    return 0


if __name__ == "__main__":
    sys.exit(main())
