"""jobs.sweep without a broker: which jobs a sweep sends again, by a store of the test's own and the
broker's answers it is given, and which queues it says no worker consumes (a clock of the test's own)."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text as sql

import store
from jobs.params import JobParams
from jobs.sweep import Unconsumed, sweep


def test_the_sweep_says_a_queue_is_unconsumed_only_once_it_has_stayed_so() -> None:
    """A worker reconnecting to the broker (after a restart) does not answer the broadcast: its queue
    looks unconsumed for a while. The sweep says so only once a queue has stayed unconsumed for 30 s of
    its broadcasts, and reuses an answer in which every queue is consumed for a minute."""
    clock = [1000.0]
    answers: list[set[str] | None] = []
    unconsumed = Unconsumed(lambda: answers.pop(0), clock=lambda: clock[0])
    answers[:] = [{"fleet"}, {"fleet", "queens"}]
    assert unconsumed({"queens"}) == set()            # queens' worker reconnecting: not said
    clock[0] += 10
    assert unconsumed({"queens"}) == set() and not answers     # back: forgotten
    clock[0] += 20
    assert unconsumed({"queens"}) == set()            # the consuming answer, reused (no broadcast)
    answers[:] = [{"fleet"}, {"fleet"}, {"fleet"}]
    clock[0] += 60
    assert unconsumed({"queens"}) == set()
    clock[0] += 15
    assert unconsumed({"queens"}) == set()
    clock[0] += 15
    assert unconsumed({"queens"}) == {"queens"}       # unconsumed for 30 s: said
    answers[:] = [None]
    clock[0] += 1
    assert unconsumed({"queens"}) is None             # nobody answered: unknown


def test_the_sweep_resends_lost_jobs_whole_within_its_budget_and_says_an_unserved_queue(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """sweep on a SQLite store, the broker's answers given: stalled jobs whose queue is empty go again
    whole, oldest first, until the budget is spent (the first whatever its size), the rest next sweep;
    a job sent again counts as having progressed. A job whose messages may wait in a queue no worker
    consumes is said, and not sent."""
    db = store.make_engine(f"sqlite:///{tmp_path / 'puzzles.db'}")
    store.init_db(db)
    past = (datetime.now(timezone.utc) - timedelta(minutes=30)).replace(tzinfo=None)

    def stalled(game: str, size: int, requested: int) -> int:
        params = JobParams.build(game=game, size=size).to_json()
        with store.session(db) as s:
            job_id = store.create_job(session=s, game=game, rules=f"{game} {size}", band=None, params=params,
                                      seed=1, requested=requested)
        with db.begin() as conn:
            conn.execute(sql("UPDATE job SET created_at = :t, updated_at = :t WHERE id = :id"),
                         {"t": past, "id": job_id})
        return job_id

    first, second, waiting = stalled("queens", 8, 3), stalled("queens", 8, 2), stalled("tango", 6, 1)
    sent: list[tuple[int, list[tuple[int, int]]]] = []

    def send(job_id: int, params: Any, seed: int, ranges: list[tuple[int, int]]) -> None:
        assert params["game"] == "queens" and seed == 1
        sent.append((job_id, ranges))

    def depths(queues: set[str]) -> dict[str, int]:
        return {queue: {"queens": 0, "tango": 4}[queue] for queue in queues}
    caplog.set_level(logging.WARNING, logger="jobs.sweep")
    try:
        swept = sweep(db, stall_seconds=60, resend_slots=1, depths=depths,
                      unconsumed=lambda queues: queues & {"tango"}, send=send)
        assert swept == {"resumed": {str(first): 3}, "waiting": [waiting], "deferred": [second]}
        assert sent == [(first, [(0, 1), (1, 2), (2, 3)])]          # slots_per_task(3): one a task
        said = [record.getMessage() for record in caplog.records if record.name == "jobs.sweep"]
        assert f"job {waiting} has waited" in said[0] and "in queue tango with no slot taken" in said[0]
        assert said[1].startswith(f"job {first}: 3 slots sent again after ") and "no message waits" in said[1]
        assert said[2] == f"1 stalled job(s) left for the next sweep (PUZZLEFLEET_RESEND_SLOTS=1 reached): {second}"
        # the job sent again has progressed; the one left over goes at the next sweep
        again = sweep(db, stall_seconds=60, resend_slots=1, depths=depths,
                      unconsumed=lambda queues: set(), send=send)
        assert again == {"resumed": {str(second): 2}, "waiting": [], "deferred": []}
        assert sent[1:] == [(second, [(0, 1), (1, 2)])]
    finally:
        db.dispose()
