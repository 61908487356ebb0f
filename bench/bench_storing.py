"""What keeping a board costs beside making it: fingerprinting, the board JSON, the store's checks and
the database write, per board, against the engine's own time.

    .venv/bin/python bench/bench_storing.py [--rules "queens 8"] [--band B] [--boards 200] [--batch 50]
                                          [--cpu N] [--repeats 3]

The boards are made first (the engine's time: `generate(rules, seed)`, seeds 0..N-1), then each cost
is timed on its own, in the order the slot loop pays it: the fingerprint and the board JSON (what
jobs.slot.generate_one hands over), the store's check of the JSON against the game's model, and
`store.record_attempts` on a fresh SQLite store (WAL, as `generate` uses it), `--batch` attempts per
transaction as run_slots flushes them. Target: everything after the engine under 10% of its time.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import store  # noqa: E402
from engine import game_named, parse_rules  # noqa: E402
from machine import cpu_model  # noqa: E402
from store import Attempt, create_job, init_db, make_engine, record_attempts, session  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="queens 8")
    parser.add_argument("--boards", type=int, default=200)
    parser.add_argument("--band", help="the band asked of generate (default: none)")
    parser.add_argument("--batch", type=int, default=50)
    parser.add_argument("--cpu", type=int, default=-1, help="pin to this CPU (default: not pinned)")
    parser.add_argument("--repeats", type=int, default=3, help="runs; the table shows the median of each cost")
    args = parser.parse_args()
    if args.cpu >= 0:
        os.sched_setaffinity(0, {args.cpu})
    rules = parse_rules(args.rules)
    game = game_named(rules.game)
    game.generate(rules, 10**9, band=args.band)          # warm-up
    runs = [one_run(game, rules, args.band, args.boards, args.batch) for _ in range(args.repeats)]
    costs = {name: statistics.median(run[name] for run in runs) for name in runs[0]}
    engine = costs.pop("engine")
    print(f"`{' '.join(['bench/bench_storing.py', *sys.argv[1:]])}`; {cpu_model()}, {os.cpu_count()} cores, "
          f"load {os.getloadavg()[0]:.2f}; {args.boards} boards of {args.rules}{' ' + args.band if args.band else ''}, median of {args.repeats} runs\n")
    print("| cost per board | µs | share of the engine's time |")
    print("|---|---:|---:|")
    print(f"| engine: `generate` (the whole pipeline: board, proof, grade, gates) | {engine * 1e6:,.0f} | 100% |")
    for name, seconds in costs.items():
        print(f"| {name} | {seconds * 1e6:,.0f} | {seconds / engine:.1%} |")
    kept = sum(costs[name] for name in ("fingerprint", "board JSON", "record_attempts (checks and write)"))
    print(f"| **all of storing** (fingerprint, JSON, record_attempts) | {kept * 1e6:,.0f} | **{kept / engine:.1%}** |")


def one_run(game, rules, band: str | None, count: int, batch: int) -> dict[str, float]:
    started = time.perf_counter()
    boards = [game.generate(rules, seed, band=band)[0] for seed in range(count)]
    engine = time.perf_counter() - started
    started = time.perf_counter()
    prints = [board.fingerprint for board in boards]
    fingerprinting = time.perf_counter() - started
    started = time.perf_counter()
    data = [board.to_json() for board in boards]
    as_json = time.perf_counter() - started
    started = time.perf_counter()
    for item in data:
        game.validate(item)
    checking = time.perf_counter() - started
    with tempfile.TemporaryDirectory() as folder:
        db = make_engine(f"sqlite:///{folder}/storing.db")
        init_db(db)
        with session(db) as s:
            job = create_job(session=s, game=rules.game, rules=str(rules), band=None, params={}, seed=0,
                             requested=count)
        attempts = [Attempt(slot=i, attempt=0, seed=i, data=data[i], fingerprint=prints[i], rejected={},
                            seconds=0.0) for i in range(count)]
        started = time.perf_counter()
        for first in range(0, count, batch):
            with session(db) as s:
                outcomes = record_attempts(session=s, job_id=job, attempts=attempts[first:first + batch],
                                           max_attempts=5)
            assert all(outcome.status in ("stored", "duplicate") for outcome in outcomes)
        writing = time.perf_counter() - started
        with session(db, read_only=True) as s:
            stored = store.count_boards(session=s)
        db.dispose()
    assert stored >= count * 0.9, stored
    return {"engine": engine / count, "fingerprint": fingerprinting / count, "board JSON": as_json / count,
            "the model check (inside record_attempts)": checking / count,
            "record_attempts (checks and write)": writing / count}


if __name__ == "__main__":
    main()
