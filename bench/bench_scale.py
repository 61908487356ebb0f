"""The store at the size of years of use: every read and the other verbs on stores of real boards.

    .venv/bin/python bench/bench_scale.py --store 1M=postgresql://postgres@127.0.0.1/scale \\
        --store 1M=sqlite:///scale.db --store 10k=postgresql://postgres@127.0.0.1/scale10k \\
        --store 10k=sqlite:///scale10k.db --daily-days 10k=25 [--seconds 10] [--connections 8] [--migrate]

The stores are filled beforehand by bench/fill_store.py (real boards made by `generate`; the SQLite ones
copied from the PostgreSQL ones). For each store, with everything run as a user runs it (whole
commands; `puzzlefleet serve` loaded by wrk with 8 connections):

  - the read API: the first page, newest first; a game + band page; a game + option page; and the
    page 200,000 boards deep (or the last, on a smaller store) reached by following `next` links:
    median and p99 latency, requests/s;
  - `list` and `list --game tango` beside the same commands on an empty store of the same kind;
  - `daily` for a new day, with --daily-days of past sets made first (three years by default; a store
    of 10,000 boards has too few boards for the plan below's positions to fill three years), the plan
    below, the near-duplicate rule in force, whole commands for three new days;
  - `generate --count 20` (Queens 8x8) into the store beside an empty one, five runs each;
  - `export` of every board as JSON: boards/s and the command's peak memory;
  - `jobs` and `jobs ID` with 100,000 jobs recorded (added once, as finished jobs with a tally each);
  - the duplicate check (has_fingerprint) in process, for stored and new fingerprints;
  - with --migrate, first: Alembic's upgrade 0007 -> 0008 (the store taken back to 0007 before).

Each store is changed by it: the generated boards, the past daily sets and the jobs stay.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from datetime import date, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BIN = ROOT / ".venv" / "bin"
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench_api import free_port, wrk  # noqa: E402

PLAN = ("queens 8, easy; queens 9, medium; queens 10, hard; tango 6, medium; tango 8, hard; "
        "sudoku 9, medium; sudoku 9, hard; killer 9, medium; starbattle 10 2, medium")
FIRST_NEW_DAY = date(2030, 1, 1)
JOBS = 100_000
DEEP = 200_000


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def whole(argv: list[str], env: dict[str, str], runs: int) -> list[float]:
    """Wall seconds of each of `runs` runs of a whole command."""
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run(argv, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times.append(time.perf_counter() - started)
    return times


def ms(values: list[float]) -> str:
    return f"{statistics.median(values) * 1000:,.0f} ms"


def empty_store(url: str, tmp: Path) -> str:
    """A new, empty store of the same kind as `url`."""
    if url.startswith("sqlite"):
        return f"sqlite:///{tmp / 'empty.db'}"
    import psycopg
    name = f"bench_empty_{os.getpid()}"
    admin = url.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
        conn.execute(f'CREATE DATABASE "{name}"')
    return url.rsplit("/", 1)[0] + f"/{name}"


def drop_empty(url: str) -> None:
    if url.startswith("postgresql"):
        import psycopg
        with psycopg.connect(url.rsplit("/", 1)[0] + "/postgres", autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{url.rsplit("/", 1)[1]}" WITH (FORCE)')


def serve(env: dict[str, str], workers: int = 1) -> tuple[subprocess.Popen, str]:
    port = free_port()
    processes = ["--workers", str(workers)] if workers > 1 else []
    server = subprocess.Popen([str(BIN / "puzzlefleet"), "serve", "--port", str(port), "--no-access-log", *processes],
                              env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    for _ in range(400):
        try:
            urllib.request.urlopen(f"{base}/health", timeout=1).close()
            return server, base
        except OSError:
            time.sleep(0.05)
    server.kill()
    raise SystemExit("puzzlefleet serve did not start")


def get(base: str, path: str) -> dict:
    with urllib.request.urlopen(base + path) as answer:
        return json.load(answer)


def deep_page(base: str, boards: int) -> tuple[str, int]:
    """The page DEEP boards into the listing (the last page on a smaller store), by `next` links."""
    path, passed = "/boards?limit=200", 0
    while passed + 200 <= min(DEEP, boards - 1):
        page = get(base, path)
        if page["next"] is None:
            break
        path, passed = page["next"], passed + len(page["boards"])
    return path.replace("limit=200", "limit=50"), passed


def reads(env: dict[str, str], boards: int, args: argparse.Namespace, workers: int) -> list[list[str]]:
    server, base = serve(env, workers)
    try:
        deep, passed = deep_page(base, boards)
        routes = [("first page, newest first", "/boards?order=newest&limit=50"),
                  ("game + band: tango, hard", "/boards?game=tango&band=hard&limit=50"),
                  ("game + option: starbattle, stars=2", "/boards?game=starbattle&stars=2&limit=50"),
                  (f"{passed:,} boards deep by `next` links", deep)]
        rows = []
        for name, path in routes:
            page = get(base, path)
            assert page["boards"], (name, path)
            rps, p50, p99 = wrk(base, [path], args.seconds, args.connections, 2)
            processes = "" if workers == 1 else f" (serve --workers {workers})"
            rows.append([f"GET /boards: {name}{processes}", f"{p50:.1f} ms / {p99:.1f} ms ({rps:,.0f}/s)"])
        return rows
    finally:
        server.terminate()
        server.wait()


def past_dailies(url: str, days: int) -> None:
    """Daily sets for the `days` days before FIRST_NEW_DAY (those already made are read back)."""
    os.environ["PUZZLEFLEET_DAILY_PLAN"] = PLAN
    import store
    from jobs.daily import make_daily
    db = store.make_engine(url)
    store.init_db(db)
    started = time.perf_counter()
    for back in range(days, 0, -1):
        make_daily(db=db, day=FIRST_NEW_DAY - timedelta(days=back))
    log(f"  {days} past daily sets ready in {time.perf_counter() - started:.0f} s")
    db.dispose()


def add_jobs(url: str) -> int:
    """JOBS finished jobs in the store (added once), each with a tally; returns the newest job's id."""
    import store
    from sqlalchemy import func, insert, select
    from store.jobmodels import Job, JobTally
    from store.models import utcnow
    db = store.make_engine(url)
    store.init_db(db)
    with store.session(db) as s:
        have = s.scalar(select(func.count()).select_from(Job)) or 0
    params = json.dumps({"game": "tango", "size": 6})
    while have < JOBS:
        batch = min(10_000, JOBS - have)
        now = utcnow()
        with store.session(db) as s:
            conn = s.connection()
            first = (s.scalar(select(func.max(Job.id))) or 0) + 1
            conn.execute(insert(Job.__table__), [
                {"id": first + i, "game": "tango", "rules": "tango 6", "band": None, "params": params, "seed": i,
                 "requested": 20, "stored": 0, "failed": 0, "attempts": 0, "rejected": "{}", "seconds": 0.0,
                 "state": "done", "created_at": now, "updated_at": now} for i in range(batch)])
            conn.execute(insert(JobTally.__table__), [
                {"job_id": first + i, "writer": "bench:1", "stored": 20, "failed": 0, "attempts": 23,
                 "rejected": '{"dull":3}', "seconds": 0.4, "updated_at": now} for i in range(batch)])
        have += batch
    with store.session(db) as s:
        newest = s.scalar(select(func.max(Job.id)))
        if url.startswith("postgresql"):          # the ids were given: the next job's comes after them
            s.connection().exec_driver_sql(f"SELECT setval(pg_get_serial_sequence('job', 'id'), {int(newest)})")
    if url.startswith("postgresql"):
        with db.connect() as conn:
            conn.exec_driver_sql("ANALYZE")
    db.dispose()
    return int(newest)


def duplicate_check(url: str) -> str:
    import store
    from sqlalchemy import select
    from store.models import Puzzle
    db = store.make_engine(url)
    with store.session(db, read_only=True) as s:
        stored = list(s.scalars(select(Puzzle.fingerprint).limit(1000)))
        rng = random.Random(5)
        fresh = [f"{rng.getrandbits(256):064x}" for _ in range(1000)]
        times = []
        for fingerprint in stored + fresh:
            started = time.perf_counter()
            store.has_fingerprint(session=s, fingerprint=fingerprint)
            times.append(time.perf_counter() - started)
    db.dispose()
    return f"{statistics.median(times) * 1e6:,.0f} µs (p99 {sorted(times)[int(len(times) * 0.99)] * 1e6:,.0f} µs)"


def export_all(env: dict[str, str], tmp: Path, boards: int) -> str:
    out = tmp / "all.jsonl"
    started = time.perf_counter()
    proc = subprocess.Popen([str(BIN / "puzzlefleet"), "export", "--format", "json", "--out", str(out)], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - started
    if status != 0:
        raise SystemExit(f"export failed with status {status}")
    with out.open() as fh:
        lines = sum(1 for _ in fh)
    out.unlink()
    assert lines >= boards, (lines, boards)
    return f"{lines / seconds:,.0f} boards/s ({lines:,} in {seconds:.1f} s), peak {usage.ru_maxrss / 1024:,.0f} MB"


def migrate(url: str) -> str:
    """Seconds of Alembic's upgrade 0007 -> 0008 on this store (taken back to 0007 first)."""
    from alembic import command

    import store
    from store.db import alembic_config
    db = store.make_engine(url)
    cfg = alembic_config()
    timings = []
    for step, revision in ((command.downgrade, "0007"), (command.upgrade, "0008")):
        started = time.perf_counter()
        with db.begin() as conn:
            cfg.attributes["connection"] = conn
            step(cfg, revision)
        timings.append(time.perf_counter() - started)
    db.dispose()
    return f"{timings[1]:.1f} s (back to 0007 first: {timings[0]:.1f} s)"


def count(url: str) -> int:
    import store
    db = store.make_engine(url)
    store.init_db(db)
    with store.session(db, read_only=True) as s:
        n = store.count_boards(session=s)
    db.dispose()
    return n


def measure(label: str, url: str, args: argparse.Namespace, tmp: Path, daily_days: int) -> tuple[str, list[list[str]]]:
    kind = "PostgreSQL" if url.startswith("postgresql") else "SQLite"
    boards = count(url)
    log(f"{label} {kind}: {boards:,} boards")
    env = {**os.environ, "PUZZLEFLEET_DB": url, "PUZZLEFLEET_DAILY_PLAN": PLAN}
    empty = empty_store(url, tmp)
    empty_env = {**env, "PUZZLEFLEET_DB": empty}
    rows: list[list[str]] = []
    try:
        if args.migrate:
            log("  migration")
            rows.append(["Alembic 0007 -> 0008 (six indexes, job_tally)", migrate(url)])
        subprocess.run([str(BIN / "puzzlefleet"), "list"], env=empty_env, check=True, stdout=subprocess.DEVNULL)
        log("  reads")
        for workers in args.serve_workers:
            rows += reads(env, boards, args, workers)
        if args.reads_only:
            return f"{label} {kind} ({boards:,} boards)", rows
        log("  list")
        for extra in ([], ["--game", "tango"]):
            full, none = whole([str(BIN / "puzzlefleet"), "list", *extra], env, 7), \
                whole([str(BIN / "puzzlefleet"), "list", *extra], empty_env, 7)
            rows.append([f"`list {' '.join(extra)}`".replace(" `", "`"),
                         f"{ms(full)} ({statistics.median(full) * 1000 - statistics.median(none) * 1000:+,.0f} ms "
                         f"beside an empty store's {ms(none)})"])
        log("  daily")
        past_dailies(url, daily_days)
        new_days = [FIRST_NEW_DAY + timedelta(days=offset + args.round * 3) for offset in range(3)]
        times = [whole([str(BIN / "puzzlefleet"), "daily", "--date", day.isoformat()], env, 1)[0] for day in new_days]
        rows.append(["`daily` for a new day",
                     f"{ms(times)} (worst {max(times) * 1000:,.0f} ms; {daily_days:,} past sets)"])
        log("  generate")
        seeds = iter(range(900_000 + args.round * 100, 900_000 + args.round * 100 + 100))
        gen = [whole([str(BIN / "puzzlefleet"), "generate", "--game", "queens", "--size", "8", "--count", "20",
                      "--seed", str(next(seeds))], env, 1)[0] for _ in range(5)]
        gen_empty = [whole([str(BIN / "puzzlefleet"), "generate", "--game", "queens", "--size", "8", "--count", "20",
                            "--seed", str(next(seeds))], empty_env, 1)[0] for _ in range(5)]
        rows.append(["`generate --game queens --size 8 --count 20`",
                     f"{ms(gen)} ({statistics.median(gen) / statistics.median(gen_empty):.2f}× an empty store's {ms(gen_empty)})"])
        log("  export")
        rows.append(["`export --format json --out FILE`, every board", export_all(env, tmp, boards)])
        log("  jobs")
        newest = add_jobs(url)
        jobs = whole([str(BIN / "puzzlefleet"), "jobs"], env, 7)
        one = whole([str(BIN / "puzzlefleet"), "jobs", str(newest)], env, 7)
        jobs_empty = whole([str(BIN / "puzzlefleet"), "jobs"], empty_env, 7)
        rows.append([f"`jobs` with {JOBS:,} jobs; `jobs ID`", f"{ms(jobs)}; {ms(one)} (an empty store's `jobs`: {ms(jobs_empty)})"])
        log("  duplicate check")
        rows.append(["duplicate check (has_fingerprint, in process)", duplicate_check(url)])
    finally:
        drop_empty(empty)
    return f"{label} {kind} ({boards:,} boards)", rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--store", action="append", required=True, help="LABEL=URL, measured in the order given")
    ap.add_argument("--seconds", type=int, default=10)
    ap.add_argument("--connections", type=int, default=8)
    ap.add_argument("--daily-days", action="append", default=[], metavar="LABEL=N",
                    help="past daily sets made first on the stores of this label (default 1,095: three years)")
    ap.add_argument("--round", type=int, default=0, help="a later run's number: new days and seeds")
    ap.add_argument("--name", default="scale", help="the result file's name")
    ap.add_argument("--migrate", action="store_true", help="first take each store back to Alembic 0007 and "
                                                           "time the upgrade to 0008")
    ap.add_argument("--serve-workers", type=int, nargs="+", default=[1], metavar="N",
                    help="measure the reads with `serve --workers N` for each N given (default 1)")
    ap.add_argument("--reads-only", action="store_true", help="measure the GET rows only")
    args = ap.parse_args()
    if not shutil.which("wrk"):
        raise SystemExit("bench_scale needs wrk (Debian: apt-get install wrk)")
    load_at_start = os.getloadavg()[0]
    tmp = Path(tempfile.mkdtemp(prefix="bench-scale-"))
    columns: list[str] = []
    table: dict[str, dict[str, str]] = {}
    order: list[str] = []
    try:
        for spec in args.store:
            label, _, url = spec.partition("=")
            days = dict(item.split("=", 1) for item in args.daily_days)
            title, rows = measure(label, url, args, tmp, int(days.get(label, 1095)))
            columns.append(title)
            for what, figure in rows:
                key = re.sub(r"^GET /boards: [\d,]+ boards deep", "GET /boards: deep", what)
                if key not in table:
                    order.append(key)
                    table[key] = {"what": what}
                table[key][title] = figure
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    deep = "GET /boards: deep by `next` links"
    rows = [[table[key]["what"] if not key.startswith(deep) else
             key.replace(deep, "GET /boards: the page 200,000 boards deep (or the last) by `next` links")]
            + [table[key].get(title, "") for title in columns] for key in order]
    print("| measure | " + " | ".join(columns) + " |")
    print("|---|" + "---|" * len(columns))
    for row in rows:
        print("| " + " | ".join(row) + " |")
    from machine import write_result
    write_result(args.name, [{"title": "the store at scale", "columns": ["measure", *columns], "rows": rows}],
                 notes=["GET rows: median / p99 latency under wrk, 8 connections, 2 threads, 10 s "
                        "(requests/s in brackets); whole commands are medians of 7 runs (daily: 3 new days; "
                        "generate: 5 runs, each with a new seed)."],
                 load_at_start=load_at_start)
    return 0


if __name__ == "__main__":
    sys.exit(main())
