"""The job tables: counters, idempotent slots, duplicates, giving up, and racing writers (SQLite and
PostgreSQL, through the shared `engine`/`db_url` fixtures)."""

from __future__ import annotations

import multiprocessing as mp
from typing import Any

import pytest
from sqlalchemy import Engine

import store
from store import StoreError


def _job(engine: Engine, requested: int = 3, **params: Any) -> int:
    with store.session(engine) as s:
        return store.create_job(session=s, game="queens", rules="queens 8", band=None,
                                params={"game": "queens", "size": 8, **params}, seed=7, requested=requested)


def _record(engine: Engine, job_id: int, slot: int, attempt: int, board: Any = None,
            rejected: dict | None = None, max_attempts: int = 3) -> store.AttemptOutcome:
    data, fp = board if board is not None else (None, None)
    with store.session(engine) as s:
        [outcome] = store.record_attempts(session=s, job_id=job_id, max_attempts=max_attempts, attempts=[
            store.Attempt(slot=slot, attempt=attempt, seed=100 + attempt, data=data, fingerprint=fp,
                          rejected=rejected or {}, seconds=0.5)])
    return outcome


def _get(engine: Engine, job_id: int) -> dict:
    with store.session(engine, read_only=True) as s:
        job = store.get_job(session=s, job_id=job_id)
    assert job is not None
    return job


def test_a_new_job_is_queued_with_its_parameters(engine: Engine) -> None:
    job_id = _job(engine, requested=5, stars=1)
    job = _get(engine, job_id)
    assert job["state"] == "queued" and job["requested"] == 5 and job["stored"] == 0
    assert job["params"] == {"game": "queens", "size": 8, "stars": 1} and job["seed"] == 7
    assert job["rejected"] == {} and job["attempts"] == 0
    with store.session(engine, read_only=True) as s:
        assert [j["job"] for j in store.list_jobs(session=s)] == [job_id]
        assert store.get_job(session=s, job_id=job_id + 1) is None
        assert store.pending_slots(session=s, job_id=job_id, start=0, stop=5) == {i: 0 for i in range(5)}
        with pytest.raises(store.JobNotFound, match="no job"):
            store.pending_slots(session=s, job_id=job_id + 1, start=0, stop=1)
        with pytest.raises(store.JobNotFound, match="has slots 0..4, not 3..5"):
            store.pending_slots(session=s, job_id=job_id, start=3, stop=6)


def test_a_slot_stores_one_board_however_often_it_is_recorded(engine: Engine, board: Any) -> None:
    job_id = _job(engine)
    first = _record(engine, job_id, 0, 0, board("a"), rejected={"draw-failed": 2})
    assert first == store.AttemptOutcome("stored", "stored", 1, "running")
    # the same attempt again (a redelivered task), and a later attempt with another board
    assert _record(engine, job_id, 0, 0, board("a")).status == "done"
    assert _record(engine, job_id, 0, 1, board("b")).status == "done"
    job = _get(engine, job_id)
    assert job["stored"] == 1 and job["attempts"] == 1 and job["rejected"] == {"draw-failed": 2}
    with store.session(engine, read_only=True) as s:
        assert store.count_boards(session=s) == 1
        assert store.count_job_boards(session=s, job_id=job_id) == 1
        assert [b["id"] for b in store.list_job_boards(session=s, job_id=job_id)] == [board("a")[0]["id"]]


def test_a_duplicate_board_moves_the_slot_to_its_next_attempt(engine: Engine, board: Any) -> None:
    job_id = _job(engine)
    assert _record(engine, job_id, 0, 0, board("a")).status == "stored"
    dup = _record(engine, job_id, 1, 0, board("a"))
    assert dup == store.AttemptOutcome("duplicate", "pending", 1, "running")
    assert _record(engine, job_id, 1, 0, board("a")).status == "stale"     # counted once only
    assert _record(engine, job_id, 1, 1, board("b")).status == "stored"
    job = _get(engine, job_id)
    assert job["rejected"] == {"duplicate": 1} and job["attempts"] == 3 and job["stored"] == 2
    with store.session(engine, read_only=True) as s:
        assert store.unfinished_slots(session=s, job_id=job_id) == [2]
        assert [b["id"] for b in store.list_job_boards(session=s, job_id=job_id)] == \
            [board("a")[0]["id"], board("b")[0]["id"]]


def test_a_slot_gives_up_after_its_attempts_and_the_job_finishes(engine: Engine, board: Any) -> None:
    job_id = _job(engine, requested=2)
    _record(engine, job_id, 0, 0, board("a"))
    for attempt in range(3):
        outcome = _record(engine, job_id, 1, attempt, rejected={"timeout": 1})
    assert outcome == store.AttemptOutcome("rejected", "failed", 3, "incomplete")
    job = _get(engine, job_id)
    assert (job["stored"], job["failed"], job["attempts"], job["state"]) == (1, 1, 4, "incomplete")
    assert job["rejected"] == {"timeout": 3} and job["seconds"] == 2.0
    assert _record(engine, job_id, 1, 3, board("b")).status == "done"


def test_every_slot_stored_makes_the_job_done(engine: Engine, board: Any) -> None:
    job_id = _job(engine, requested=2)
    _record(engine, job_id, 1, 0, board("a"))
    assert _record(engine, job_id, 0, 0, board("b")).job_state == "done"


def test_bad_records_are_refused_and_leave_nothing(engine: Engine, board: Any) -> None:
    job_id = _job(engine, requested=2)
    with pytest.raises(StoreError, match="no job"):
        _record(engine, job_id + 5, 0, 0, board("a"))
    with pytest.raises(StoreError, match="slots 0..1"):
        _record(engine, job_id, 2, 0, board("a"))
    bad = dict(board("c")[0], id="not-hex")
    with pytest.raises(StoreError):
        _record(engine, job_id, 0, 0, (bad, board("c")[1]))
    with store.session(engine, read_only=True) as s:
        assert store.count_boards(session=s) == 0
        assert store.pending_slots(session=s, job_id=job_id, start=0, stop=2) == {0: 0, 1: 0}
    assert _get(engine, job_id)["attempts"] == 0


def test_a_batch_of_attempts_is_recorded_in_order_in_one_transaction(engine: Engine, board: Any) -> None:
    job_id = _job(engine, requested=4)

    def attempt(slot: int, number: int, name: str | None = None, **rejected: int) -> store.Attempt:
        data, fp = board(name) if name else (None, None)
        return store.Attempt(slot=slot, attempt=number, seed=number, data=data, fingerprint=fp,
                             rejected=rejected, seconds=0.25)
    batch = [attempt(0, 0, timeout=1), attempt(0, 1, "a"), attempt(1, 0, "a"), attempt(1, 1, "b"),
             attempt(0, 2, "c"), attempt(2, 0, "b")]
    with store.session(engine) as s:
        outcomes = store.record_attempts(session=s, job_id=job_id, attempts=batch, max_attempts=5)
    assert [o.status for o in outcomes] == ["rejected", "stored", "duplicate", "stored", "done", "duplicate"]
    assert outcomes[-1] == store.AttemptOutcome("duplicate", "pending", 1, "running")
    job = _get(engine, job_id)
    assert (job["stored"], job["attempts"], job["rejected"]) == (2, 5, {"duplicate": 2, "timeout": 1})
    assert job["seconds"] == 1.25
    with store.session(engine, read_only=True) as s:
        assert store.pending_slots(session=s, job_id=job_id, start=0, stop=4) == {2: 1, 3: 0}
    # a bad board anywhere in a batch keeps nothing of it
    bad = dict(board("d")[0], id="not-hex")
    with pytest.raises(StoreError):
        with store.session(engine) as s:
            store.record_attempts(session=s, job_id=job_id, max_attempts=5, attempts=[
                attempt(3, 0, "e"), store.Attempt(slot=2, attempt=2, seed=2, data=bad, fingerprint=board("d")[1],
                                                  rejected={}, seconds=0.0)])
    assert _get(engine, job_id)["attempts"] == 5
    with store.session(engine, read_only=True) as s:
        assert store.pending_slots(session=s, job_id=job_id, start=2, stop=4) == {2: 1, 3: 0}
        assert store.count_boards(session=s) == 2


def test_job_state_can_be_forced_and_stalled_jobs_found(engine: Engine) -> None:
    job_id = _job(engine)
    with store.session(engine, read_only=True) as s:
        assert store.stalled_jobs(session=s, idle_seconds=3600) == []
        assert [j["job"] for j in store.stalled_jobs(session=s, idle_seconds=-1)] == [job_id]
    with store.session(engine) as s:
        store.set_job_state(session=s, job_id=job_id, state="failed", error="broker down")
    job = _get(engine, job_id)
    assert job["state"] == "failed" and job["error"] == "broker down"
    with pytest.raises(StoreError):
        with store.session(engine) as s:
            store.set_job_state(session=s, job_id=job_id, state="nonsense")


def _racer(url: str, job_id: int, boards: list, start: Any, results: Any) -> None:
    try:
        engine = store.make_engine(url)
        start.wait(timeout=60)
        outcomes = []
        for first in range(0, len(boards), 3):        # batches of three attempts, as a task flushes them
            batch = [store.Attempt(slot=slot, attempt=0, seed=1, data=data, fingerprint=fp, rejected={},
                                   seconds=0.0)
                     for slot, (data, fp) in enumerate(boards) if first <= slot < first + 3]
            with store.session(engine) as s:
                outcomes += [o.status for o in store.record_attempts(session=s, job_id=job_id, attempts=batch,
                                                                     max_attempts=5)]
        engine.dispose()
        results.put(("ok", outcomes))
    except BaseException as exc:
        results.put(("error", f"{type(exc).__name__}: {exc}"))


@pytest.mark.slow
def test_racing_deliveries_of_the_same_slots_store_each_board_once(db_url: str, engine: Engine,
                                                                   board: Any) -> None:
    """Three processes deliver the same 30 slot tasks at once (each slot's board is the same, as a
    deterministic seed makes it): exactly one board per slot, each attempt counted once."""
    slots = 30
    job_id = _job(engine, requested=slots)
    boards = [board(f"s{i}") for i in range(slots)]
    ctx = mp.get_context("spawn")
    start, results = ctx.Barrier(3), ctx.Queue()
    procs = [ctx.Process(target=_racer, args=(db_url, job_id, boards, start, results)) for _ in range(3)]
    for p in procs:
        p.start()
    outcomes = [results.get(timeout=180) for _ in procs]
    for p in procs:
        p.join(timeout=30)
    assert all(status == "ok" for status, _ in outcomes), outcomes
    statuses = [s for _, got in outcomes for s in got]
    assert statuses.count("stored") == slots and set(statuses) <= {"stored", "done"}
    job = _get(engine, job_id)
    assert (job["stored"], job["attempts"], job["state"]) == (slots, slots, "done")
    with store.session(engine, read_only=True) as s:
        assert store.count_boards(session=s) == slots == store.count_job_boards(session=s, job_id=job_id)
