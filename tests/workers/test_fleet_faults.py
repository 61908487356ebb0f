"""Faults with a real fleet: a worker SIGKILLed mid-job (SQLite WAL and PostgreSQL), and a Redis server
of the test's own killed and restarted empty mid-job. Each ends with exactly the requested boards."""

from __future__ import annotations

import json
import shutil
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import store
from tests.workers.conftest import Fleet, Proc, free_port, make_db_url, redis_client, wait_for

pytestmark = [pytest.mark.fleet, pytest.mark.slow, pytest.mark.xdist_group("faults")]


def _enqueue(fleet: Fleet, *args: str) -> int:
    result = fleet.cli("enqueue", *args, "--json")
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)["job"]


def _assert_exactly(fleet: Fleet, job_id: int, n: int) -> None:
    status = fleet.wait_job(job_id, timeout=120)
    assert (status["state"], status["stored"], status["failed"]) == ("done", n, 0), status
    boards = fleet.boards(job_id)
    assert len(boards) == n == len({b["id"] for b in boards})
    assert len(fleet.boards()) == n          # nothing stored outside the job's slots either
    engine = store.make_engine(fleet.db_url)
    try:
        with store.session(engine, read_only=True) as s:
            assert store.count_job_boards(session=s, job_id=job_id) == n
            assert store.unfinished_slots(session=s, job_id=job_id) == []
    finally:
        engine.dispose()


@pytest.mark.parametrize("kind", ["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def test_a_worker_killed_mid_job_still_lands_exactly_n_boards(kind: str, tmp_path: Path,
                                                              request: pytest.FixtureRequest,
                                                              fleet_factory: Callable[..., Fleet]) -> None:
    # Beat runs as in production: a worker killed in the instant between taking a message from Redis
    # and recording it as unacknowledged loses that message (kombu's Redis transport), and only the
    # sweep for stalled jobs sends its slots again. The stall time exceeds the visibility timeout,
    # so redelivery, not the sweep, brings back what the killed worker held.
    fleet = fleet_factory(make_db_url(kind, tmp_path, request), PUZZLEFLEET_RESUME_INTERVAL="1",
                          PUZZLEFLEET_STALL_SECONDS="10")
    first = fleet.worker("w1")
    fleet.beat()
    n = 300
    # 12x12 boards: the job must outlast enqueue's own second (its check for a consuming worker).
    job_id = _enqueue(fleet, "--game", "queens", "--size", "12", "--count", str(n), "--seed", "5")
    wait_for(lambda: fleet.job(job_id)["stored"] >= 25, 60, "the first boards")
    first.kill()                                  # SIGKILL: main process and pool, nothing acknowledged
    held = redis_client(fleet.broker).hlen("unacked")
    stored_at_kill = fleet.job(job_id)["stored"]
    assert held > 0, "the killed worker should have held unacknowledged tasks"
    assert stored_at_kill < n
    fleet.worker("w2")                            # gets the queue now, the killed one's tasks after 5 s
    _assert_exactly(fleet, job_id, n)
    # the killed worker's tasks come back after the visibility timeout and find their slots finished
    wait_for(lambda: redis_client(fleet.broker).hlen("unacked") == 0, 30, "the abandoned tasks to be redone")
    _assert_exactly(fleet, job_id, n)


@pytest.fixture
def own_redis(tmp_path: Path) -> Any:
    """A redis-server of this test's own on a free port (the machine's Redis is shared: not restarted)."""
    exe = shutil.which("redis-server")
    if exe is None:
        import os
        if os.environ.get("CI"):
            pytest.fail("redis-server is required under CI")
        pytest.skip("redis-server not installed")
    port = free_port()
    procs: list[Proc] = []

    def start() -> Proc:
        proc = Proc(f"redis-{len(procs)}", [exe, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                                            "--appendonly", "no", "--daemonize", "no"], {}, tmp_path)
        procs.append(proc)
        proc.wait_for_log("Ready to accept connections", timeout=20)
        return proc

    start.url = f"redis://127.0.0.1:{port}/0"     # type: ignore[attr-defined]
    yield start
    for proc in procs:
        proc.stop(grace=5)


def test_a_redis_restart_mid_job_still_lands_exactly_n_boards(tmp_path: Path, own_redis: Any,
                                                              fleet_factory: Callable[..., Fleet]) -> None:
    """Redis dies (SIGKILL) and comes back empty: every queued task is lost. The worker reconnects;
    beat's sweep finds the stalled job and sends its unfinished slots again; slots already stored are
    not stored twice."""
    redis_proc = own_redis()
    fleet = fleet_factory(f"sqlite:///{tmp_path / 'puzzles.db'}", broker=own_redis.url,
                          PUZZLEFLEET_RESUME_INTERVAL="1", PUZZLEFLEET_STALL_SECONDS="3")
    worker = fleet.worker("w1")
    fleet.beat()
    n = 300
    job_id = _enqueue(fleet, "--game", "queens", "--size", "12", "--count", str(n), "--seed", "9")
    wait_for(lambda: fleet.job(job_id)["stored"] >= 25, 60, "the first boards")
    redis_proc.kill()
    stored_at_kill = fleet.job(job_id)["stored"]
    assert stored_at_kill < n
    time.sleep(1.0)
    own_redis()                                   # the same port, nothing in it
    workers = [worker]
    # Now and then the worker's main process dies on the lost connection instead of reconnecting (a
    # race in kombu's Redis transport: "Unrecoverable error: AttributeError ... 'hostname'"). In
    # production systemd (Restart=on-failure) or Kubernetes starts it again; here the test does.
    time.sleep(3.0)
    if worker.popen.poll() is not None:
        assert "Unrecoverable error" in worker.text(), worker.text()[-3000:]
        workers.append(fleet.worker("w2"))
    _assert_exactly(fleet, job_id, n)
    logs = "".join(w.text() for w in workers)
    assert "resume_stalled" in logs and "'resumed': {'" in logs
