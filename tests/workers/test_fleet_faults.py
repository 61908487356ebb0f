"""Faults with a real fleet: a worker SIGKILLed mid-job (SQLite WAL and PostgreSQL), and a Redis server
of the test's own killed and restarted empty mid-job. Each ends with exactly the requested boards."""

from __future__ import annotations

import json
import subprocess
import threading
import time
from dataclasses import dataclass
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import store
from tests.workers.conftest import BIN, Fleet, OwnRedis, make_db_url, redis_client, wait_for

pytestmark = [pytest.mark.fleet, pytest.mark.slow, pytest.mark.xdist_group("faults")]


def _enqueue(fleet: Fleet, *args: str) -> int:
    result = fleet.cli("enqueue", *args, "--json")
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)["job"]


def _assert_exactly(fleet: Fleet, job_id: int, n: int, *, alone: bool = True) -> None:
    """Job `job_id` ended done with exactly `n` boards, one per slot; `alone`: the only job of the store.
    With other jobs, every board stored is still counted by exactly one job's slots."""
    status = fleet.wait_job(job_id, timeout=120)
    assert (status["state"], status["stored"], status["failed"]) == ("done", n, 0), status
    boards = fleet.boards(job_id)
    assert len(boards) == n == len({b["id"] for b in boards})
    if alone:
        assert len(fleet.boards()) == n          # nothing stored outside the job's slots either
    engine = store.make_engine(fleet.db_url)
    try:
        with store.session(engine, read_only=True) as s:
            assert store.count_job_boards(session=s, job_id=job_id) == n
            assert store.unfinished_slots(session=s, job_id=job_id) == []
            counted = sum(j["stored"] for j in store.list_jobs(session=s, limit=10_000))
            assert store.count_boards(session=s) == counted
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
def own_redis(tmp_path: Path) -> Iterator[OwnRedis]:
    """own_redis() starts a redis-server of this test's own, empty, on its port (own_redis.url)."""
    server = OwnRedis(tmp_path)
    yield server
    server.stop()


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


@dataclass
class WipeRun:
    """What broker_wipe_under_load saw: the jobs in flight at the wipe and when each finished (seconds
    after the wipe), the jobs fed meanwhile, and the sweep's log lines."""
    jobs: list[int]
    finished_after: dict[int, float]
    fed: list[int]
    open_fed_at_end: int
    resent: list[str]
    logs: str


def broker_wipe_under_load(fleet: Fleet, redis: OwnRedis, *, jobs: int = 6, boards: int = 10, size: int = 12,
                           feed_boards: int = 60, feed_pause: float = 0.5, within: float = 90.0) -> WipeRun:
    """Two workers (one pool process each) and beat on `redis`; `jobs` jobs of `boards` Queens boards
    are sent, then new jobs of `feed_boards` keep coming (one `puzzlefleet enqueue` after another, a
    pause between) faster than the workers serve them. Once the first jobs are under way Redis is
    killed and started again empty. Returns when the first jobs have all finished, or `within`
    seconds after the wipe (AssertionError). The fleet's settings (stall, sweep) come from `fleet`."""
    redis_proc = redis.start()
    workers = [fleet.worker(f"w{i}", concurrency=1, queues="queens,fleet") for i in (1, 2)]
    fleet.beat()
    sending = [subprocess.Popen([str(BIN / "puzzlefleet"), "enqueue", "--game", "queens", "--size", str(size),
                                 "--count", str(boards), "--seed", str(100 + i), "--json"], env=fleet.env, cwd=fleet.tmp,
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
               for i in range(jobs)]              # at once: all of them in flight together
    first = sorted(json.loads(p.communicate(timeout=60)[0].splitlines()[0])["job"] for p in sending)
    stop, fed = threading.Event(), []

    def feed() -> None:                       # bounded: ends when the test is done with it
        seed = 1000
        while not stop.is_set():
            result = fleet.cli("enqueue", "--game", "queens", "--size", str(size), "--count", str(feed_boards),
                               "--seed", str(seed), "--json", timeout=60)
            seed += 1
            if result.returncode in (0, 7) and result.stdout:
                fed.append(json.loads(result.stdout.splitlines()[0])["job"])
            stop.wait(feed_pause)

    feeder = threading.Thread(target=feed, name="feeder", daemon=True)
    feeder.start()
    try:
        wait_for(lambda: fleet.job(first[0])["stored"] > 0, 60, "the first jobs under way")
        redis_proc.kill()                     # SIGKILL, no persistence: every queue and unacked message gone
        wiped = time.monotonic()
        time.sleep(1.0)
        redis.start()
        # As in the restart test above: a worker's main process may die on the lost connection (kombu's
        # Redis transport); systemd or Kubernetes starts it again, here the test does.
        time.sleep(3.0)
        for i, worker in enumerate(list(workers)):
            if worker.popen.poll() is not None:
                assert "Unrecoverable error" in worker.text(), worker.text()[-3000:]
                workers.append(fleet.worker(f"w{i + 1}b", concurrency=1, queues="queens,fleet"))
        finished: dict[int, float] = {}

        def all_finished() -> bool:
            for job_id in first:
                if job_id not in finished and fleet.job(job_id)["state"] in store.FINAL_STATES:
                    finished[job_id] = time.monotonic() - wiped
            return len(finished) == len(first)
        try:
            wait_for(all_finished, within - (time.monotonic() - wiped), "the first jobs to finish", interval=0.25)
        except AssertionError:
            logs = "\n".join(f"--- {p.name}\n{p.text()[-3000:]}" for p in fleet.procs)
            raise AssertionError(f"finished {finished} of {first} within {within} s of the wipe; "
                                 f"{fleet.broker_state()}\n{logs}") from None
    finally:
        stop.set()
        feeder.join(timeout=90)
    open_fed = sum(fleet.job(job_id)["state"] not in store.FINAL_STATES for job_id in fed)
    logs = "".join(p.text() for p in fleet.procs if p.name != "beat")
    resent = [line for line in logs.splitlines() if "slots sent again after" in line]
    return WipeRun(first, finished, fed, open_fed, resent, logs)


def test_a_broker_wipe_under_load_is_recovered_in_seconds(tmp_path: Path, own_redis: OwnRedis,
                                                          fleet_factory: Callable[..., Fleet]) -> None:
    """Six jobs in flight when Redis loses everything, while new jobs keep arriving faster than two
    workers serve them: beat's sweep sends each stalled job's untaken slots again, ahead of the newer
    work, and the six finish soon after, exactly. Scaled for the suite (stall 6 s, sweep every 2 s,
    45 s); bench/bench_broker_wipe.py runs it at full size (stall 20 s, sweep 10 s, 90 s)."""
    fleet = fleet_factory(f"sqlite:///{tmp_path / 'puzzles.db'}", broker=own_redis.url,
                          PUZZLEFLEET_RESUME_INTERVAL="2", PUZZLEFLEET_STALL_SECONDS="6")
    # sized for the default (composed) Queens 12x12 at a few dozen milliseconds a board: jobs that
    # are still running when Redis goes, and a feed the two workers cannot keep up with
    run = broker_wipe_under_load(fleet, own_redis, jobs=6, boards=120, feed_boards=400, within=45.0)
    for job_id in run.jobs:
        _assert_exactly(fleet, job_id, 120, alone=False)
    # The load was real: new jobs were still waiting when the six were done.
    assert run.open_fed_at_end > 0, (run.fed, run.finished_after)
    # The sweep said what it sent, job by job, and never blamed a missing worker.
    resent_jobs = {int(line.split("job ", 1)[1].split(":", 1)[0]) for line in run.resent}
    assert set(run.jobs) & resent_jobs, run.resent
    assert "is a worker consuming it?" not in run.logs
    assert "Traceback" not in run.logs, run.logs[-3000:]
