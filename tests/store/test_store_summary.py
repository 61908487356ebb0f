"""store.summary: the per-job figures a fleet worker's /metrics shows, read through store.progress, and
the guard that makes a fork of the reading process wait for a read to end."""

from __future__ import annotations

import os
import threading
import time
from typing import Any

import pytest
from sqlalchemy import Engine

import store
from store import summary


def test_the_summary_gives_each_recent_jobs_figures(db_url: str, engine: Engine, board: Any,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PUZZLEFLEET_DB", db_url)
    with store.session(engine) as s:
        untried = store.create_job(session=s, game="queens", rules="queens 8", band=None,
                                   params={"game": "queens", "size": 8}, seed=7, requested=2)
        tried = store.create_job(session=s, game="queens", rules="queens 8", band=None,
                                 params={"game": "queens", "size": 8}, seed=8, requested=1)
    with store.session(engine) as s:
        store.record_attempts(session=s, job_id=tried, max_attempts=3, attempts=[
            store.Attempt(slot=0, attempt=0, seed=1, data=board("a")[0], fingerprint=board("a")[1],
                          rejected={"ambiguous": 3}, seconds=0.25)])
    found = {job["job"]: job for job in summary.job_summaries(limit=10, active_within=3600)}
    assert set(found) == {untried, tried} and found[tried]["params"] == {"game": "queens", "size": 8}
    assert found[untried]["figures"].keys() == {"requested_boards", "stored_boards", "boards_per_second", "open"}
    assert found[untried]["figures"]["open"] == 1 and found[untried]["rejected"] == {}
    figures = found[tried]["figures"]
    assert (figures["requested_boards"], figures["stored_boards"], figures["acceptance_ratio"]) == (1, 1, 0.25)
    assert found[tried]["rejected"] == {"ambiguous": 3} and found[tried]["game"] == "queens"
    assert [job["job"] for job in summary.job_summaries(limit=1, active_within=3600)] == [tried]


def test_a_fork_waits_for_a_store_read_of_the_per_job_gauges(monkeypatch: pytest.MonkeyPatch) -> None:
    """The /metrics thread of a worker's main process reads the store while the main thread forks pool
    processes: a fork made while the driver held its own locks (C code, the GIL let go) would leave the
    child waiting for ever on its first connection (a hang seen once after a pool process was killed
    during scrapes). A fork now waits for the read to end."""
    reading = threading.Event()

    def slow_read(**_: Any) -> list[dict[str, Any]]:
        reading.set()
        time.sleep(0.5)
        return []
    monkeypatch.setattr(summary, "read_jobs", slow_read)
    summary.guard_forks()
    scrape = threading.Thread(target=lambda: summary.job_summaries(limit=100, active_within=60))
    scrape.start()
    assert reading.wait(5)
    started = time.monotonic()
    pid = os.fork()
    if pid == 0:
        os._exit(0)
    waited = time.monotonic() - started
    os.waitpid(pid, 0)
    scrape.join()
    assert waited > 0.3, waited
