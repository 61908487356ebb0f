"""How soon jobs hit by a broker restart finish, with the default settings, on Redis (with its
append-only file, and without: every queued task lost) and on RabbitMQ.

    .venv/bin/python bench/bench_broker_restart.py [--repeat 2] [--kinds redis-aof,redis-empty,rabbitmq]
                                                   [--outage 4]

The scenario of tests/workers/test_broker_restart.py: a broker of the script's own (a redis-server, or
a RabbitMQ node, on free ports), a SQLite store in a temporary folder, one worker with two pool
processes and beat, no PUZZLEFLEET_* setting; a job of 400 Star Battle 10x10 2-star boards; once 20
are stored the broker is SIGKILLed and started again --outage seconds later. Prints a Markdown table
(stdout): per run, the seconds from the broker's return until the job finished (exact), the slots
beat's sweep sent again, and how many tasks were dropped ("reject requeue=False" lines). Progress goes
to stderr. Needs redis-server and rabbitmq-server installed.
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
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--kinds", default="redis-aof,redis-empty,rabbitmq")
    ap.add_argument("--outage", type=float, default=4.0)
    args = ap.parse_args()
    sys.path.insert(0, str(ROOT))
    from machine import markdown_head, markdown_row, run_header, write_result
    from tests.workers.conftest import Fleet, OwnRabbit, OwnRedis, assert_exactly, flush
    from tests.workers.test_broker_restart import BOARDS, DEFAULTS, Broker, restart_mid_job

    load_at_start = os.getloadavg()[0]
    print(run_header())
    columns = ["broker", "run", "job finished after the broker's return (s)", "slots sent again", "tasks dropped"]
    rows: list[list[object]] = []
    print(markdown_head(columns))
    for kind in args.kinds.split(","):
        home = Path(tempfile.mkdtemp(prefix=f"bench-restart-{kind}-"))
        if kind.startswith("redis"):
            redis = OwnRedis(home)
            persist = kind == "redis-aof"
            server, broker = redis, Broker(redis.url, lambda: redis.procs[-1].kill(),
                                           lambda: redis.start(persist=persist))
        else:
            rabbit = OwnRabbit(home)
            server, broker = rabbit, Broker(rabbit.url, rabbit.kill, rabbit.start)
        try:
            broker.start()
            for run_no in range(1, args.repeat + 1):
                tmp = home / f"run-{run_no}"
                tmp.mkdir()
                flush(server.url)
                fleet = Fleet(tmp, f"sqlite:///{tmp / 'puzzles.db'}", server.url, **DEFAULTS)
                try:
                    print(f"{kind} run {run_no}: restarting the broker mid-job ...", file=sys.stderr, flush=True)
                    run = restart_mid_job(fleet, broker, outage=args.outage, within=300.0)
                    assert_exactly(fleet, run.job, BOARDS)
                    rows.append([kind, run_no, f"{run.finished_after:.0f}", run.resent,
                                 run.logs.count("requeue=False")])
                    print(markdown_row(rows[-1]), flush=True)
                finally:
                    fleet.stop()
                if server.procs and server.procs[-1].popen.poll() is not None:
                    broker.start()
        finally:
            server.stop()
            shutil.rmtree(home, ignore_errors=True)
    print(f"\nOutage {args.outage:g} s; {BOARDS} boards a job; load average {os.getloadavg()[0]:.1f} at the end.")
    write_result("broker_restart", [{"title": "broker restart", "columns": columns, "rows": rows}],
                 notes=[f"Outage {args.outage:g} s; {BOARDS} boards a job; load average {os.getloadavg()[0]:.1f} "
                        f"at the end."], load_at_start=load_at_start)
    return 0


if __name__ == "__main__":
    sys.exit(main())
