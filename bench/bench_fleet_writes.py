"""The store's write rate from the fleet with 1, 2, 4 and 8 worker processes on one job, on PostgreSQL,
and how long its writes wait on locks.

    .venv/bin/python bench/bench_fleet_writes.py [--processes 1 2 4 8] [--boards 4000] [--repeat 2]

One job of cheap boards (Tango 6x6: the store, not the engine, is what such a job waits on) goes to a
Celery worker (`celery -A workers worker --pool prefork -c N`, the tango queue) on a new PostgreSQL
database of its own at 127.0.0.1:5432, Redis database 6 (flushed) as the broker. The rate is the job's
boards over the time from its first recorded attempt to its last (the store's own timestamps: the
worker's start-up and the enqueue are not counted). Meanwhile pg_stat_activity is sampled every 10 ms:
the lock-wait share is the samples of the bench database's backends waiting on a lock (wait_event_type
Lock) over the samples of them inside a transaction (active or idle in transaction): the share of a
write's time spent waiting for another's lock. The server's CPU a board is what the postgres processes
spent during the run (from /proc) over the boards stored, and the WAL a board the write-ahead log the
server wrote meanwhile (pg_current_wal_lsn) over the same.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
sys.path.insert(0, str(ROOT))


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def sample_locks(admin_url: str, database: str, stop: threading.Event, counts: dict[str, int]) -> None:
    import psycopg
    with psycopg.connect(admin_url, autocommit=True) as conn:
        while not stop.is_set():
            for state, wait in conn.execute(
                    "SELECT state, wait_event_type FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()",
                    (database,)).fetchall():
                if state in ("active", "idle in transaction"):
                    counts["in_transaction"] += 1
                    counts["lock"] += wait == "Lock"
            time.sleep(0.01)


def cpu_of(command: str) -> float:
    """CPU seconds (user + system) spent so far by the live processes of this command name and their
    reaped children (so a PostgreSQL backend that exits is still counted, in the postmaster's share)."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as fh:
                fields = fh.read().rsplit(")", 1)
            name = fields[0].split("(", 1)[1]
            rest = fields[1].split()
        except (OSError, IndexError):
            continue
        if name == command:
            total += (int(rest[11]) + int(rest[12]) + int(rest[13]) + int(rest[14])) / ticks
    return total


def run_once(processes: int, boards: int, args: argparse.Namespace, tmp: Path) -> dict[str, float]:
    import psycopg
    database = f"bench_writes_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(args.pg_admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{database}"')
    url = args.pg_admin.rsplit("/", 1)[0] + f"/{database}"
    env = {**os.environ, "PUZZLEFLEET_DB": url, "PUZZLEFLEET_BROKER": args.broker}
    import redis
    redis.Redis.from_url(args.broker).flushdb()
    logfile = tmp / f"worker-{processes}.log"
    worker = subprocess.Popen([str(BIN / "celery"), "-A", "workers", "worker", "--pool", "prefork",
                               "-c", str(processes), "-n", f"w{processes}@bench", "-Q", "tango,fleet", "-l", "info",
                               "--without-mingle", "--without-gossip"], cwd=tmp, env=env,
                              stdout=open(logfile, "wb"), stderr=subprocess.STDOUT, start_new_session=True)
    stop = threading.Event()
    counts = {"in_transaction": 0, "lock": 0}
    sampler = threading.Thread(target=sample_locks, args=(args.pg_admin, database, stop, counts), daemon=True)
    try:
        deadline = time.monotonic() + 90
        while " ready." not in logfile.read_text(errors="replace"):
            if worker.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"the worker did not start:\n{logfile.read_text()}")
            time.sleep(0.1)
        sampler.start()
        server_cpu = cpu_of("postgres")
        with psycopg.connect(args.pg_admin, autocommit=True) as conn:
            wal_start = conn.execute("SELECT pg_current_wal_lsn()").fetchone()[0]
        out = subprocess.run([str(BIN / "puzzlefleet"), "enqueue", "--game", "tango", "--size", "6", "--count",
                              str(boards), "--seed", "11", "--wait", "--json"], env=env, cwd=tmp,
                             capture_output=True, text=True, timeout=900)
        if out.returncode != 0:
            raise SystemExit(f"enqueue failed ({out.returncode}): {out.stderr.strip()}")
        stop.set()
        sampler.join()
        server_cpu = cpu_of("postgres") - server_cpu
        with psycopg.connect(args.pg_admin, autocommit=True) as conn:
            wal = conn.execute("SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), %s)", (wal_start,)).fetchone()[0]
        with psycopg.connect(url, autocommit=True) as conn:
            first, last, stored = conn.execute(
                "SELECT min(s.updated_at), max(s.updated_at), count(*) FILTER (WHERE s.state = 'stored') "
                "FROM job_slot s").fetchone()
            try:
                tallies = conn.execute("SELECT count(*) FROM job_tally").fetchone()[0]
            except psycopg.errors.UndefinedTable:         # a checkout from before tallies (PYTHONPATH)
                tallies = 0
        seconds = (last - first).total_seconds()
        return {"boards_per_second": stored / seconds, "seconds": seconds, "stored": stored,
                "server_ms_per_board": 1000 * server_cpu / stored, "wal_kb_per_board": float(wal) / 1024 / stored,
                "lock_share": counts["lock"] / max(1, counts["in_transaction"]),
                "samples": counts["in_transaction"], "tallies": tallies}
    finally:
        stop.set()
        try:
            os.killpg(worker.pid, signal.SIGTERM)
            worker.wait(timeout=30)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            os.killpg(worker.pid, signal.SIGKILL)
            worker.wait()
        with psycopg.connect(args.pg_admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--processes", type=int, nargs="+", default=[1, 2, 4, 8])
    ap.add_argument("--boards", type=int, default=4000)
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--broker", default="redis://127.0.0.1:6379/6")
    ap.add_argument("--pg-admin", default="postgresql://postgres@127.0.0.1:5432/postgres")
    ap.add_argument("--name", default="fleet_writes", help="the result file's name (another, for a run of "
                                                            "another checkout put first on PYTHONPATH)")
    args = ap.parse_args()
    load_at_start = os.getloadavg()[0]
    tmp = Path(tempfile.mkdtemp(prefix="bench-writes-"))
    results: dict[int, list[dict[str, float]]] = {}
    try:
        for _ in range(args.repeat):
            for n in args.processes:
                log(f"{n} process(es): {args.boards} Tango 6x6")
                result = run_once(n, args.boards, args, tmp)
                log(f"  {result['boards_per_second']:.0f} boards/s, lock share {result['lock_share']:.1%}")
                results.setdefault(n, []).append(result)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    one = statistics.median(r["boards_per_second"] for r in results[args.processes[0]])
    rows = []
    for n in args.processes:
        rates = [r["boards_per_second"] for r in results[n]]
        shares = [r["lock_share"] for r in results[n]]
        rate = statistics.median(rates)
        rows.append([str(n), f"{rate:,.0f}", " / ".join(f"{x:,.0f}" for x in rates), f"{rate / one:.2f}×",
                     f"{max(shares):.1%}",
                     f"{statistics.median(r['server_ms_per_board'] for r in results[n]):.2f} ms",
                     f"{statistics.median(r['wal_kb_per_board'] for r in results[n]):.1f} kB",
                     str(results[n][0]["tallies"]),
                     f"{sum(r['samples'] for r in results[n]):,}"])
    print("| processes | boards/s (median) | runs | vs 1 | lock-wait share (worst run) | server CPU a board | WAL a board "
          "| tally rows | samples |")
    print("|---|---|---|---|---|---|---|---|---|")
    for row in rows:
        print("| " + " | ".join(row) + " |")
    from machine import write_result
    checkout = os.environ.get("PYTHONPATH", "").split(os.pathsep)[0]
    from machine import current_commit
    code = f" (the code of {current_commit(Path(checkout))})" if checkout else ""
    write_result(args.name, [{"title": f"one job of {args.boards:,} Tango 6x6 boards on PostgreSQL{code}",
                                   "columns": ["worker processes", "boards/s (median)", "runs", "vs 1",
                                               "lock-wait share (worst run)", "PostgreSQL CPU a board", "WAL a board",
                                               "tally rows", "samples in a transaction"],
                                   "rows": rows}], load_at_start=load_at_start)
    return 0


if __name__ == "__main__":
    sys.exit(main())
