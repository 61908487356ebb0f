"""Benchmark of the Celery fleet against the embedded run, and of the fleet verbs under load.

    .venv/bin/python bench/bench_fleet.py [--boards 200] [--size 9] [--big 10000] [--db sqlite|postgresql]

Needs the Redis at 127.0.0.1:6379 (database 6 by default, flushed) and, for --db postgresql, the
PostgreSQL at 127.0.0.1:5432 (a schema of its own, dropped afterwards). It measures

  a. the same work (N Queens boards, one seed) done by two workers (`celery -A workers worker`,
     one pool process each) and by the embedded run with two processes (`generate --jobs 2`):
     seconds from the job's creation to its last board (the store's own timestamps), against
     embedded.run's own seconds; the fleet's rate as a share of the embedded rate;
  b. enqueue of a --big job: the in-process send (fleet.enqueue) and the whole `puzzlefleet enqueue`
     command (interpreter start included);
  c. `jobs` while that job runs: the repository's look-up (get_job on an open SQLAlchemy engine),
     fleet.job() (store.progress: connect with the DB-API driver, read one row), and the whole
     `puzzlefleet jobs ID --json` command.

Prints a Markdown table (stdout); progress goes to stderr.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--boards", type=int, default=200)
    ap.add_argument("--size", type=int, default=9)
    ap.add_argument("--big", type=int, default=10_000)
    ap.add_argument("--db", choices=("sqlite", "postgresql"), default="sqlite")
    ap.add_argument("--broker", default="redis://127.0.0.1:6379/6")
    ap.add_argument("--pg", default="postgresql://postgres@127.0.0.1:5432/test")
    ap.add_argument("--polls", type=int, default=20, help="jobs look-ups while the big job runs")
    args = ap.parse_args()
    load_at_start = os.getloadavg()[0]

    tmp = Path(tempfile.mkdtemp(prefix="bench-fleet-"))
    schemas: list[str] = []
    if args.db == "sqlite":
        db_url, embedded_url = f"sqlite:///{tmp / 'fleet.db'}", f"sqlite:///{tmp / 'embedded.db'}"
    else:
        # Two schemas: the embedded run must not find the fleet's boards already stored.
        schemas = [f"bench_fleet_{uuid.uuid4().hex[:10]}", f"bench_embedded_{uuid.uuid4().hex[:10]}"]
        db_url, embedded_url = (f"{args.pg}?options=-csearch_path%3D{name}" for name in schemas)
    # The fleet's settings are read from the environment when workers/ is first imported.
    os.environ.update(PUZZLEFLEET_DB=db_url, PUZZLEFLEET_BROKER=args.broker)
    sys.path.insert(0, str(ROOT))
    import redis

    import store
    from jobs.params import JobParams
    from puzzlefleet import embedded, fleet

    client = redis.Redis.from_url(args.broker)
    client.flushdb()
    admin = None
    if schemas:
        admin = store.make_engine(args.pg)
        with admin.begin() as conn:
            for name in schemas:
                conn.exec_driver_sql(f'CREATE SCHEMA "{name}"')
    procs: list[subprocess.Popen] = []
    rows: list[tuple[str, str, str]] = []
    try:
        engine = store.make_engine(db_url)
        store.init_db(engine)

        def start_worker(name: str) -> None:
            out = open(tmp / f"{name}.log", "wb")
            proc = subprocess.Popen([str(BIN / "celery"), "-A", "workers", "worker", "--pool", "prefork", "-c", "1",
                                     "-n", f"{name}@bench", "-Q", "queens,fleet", "-l", "info",
                                     "--without-mingle", "--without-gossip"], cwd=tmp, stdout=out,
                                    stderr=subprocess.STDOUT, start_new_session=True)
            procs.append(proc)
            deadline = time.monotonic() + 60
            while " ready." not in (tmp / f"{name}.log").read_text(errors="replace"):
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise SystemExit(f"worker {name} did not start:\n{(tmp / f'{name}.log').read_text()}")
                time.sleep(0.1)

        def status(job_id: int) -> dict:
            with store.session(engine, read_only=True) as s:
                return store.get_job(session=s, job_id=job_id)

        # a. the same work: fleet (two workers) vs embedded (two processes)
        log("starting two workers")
        start_worker("b1")
        start_worker("b2")
        seed = 20241130
        log(f"fleet: {args.boards} x queens {args.size}")
        sent = fleet.enqueue(game="queens", size=args.size, count=args.boards, seed=seed)
        while status(sent["job"])["state"] not in store.FINAL_STATES:
            time.sleep(0.25)       # seldom: a poller would take CPU from the workers it measures
        done = status(sent["job"])
        # From the job's creation (before its tasks are sent) to its last board's commit.
        fleet_seconds = done["elapsed"]
        log(f"embedded: {args.boards} x queens {args.size}, --jobs 2")
        params = JobParams.build(game="queens", size=args.size, timeout=300.0)
        summary = embedded.run(params, count=args.boards, seed=seed, jobs=2, db_url=embedded_url)
        share = summary.seconds / fleet_seconds
        rows += [
            (f"fleet, 2 workers x 1 process: {args.boards} x queens {args.size}",
             f"{fleet_seconds:.2f} s ({done['stored'] / fleet_seconds:.0f} boards/s)",
             f"stored {done['stored']}, attempts {done['attempts']}, engine {done['seconds']:.2f} s"),
            ("embedded `generate --jobs 2`: same work, same seed",
             f"{summary.seconds:.2f} s ({summary.accepted / summary.seconds:.0f} boards/s)",
             f"stored {summary.accepted}, engine {summary.engine_seconds:.2f} s"),
            ("fleet boards/s as a share of embedded", f"{share:.0%}", "target >= 90%"),
        ]

        # b. enqueue of a big job, and c. `jobs` while it runs
        log(f"enqueue of {args.big} slots (in process)")
        started = time.perf_counter()
        big = fleet.enqueue(game="queens", size=args.size, count=args.big, seed=seed + 1)
        send_seconds = time.perf_counter() - started
        rows.append((f"enqueue {args.big:,} slots: fleet.enqueue (record + send)", f"{send_seconds:.2f} s",
                     "target <= 10 s"))
        lookups, calls, commands = [], [], []
        for _ in range(args.polls):
            t0 = time.perf_counter()
            status(big["job"])
            lookups.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            fleet.job(big["job"])
            calls.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            subprocess.run([str(BIN / "puzzlefleet"), "jobs", str(big["job"]), "--json"], check=True,
                           capture_output=True, cwd=tmp)
            commands.append(time.perf_counter() - t0)
        running = status(big["job"])
        log(f"big job: {running['stored']} stored while measuring")
        client.delete("queens", "fleet")  # leave the rest of the big job undone
        log(f"`puzzlefleet enqueue --count {args.big}` as a command")
        t0 = time.perf_counter()
        subprocess.run([str(BIN / "puzzlefleet"), "enqueue", "--game", "queens", "--size", str(args.size),
                        "--count", str(args.big), "--json"], check=True, capture_output=True, cwd=tmp)
        command_seconds = time.perf_counter() - t0
        client.delete("queens", "fleet")

        def spread(values: list[float]) -> str:
            values = sorted(values)
            return (f"median {statistics.median(values) * 1000:.1f} ms, "
                    f"max {values[-1] * 1000:.1f} ms")
        rows += [
            (f"`puzzlefleet enqueue --count {args.big:,}` (whole command)", f"{command_seconds:.2f} s",
             "target <= 10 s"),
            (f"`jobs` while {args.big:,} run: get_job on an open engine", spread(lookups),
             f"{args.polls} calls"),
            ("`jobs`: fleet.job() (connect, read one row)", spread(calls), ""),
            ("`jobs`: `puzzlefleet jobs ID --json` (whole command)", spread(commands),
             "interpreter start and imports included; target <= 0.2 s"),
        ]
        engine.dispose()
    finally:
        for proc in procs:
            try:
                os.killpg(proc.pid, signal.SIGTERM)
                proc.wait(timeout=20)
            except (ProcessLookupError, subprocess.TimeoutExpired):
                os.killpg(proc.pid, signal.SIGKILL)
        client.flushdb()
        if admin is not None:
            with admin.begin() as conn:
                for name in schemas:
                    conn.exec_driver_sql(f'DROP SCHEMA "{name}" CASCADE')
            admin.dispose()
        shutil.rmtree(tmp, ignore_errors=True)

    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"`{' '.join(['bench/bench_fleet.py', *sys.argv[1:]])}` — {platform.processor() or platform.machine()}, "
          f"{os.cpu_count()} cores, Python {platform.python_version()}, store {args.db}, "
          f"load before end {load}\n")
    print("| Measure | Result | Note |\n|---|---|---|")
    for measure, result, note in rows:
        print(f"| {measure} | {result} | {note} |")
    from machine import write_result        # bench/ is this script's folder, so on the import path
    write_result("fleet" if args.db == "sqlite" else f"fleet-{args.db}",
                 [{"title": f"fleet against embedded, {args.db}", "columns": ["measure", "result", "note"],
                   "rows": [list(row) for row in rows]}],
                 notes=[f"Store {args.db}; load average {load} before the end."], load_at_start=load_at_start)
    return 0


if __name__ == "__main__":
    sys.exit(main())
