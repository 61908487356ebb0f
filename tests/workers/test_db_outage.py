"""A database outage mid-job: a PostgreSQL of the test's own (conftest's own_postgres: initdb into a
temporary directory, on a free loopback port) is stopped while a real worker is storing a job's boards,
and started again a few seconds later. The job must end with exactly the boards it asked for, none
twice, and the worker carries on."""

from __future__ import annotations

import json
import re
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

import store
from tests.workers.conftest import BIN, Fleet, OwnPostgres, OwnRedis, Proc, free_port, send_raw, wait_for

pytestmark = [pytest.mark.fleet, pytest.mark.slow, pytest.mark.xdist_group("faults-recovery")]

COUNT = 120          # Star Battle 10x10 2-star boards: several seconds of work for two pool processes


def _without_sweeps(worker: Proc) -> str:
    """The worker log's tail without beat's sweeps (one a second), for a failure's message."""
    return "\n".join(line for line in worker.text().splitlines() if "resume_stalled" not in line)[-6000:]


def _metrics(port: int) -> str:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=15) as r:
        return r.read().decode()


def test_a_job_survives_a_database_outage(own_postgres: OwnPostgres, fleet_factory) -> None:
    fleet: Fleet = fleet_factory(own_postgres.url)
    metrics_port = free_port()
    worker = fleet.worker("w1", concurrency=2, metrics_port=metrics_port, queues="starbattle,fleet")
    # As a user follows a job: `enqueue --wait`, which must ride out the outage too.
    waiting = subprocess.Popen([str(BIN / "puzzlefleet"), "enqueue", "--game", "starbattle", "--size", "10",
                                "--stars", "2", "--count", str(COUNT), "--seed", "42", "--wait", "--json"],
                               env=fleet.env, cwd=fleet.tmp, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True)
    try:
        def progress() -> int | None:
            jobs = store.read_jobs(url=own_postgres.url, limit=1)
            return jobs[0]["stored"] if jobs and jobs[0]["stored"] >= 15 else None
        try:
            stored_before = wait_for(progress, 60, "the job to store its first boards", interval=0.1)
        except AssertionError as exc:
            raise AssertionError(f"{exc}; worker log without the sweeps:\n{_without_sweeps(worker)}") from None
        own_postgres.stop("immediate")             # as a crash: every connection dropped mid-transaction
        stopped = time.monotonic()
        assert stored_before < COUNT, "the job finished before the outage: make it longer"
        # While the store is down the worker's /metrics still answers, without the per-job gauges.
        assert "puzzlefleet_job_summary_up 0.0" in _metrics(metrics_port)
        time.sleep(max(0.0, 4 - (time.monotonic() - stopped)))
        own_postgres.start()
        try:
            # The rest of the job: generous, since CI machines are shared, but within pytest's own 300 s
            # so that a hang shows the worker's log and what enqueue --wait said, not only our stack.
            out, err = waiting.communicate(timeout=200)
        except subprocess.TimeoutExpired:
            waiting.kill()
            _, said = waiting.communicate()
            pytest.fail(f"the job did not finish after the outage; enqueue --wait said:\n{said[-2000:]}\n"
                        f"worker log:\n{_without_sweeps(worker)}\nthe worker's stacks:\n{worker.stacks()}\n"
                        f"broker: {fleet.broker_state()}")
    finally:
        if waiting.poll() is None:
            waiting.kill()
            waiting.wait()
    assert waiting.returncode == 0, err + worker.text()[-3000:]
    assert "cannot read jobs from" in err and "still waiting for job" in err, err
    first, status = (json.loads(line) for line in out.splitlines())   # the job at once, then its end
    assert first["job"] == status["job"]
    job_id = status["job"]
    assert (status["state"], status["requested"], status["stored"], status["failed"]) == ("done", COUNT, COUNT, 0)
    boards = fleet.boards(job_id)
    assert len(boards) == COUNT == len({b["id"] for b in boards})
    db = store.make_engine(own_postgres.url)
    try:
        with store.session(db, read_only=True) as s:
            assert store.count_job_boards(session=s, job_id=job_id) == COUNT
            assert store.count_boards(session=s) == COUNT          # no board stored outside its slot
    finally:
        db.dispose()
    # The outage was seen and retried (not waited out in silence), and the worker is still serving.
    assert re.search(r"Retry in \d", worker.text()), worker.text()[-3000:]
    # It is one WARNING when it begins and one when it ends (the retries between at INFO), nothing at
    # ERROR or CRITICAL: no work was lost. Celery's own WARNING of a soft limit reached is a hand-over,
    # not a fault (a board that overran the work budget on a busy machine): the counts above show it lost
    # nothing.
    loud = [line for line in worker.text().splitlines() if re.search(r": (WARNING|ERROR|CRITICAL)/", line)
            and not re.search(r"WARNING/MainProcess\] Soft time limit \([\d.]+s\) exceeded for puzzlefleet\.", line)]
    assert len(loud) == 2, loud
    assert "the store does not answer" in loud[0] and "the store answers again" in loud[1], loud
    assert worker.popen.poll() is None
    text = _metrics(metrics_port)
    assert "puzzlefleet_job_summary_up 1.0" in text
    assert re.search(r'^puzzlefleet_slot_tasks_total\{game="starbattle",outcome="retry"\} [1-9]', text, re.M)


def test_housekeeping_rides_out_a_database_outage_and_a_broker_restart_without_a_traceback(
        own_postgres: OwnPostgres, tmp_path: Path, fleet_factory) -> None:
    """Beat's sweep and the daily set retry a store that does not answer with the generation tasks'
    backoff, one line per retry; a broker restart costs the worker and beat a few lines too. Neither
    log holds a traceback."""
    redis = OwnRedis(tmp_path)
    try:
        redis_proc = redis.start()
        # A visibility timeout of 30 s lets a retry wait up to 15 s: 12 retries then span about a minute
        # (at least 20 s but for one run in thousands), where the fleet tests' 5 s leaves about 12 s.
        fleet: Fleet = fleet_factory(own_postgres.url, broker=redis.url, PUZZLEFLEET_RESUME_INTERVAL="1",
                                     PUZZLEFLEET_STALL_SECONDS="3", PUZZLEFLEET_VISIBILITY_TIMEOUT="30")
        worker = fleet.worker("w1", concurrency=2, queues="starbattle,queens,fleet")
        beat = fleet.beat()
        done = fleet.cli("enqueue", "--game", "queens", "--size", "6", "--count", "2", "--seed", "1", "--wait")
        assert done.returncode == 0, done.stderr
        wait_for(lambda: "puzzlefleet.resume_stalled" in worker.text() and "succeeded" in worker.text(), 30,
                 "a first sweep")
        own_postgres.stop("immediate")
        down = time.monotonic()
        send_raw(redis.url, (["2026-01-01"], "fleet"), name="puzzlefleet.daily")
        wait_for(lambda: worker.text().count("retry: Retry in") >= 4, 30, "the housekeeping tasks to retry")
        time.sleep(max(0.0, 20 - (time.monotonic() - down)))             # a 20 s outage
        own_postgres.start()
        back = len(worker.text())
        wait_for(lambda: re.search(r"Task puzzlefleet\.resume_stalled\[\S+\] succeeded", worker.text()[back:]), 60,
                 "a sweep once the store answers")
        try:
            wait_for(lambda: re.search(r"Task puzzlefleet\.daily\[\S+\] succeeded", worker.text()), 240,
                     "the daily set once the store answers")
        except AssertionError as exc:
            raise AssertionError(f"{exc}; worker log without the sweeps:\n{_without_sweeps(worker)}") from None
        redis_proc.kill()                                                # the broker restarts, empty
        time.sleep(1.0)
        redis.start()
        restarted = len(worker.text())
        workers = [worker, *fleet.revive()]
        if len(workers) > 1:
            restarted = 0
        try:
            wait_for(lambda: re.search(r"Task puzzlefleet\.resume_stalled\[\S+\] succeeded",
                                       workers[-1].text()[restarted:]), 90, "a sweep after the broker restart")
        except AssertionError as exc:
            raise AssertionError(f"{exc}; worker log:\n{workers[-1].text()[-6000:]}\nbeat log:\n"
                                 f"{beat.text()[-3000:]}") from None
        sent = fleet.cli("enqueue", "--game", "queens", "--size", "6", "--count", "2", "--seed", "2", "--wait")
        assert sent.returncode == 0, sent.stderr
        assert "retry: Retry in" in worker.text()
        assert beat.popen.poll() is None, beat.text()[-3000:]
        for proc in (*workers, beat):
            assert "Traceback" not in proc.text(), proc.text()[-6000:]
            assert "raised unexpected" not in proc.text(), proc.text()[-3000:]
    finally:
        for proc in fleet.procs if "fleet" in locals() else ():
            proc.stop()
        redis.stop()
