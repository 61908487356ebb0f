"""Pool processes SIGKILLed while /metrics is scraped without pause: does a worker ever hang?

    .venv/bin/python bench/bench_pool_kill_scrapes.py [--rounds 50] [--boards 30] [--scrapers 2]

The reproduction of a hang seen once on RabbitMQ and PostgreSQL: after a pool process was killed its
replacement took a task and did nothing until the soft limit, and the worker then ignored SIGTERM.
The guess was a fork of the worker's main process (a new pool process) while the /metrics thread held
a lock of the database driver. Here a RabbitMQ node and a PostgreSQL of the script's own, default
settings, one worker (two pool processes) with its metrics port, and `--scrapers` threads reading
/metrics back to back. Each round enqueues a job of `--boards` Star Battle 10x10 2-star boards, waits
for its first boards, SIGKILLs one pool process (so the main process forks its replacement while a
scrape may be under way) and waits up to 90 s for the job to end with exactly its boards. A round
that does not is a hang: the worker's stacks (py-spy) are printed and the script stops. At the end the
worker is sent SIGTERM and must exit within 30 s. Needs rabbitmq-server and PostgreSQL's initdb.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=50)
    ap.add_argument("--boards", type=int, default=30)
    ap.add_argument("--scrapers", type=int, default=2)
    args = ap.parse_args()
    sys.path.insert(0, str(ROOT))
    from machine import markdown_head, markdown_row, run_header, write_result
    from tests.workers.conftest import DEFAULT_SETTINGS, Fleet, OwnPostgres, OwnRabbit, _pg_bin, assert_exactly, free_port

    load_at_start = os.getloadavg()[0]
    print(run_header())
    home = Path(tempfile.mkdtemp(prefix="bench-pool-kill-"))
    bin_dir = _pg_bin()
    if bin_dir is None:
        print("bench_pool_kill_scrapes: PostgreSQL's initdb is not installed", file=sys.stderr)
        return 2
    rabbit, postgres = OwnRabbit(home), OwnPostgres(bin_dir)
    scrapes, scrape_errors, stop = [0], [0], threading.Event()
    hangs: list[int] = []
    kills = 0
    fleet: Fleet | None = None
    try:
        rabbit.start()
        postgres.start()
        fleet = Fleet(home, postgres.url, rabbit.url, **DEFAULT_SETTINGS)   # the defaults
        port = free_port()
        worker = fleet.worker("w1", concurrency=2, metrics_port=port, queues="starbattle,fleet")

        def scrape() -> None:
            while not stop.is_set():
                try:
                    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as reply:
                        reply.read()
                    scrapes[0] += 1
                except OSError:
                    scrape_errors[0] += 1
                    time.sleep(0.05)

        threads = [threading.Thread(target=scrape, daemon=True) for _ in range(args.scrapers)]
        for thread in threads:
            thread.start()
        rng = random.Random(1)
        for round_no in range(1, args.rounds + 1):
            job = fleet.enqueue("--game", "starbattle", "--size", "10", "--stars", "2",
                                "--count", str(args.boards), "--seed", str(round_no))["job"]
            fleet.wait_stored(job, 2, timeout=120)
            children = subprocess.run(["pgrep", "-P", str(worker.popen.pid)], capture_output=True,
                                      text=True).stdout.split()
            if children:
                os.kill(int(rng.choice(children)), 9)
                kills += 1
            try:
                assert_exactly(fleet, job, args.boards, alone=False)
            except AssertionError as exc:
                hangs.append(round_no)
                print(f"round {round_no}: the job did not end: {str(exc)[:2000]}\n{worker.stacks()}", flush=True)
                break
            print(f"round {round_no}: pool process killed, job {job} done; {scrapes[0]} scrapes so far",
                  file=sys.stderr, flush=True)
        stop.set()
        for thread in threads:
            thread.join(timeout=15)
        worker.popen.send_signal(15)                  # the main process alone, as an operator's kill
        started = time.monotonic()
        try:
            worker.popen.wait(timeout=30)
            term = f"exited {time.monotonic() - started:.1f} s after SIGTERM"
        except subprocess.TimeoutExpired:
            term = f"still running 30 s after SIGTERM\n{worker.stacks()}"
            hangs.append(-1)
    finally:
        stop.set()
        if fleet is not None:
            fleet.stop()
        rabbit.stop()
        postgres.remove()
        shutil.rmtree(home, ignore_errors=True)
    columns = ["rounds", "pool processes killed", "/metrics scrapes", "scrapes refused", "hangs", "the worker"]
    row = [round_no, kills, scrapes[0], scrape_errors[0], len(hangs), term.splitlines()[0]]
    print(markdown_head(columns))
    print(markdown_row(row))
    print(f"\nload average {os.getloadavg()[0]:.1f} at the end.")
    write_result("pool_kill_scrapes", [{"title": "pool processes killed under /metrics scrapes",
                                        "columns": columns, "rows": [row]}],
                 notes=[f"RabbitMQ and PostgreSQL of the script's own, default settings; {args.boards} Star "
                        f"Battle 10x10 2-star boards a round; {args.scrapers} scrapers; load average "
                        f"{os.getloadavg()[0]:.1f} at the end."], load_at_start=load_at_start)
    return 1 if hangs else 0


if __name__ == "__main__":
    sys.exit(main())
