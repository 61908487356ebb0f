"""Four writer processes on one database (a SQLite WAL file, then PostgreSQL): each migrates, then
saves its own 50 boards and 20 boards that all four share. Exactly the distinct set must be stored."""

from __future__ import annotations

import multiprocessing as mp
import random
from typing import Any

import pytest
from sqlalchemy import Engine

import store

WORKERS = 4
OWN = 50
SHARED = 20


def _writer(url: str, boards: list[tuple[dict[str, Any], str]], start: Any, results: Any) -> None:
    try:
        engine = store.make_engine(url)  # created in the child: engines must not cross a fork
        start.wait(timeout=60)           # all four hit the empty database at once
        store.init_db(engine)
        stored = 0
        for data, fp in boards:
            with store.session(engine) as s:
                stored += store.save_board(session=s, data=data, fingerprint=fp)
        engine.dispose()
        results.put(("ok", stored))
    except BaseException as exc:  # report, don't hang the parent
        results.put(("error", f"{type(exc).__name__}: {exc}"))


@pytest.mark.slow
def test_concurrent_writers_store_exactly_the_distinct_set(db_url: str, board: Any) -> None:
    shared = [board(f"shared-{i}") for i in range(SHARED)]
    plans, expected = [], {data["id"]: data for data, _ in shared}
    for w in range(WORKERS):
        own = [board(f"w{w}-{i}", size=6 + w, band=["easy", "hard"][i % 2]) for i in range(OWN)]
        expected.update((data["id"], data) for data, _ in own)
        plan = own + shared
        random.Random(w).shuffle(plan)  # different orders, so the shared boards really race
        plans.append(plan)

    ctx = mp.get_context("spawn")
    start, results = ctx.Barrier(WORKERS), ctx.Queue()
    procs = [ctx.Process(target=_writer, args=(db_url, plan, start, results)) for plan in plans]
    for p in procs:
        p.start()
    outcomes = [results.get(timeout=180) for _ in procs]
    for p in procs:
        p.join(timeout=30)
    assert all(status == "ok" for status, _ in outcomes), outcomes
    assert sum(stored for _, stored in outcomes) == len(expected) == WORKERS * OWN + SHARED

    engine: Engine = store.make_engine(db_url)
    try:
        with store.session(engine, read_only=True) as s:
            assert store.count_boards(session=s) == len(expected)
            got = {data["id"]: data for data in store.list_boards(session=s)}
        assert got == expected
    finally:
        engine.dispose()
