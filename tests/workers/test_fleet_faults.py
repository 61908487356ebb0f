"""Faults with a real fleet: a worker SIGKILLed mid-job (SQLite WAL and PostgreSQL; on each broker, with
a worker waiting to take its tasks again), a Redis server of the test's own killed and restarted
empty mid-job, and a RabbitMQ node of the test's own killed and restarted mid-job. Each ends with
exactly the requested boards."""

from __future__ import annotations

import json
import os
import re
import subprocess
import threading
import time
from dataclasses import dataclass
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import store
from tests.workers.conftest import (BIN, BROKERS, DEFAULT_SETTINGS, Fleet, OwnRabbit, OwnRedis, add_consumer,
                                    assert_exactly, is_amqp, make_db_url, redis_client, send_raw, wait_for)

# All but one are in the slow lane; a killed worker whose tasks go to a waiting one, on both brokers, is
# the default lane's twin of the fault scenarios.
pytestmark = [pytest.mark.fleet, pytest.mark.xdist_group("faults")]


@pytest.mark.slow
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
    n = 200
    # Star Battle 10x10 2-star boards (tens of ms each): the job must outlast enqueue's own second (its
    # check for a consuming worker) and the poll below by seconds, so the kill finds tasks in hand;
    # with 300 Queens 12x12 boards the kill once found no task in hand on a loaded machine.
    job_id = fleet.enqueue("--game", "starbattle", "--size", "10", "--stars", "2", "--count", str(n),
                           "--seed", "5")["job"]
    fleet.wait_stored(job_id, 25)
    first.kill()                                  # SIGKILL: main process and pool, nothing acknowledged
    held = redis_client(fleet.broker).hlen("unacked")
    stored_at_kill = fleet.job(job_id)["stored"]
    assert held > 0, "the killed worker should have held unacknowledged tasks"
    assert stored_at_kill < n
    fleet.worker("w2")                            # gets the queue now, the killed one's tasks after 5 s
    assert_exactly(fleet, job_id, n)
    # the killed worker's tasks come back after the visibility timeout and find their slots finished
    wait_for(lambda: redis_client(fleet.broker).hlen("unacked") == 0, 30, "the abandoned tasks to be redone")
    assert_exactly(fleet, job_id, n)


@pytest.mark.slow
@pytest.mark.postgres
def test_a_soft_limit_that_cuts_a_store_call_short_costs_one_retry(tmp_path: Path, request: pytest.FixtureRequest,
                                                                   fleet_factory: Callable[..., Fleet]) -> None:
    """The test locks the slot table against writes, so the task's next store call waits on it when the
    task's soft limit comes, and the limit is raised in the middle of that query. The connection it cut
    short is closed, never pooled again: the task is retried once the lock is let go, and the job ends
    whole. Pooled again, the connection would still have its command in flight and its transaction open
    on the server, holding its slots' rows: every later store call on it would fail ("another command is
    already in progress") and every delivery of those slots would wait on them until its own soft limit."""
    url = make_db_url("postgresql", tmp_path, request)
    fleet = fleet_factory(url, PUZZLEFLEET_SOFT_TIME_LIMIT="3", PUZZLEFLEET_TIME_LIMIT="20",
                          PUZZLEFLEET_VISIBILITY_TIMEOUT="30")
    worker = fleet.worker("w1", concurrency=2)
    n = 120
    job_id = fleet.enqueue("--game", "starbattle", "--size", "10", "--stars", "2", "--count", str(n),
                           "--seed", "8")["job"]
    fleet.wait_stored(job_id, 1)
    db = store.make_engine(url)
    try:
        with db.begin() as conn:
            conn.exec_driver_sql("LOCK TABLE job_slot IN EXCLUSIVE MODE")
            wait_for(lambda: re.search(r" retry: .*SoftTimeLimitExceeded", worker.text()), 30,
                     "a task's soft limit during its store call")
    finally:
        db.dispose()
    assert_exactly(fleet, job_id, n)
    log = worker.text()
    assert "already in progress" not in log and "Traceback" not in log, log[-3000:]


@dataclass
class KillRun:
    """What kill_with_a_worker_waiting saw: the job, the two tasks the killed worker held, and the
    seconds from the SIGKILL until the waiting worker received each of them again."""
    job: int
    held: list[str]
    taken_again: dict[str, float]


def kill_with_a_worker_waiting(fleet: Fleet, *, slots: int = 150, within: float = 60.0) -> KillRun:
    """w1 (two pool processes) takes a job's two tasks of `slots` Queens 12x12 slots each; w2 (two
    pool processes too), already running on the `fleet` queue only, is then told to consume `queens`
    as well, so it is idle and not starting up when it matters; then w1 is SIGKILLed mid-task. Waits
    up to `within` seconds for w2 to receive both tasks again. Run the fleet with a split time longer
    than the tasks (PUZZLEFLEET_SPLIT_SECONDS), so that they keep their slots."""
    waiting = fleet.worker("w2", queues="fleet")
    first = fleet.worker("w1", queues="queens,fleet")
    job_id, params = fleet.new_job(2 * slots, size=12)
    held = send_raw(fleet.broker, ([job_id, 0, slots, params, 99], "queens"),
                    ([job_id, slots, 2 * slots, params, 99], "queens"))
    wait_for(lambda: all(f"generate_slots[{task}] received" in first.text() for task in held), 30,
             "w1 to take both tasks")
    add_consumer(fleet.broker, "queens", "w2@test")
    waiting.wait_for_log("Started consuming from queens", timeout=10)
    mark = len(waiting.text())
    first.kill()
    killed = time.monotonic()
    taken: dict[str, float] = {}

    def both_taken() -> bool:
        text = waiting.text()[mark:]
        for task in held:
            if task not in taken and f"generate_slots[{task}] received" in text:
                taken[task] = time.monotonic() - killed
        return len(taken) == len(held)
    wait_for(both_taken, within, "w2 to receive the killed worker's tasks again", interval=0.02)
    return KillRun(job_id, held, taken)


@pytest.mark.parametrize("broker", BROKERS, indirect=True)
def test_a_killed_workers_tasks_go_to_a_waiting_worker(broker: str, tmp_path: Path,
                                                       fleet_factory: Callable[..., Fleet]) -> None:
    """RabbitMQ hands a SIGKILLed worker's unacknowledged tasks to another worker as soon as its
    connection closes; Redis only once the visibility timeout (10 s here: tasks of up to 8 s, so that
    the kill finds them running) has passed since the worker took them. Either way the job ends exact."""
    fleet = fleet_factory(f"sqlite:///{tmp_path / 'puzzles.db'}", broker, PUZZLEFLEET_VISIBILITY_TIMEOUT="10",
                          PUZZLEFLEET_TIME_LIMIT="8", PUZZLEFLEET_SPLIT_SECONDS="600")
    run = kill_with_a_worker_waiting(fleet, slots=100)
    assert fleet.job(run.job)["stored"] < 200, "the job finished before the kill: make it longer"
    assert_exactly(fleet, run.job, 200)
    if is_amqp(broker):
        assert max(run.taken_again.values()) < 3.0, run.taken_again          # at once (measured: ~0.1 s)
    else:
        assert min(run.taken_again.values()) > 4.0, run.taken_again          # after the visibility timeout


@pytest.mark.slow
def test_a_rabbitmq_restart_mid_job_loses_no_message(tmp_path: Path, own_rabbit: OwnRabbit,
                                                     fleet_factory: Callable[..., Fleet]) -> None:
    """A RabbitMQ node of the test's own is SIGKILLed mid-job and started again: its quorum queues are
    on disk, so every task waiting or unacknowledged is there again; the worker reconnects by itself
    and the job ends exact. No beat runs: nothing was sent again, nothing had to be.

    Production's time limits: the worker's event loop waits out its reconnection (about 20 s here), and
    a hard limit shorter than that (the suite's usual 4 s) would then fire late, killing a pool process
    that has moved on to another task."""
    fleet = fleet_factory(f"sqlite:///{tmp_path / 'puzzles.db'}", broker=own_rabbit.url, **DEFAULT_SETTINGS)
    worker = fleet.worker("w1")
    n = 200
    # Star Battle 10x10 2-star boards (tens of ms each), so that the job outlasts the poll below by
    # seconds: 300 Queens 12x12 boards once finished before the node was killed.
    job_id = fleet.enqueue("--game", "starbattle", "--size", "10", "--stars", "2", "--count", str(n),
                           "--seed", "9")["job"]
    fleet.wait_stored(job_id, 25)
    own_rabbit.kill()
    assert fleet.job(job_id)["stored"] < n
    time.sleep(1.0)
    own_rabbit.start()
    assert_exactly(fleet, job_id, n)
    assert worker.popen.poll() is None, worker.text()[-3000:]          # it reconnected, no restart needed
    assert "Traceback" not in worker.text(), worker.text()[-3000:]


@pytest.mark.slow
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
    n = 200
    # Star Battle 10x10 2-star boards, as above: the job must outlast the poll by seconds.
    job_id = fleet.enqueue("--game", "starbattle", "--size", "10", "--stars", "2", "--count", str(n),
                           "--seed", "9")["job"]
    fleet.wait_stored(job_id, 25)
    redis_proc.kill()
    stored_at_kill = fleet.job(job_id)["stored"]
    assert stored_at_kill < n
    time.sleep(1.0)
    own_redis()                                   # the same port, nothing in it
    workers = [worker, *fleet.revive()]
    assert_exactly(fleet, job_id, n)
    logs = "".join(w.text() for w in workers)
    assert "resume_stalled" in logs and "'resumed': {'" in logs


@dataclass
class WipeRun:
    """What broker_wipe_under_load saw: the jobs in flight at the wipe and when each finished (seconds
    after the wipe), the jobs fed meanwhile, and the sweep's log lines."""
    jobs: list[int]
    stored_at_wipe: int             # boards of the first jobs already stored when Redis went
    finished_after: dict[int, float]
    fed: list[int]
    open_fed_at_end: int            # fed jobs not yet finished when the first jobs all were
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
    for i in (1, 2):
        fleet.worker(f"w{i}", concurrency=1, queues="queens,fleet")
    fleet.beat()
    sending = [subprocess.Popen([str(BIN / "puzzlefleet"), "enqueue", "--game", "queens", "--size", str(size),
                                 "--count", str(boards), "--seed", str(100 + i), "--json"], env=fleet.env, cwd=fleet.tmp,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
               for i in range(jobs)]              # at once: all of them in flight together
    said = [p.communicate(timeout=60) for p in sending]
    assert all(out for out, _ in said), [(p.returncode, err) for p, (_, err) in zip(sending, said)]
    first = sorted(json.loads(out.splitlines()[0])["job"] for out, _ in said)
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
        fleet.wait_stored(first[0], 1)
        redis_proc.kill()                     # SIGKILL, no persistence: every queue and unacked message gone
        wiped = time.monotonic()
        stored_at_wipe = sum(fleet.job(job_id)["stored"] for job_id in first)
        time.sleep(1.0)
        redis.start()
        fleet.revive()
        finished: dict[int, float] = {}
        open_fed = 0

        def all_finished() -> bool:
            nonlocal open_fed
            for job_id in first:
                if job_id not in finished and fleet.job(job_id)["state"] in store.FINAL_STATES:
                    finished[job_id] = time.monotonic() - wiped
            if len(finished) < len(first):
                return False
            # counted when the first jobs are done, not after the feeder stops (its last enqueue may
            # take a while against the new Redis, and the fed jobs go on finishing meanwhile)
            open_fed = sum(fleet.job(job_id)["state"] not in store.FINAL_STATES for job_id in list(fed))
            return True
        try:
            wait_for(all_finished, within - (time.monotonic() - wiped), "the first jobs to finish", interval=0.25)
        except AssertionError:
            logs = "\n".join(f"--- {p.name}\n{p.text()[-3000:]}" for p in fleet.procs)
            raise AssertionError(f"finished {finished} of {first} within {within} s of the wipe; "
                                 f"{fleet.broker_state()}\n{logs}") from None
    finally:
        stop.set()
        feeder.join(timeout=90)
    logs = "".join(p.text() for p in fleet.procs if p.name != "beat")
    resent = [line for line in logs.splitlines() if "slots sent again after" in line]
    return WipeRun(first, stored_at_wipe, finished, fed, open_fed, resent, logs)


@pytest.mark.slow
def test_a_broker_wipe_under_load_is_recovered_in_seconds(tmp_path: Path, own_redis: OwnRedis,
                                                          fleet_factory: Callable[..., Fleet]) -> None:
    """Six jobs in flight when Redis loses everything, while new jobs keep arriving faster than two
    workers serve them: beat's sweep sends each stalled job's untaken slots again, ahead of the newer
    work, and the six finish soon after, exactly. Scaled for the suite (stall 6 s, sweep every 2 s,
    45 s); bench/bench_broker_wipe.py runs it at full size (stall 20 s, sweep 10 s, 90 s)."""
    fleet = fleet_factory(f"sqlite:///{tmp_path / 'puzzles.db'}", broker=own_redis.url,
                          PUZZLEFLEET_RESUME_INTERVAL="2", PUZZLEFLEET_STALL_SECONDS="6")
    # Sized for the default (composed) Queens 12x12 at a few milliseconds a board: 1,800 boards, several
    # seconds of the two workers' time, so that most of them are still to make when Redis goes (120
    # each were once all made by then, and the sweep had nothing to send); a feed the two workers
    # cannot keep up with.
    boards = 300
    run = broker_wipe_under_load(fleet, own_redis, jobs=6, boards=boards, feed_boards=3000, within=45.0)
    assert run.stored_at_wipe < 6 * boards // 2, run.stored_at_wipe       # the wipe came mid-work
    for job_id in run.jobs:
        assert_exactly(fleet, job_id, boards, alone=False)
    # The load was real: new jobs were still waiting when the six were done.
    assert run.open_fed_at_end > 0, ([(j, fleet.job(j)["state"], fleet.job(j)["stored"]) for j in run.fed],
                                     run.finished_after)
    # The sweep said what it sent, job by job, and never blamed a missing worker.
    resent_jobs = {int(line.split("job ", 1)[1].split(":", 1)[0]) for line in run.resent}
    assert set(run.jobs) & resent_jobs, run.resent
    assert "is a worker consuming it?" not in run.logs
    assert "Traceback" not in run.logs, run.logs[-3000:]


@pytest.mark.slow
def test_a_daily_set_longer_than_the_soft_time_limit_is_finished_by_retries(
        tmp_path: Path, fleet_factory: Callable[..., Fleet]) -> None:
    """The day's set needs more time than one task has: the task stops within its work budget (the soft
    limit, 1.2 s, less 0.5 s), every board made is stored at once, so each retry (sent at once: a
    hand-over, not a fault) makes only the rest. One "Retry in" line per hand-over, no traceback, and
    the set is whole.

    The work is made slow, not the limit short, and slow by the clock, not by the CPU: the plan is 60
    toy Latin squares (tests/toygame, loaded through PUZZLEFLEET_GAMES), each made to take 50 ms more
    (TOY_LATIN_SECONDS), so the set takes over four times the budget and no board a seventh of it on
    any machine. (It used the default plan with a 0.7 s limit: 0.9 s of CPU here against a 0.45 s
    budget, the slowest board 0.26 s, so a machine twice as fast needed no retry and one twice as slow
    could not fit its slowest board.) A body that ended just as the soft limit fired would get Celery's
    traceback ("raised outside body"), and so would Celery's own handling of a retry that started too
    close to it: the budget keeps both well inside."""
    plan = "; ".join(["latin 5, easy"] * 60)
    toygame = str(Path(__file__).resolve().parents[1] / "toygame")
    fleet = fleet_factory(f"sqlite:///{tmp_path / 'puzzles.db'}", PUZZLEFLEET_SOFT_TIME_LIMIT="1.2",
                          PUZZLEFLEET_TIME_LIMIT="4.5", PUZZLEFLEET_VISIBILITY_TIMEOUT="7", PUZZLEFLEET_DAILY_PLAN=plan, PUZZLEFLEET_GAMES="toy_latin",
                          TOY_LATIN_SECONDS="0.05",
                          PYTHONPATH=os.pathsep.join(filter(None, [toygame, os.environ.get("PYTHONPATH")])))
    worker = fleet.worker("w1", concurrency=1, queues="fleet")
    send_raw(fleet.broker, (["2026-04-28"], "fleet"), name="puzzlefleet.daily")
    wait_for(lambda: re.search(r"Task puzzlefleet\.daily\[\S+\] succeeded", worker.text()), 120, "the daily set")
    log = worker.text()
    retries = re.findall(r"Task puzzlefleet\.daily\[\S+\] retry: Retry in 0s: .*(?:OutOfBudget|SoftTimeLimitExceeded)", log)
    assert len(retries) >= 2, log[-3000:]
    assert "Traceback" not in log and "gave up" not in log, log[-6000:]
    shown = fleet.cli("daily", "--date", "2026-04-28", "--json")
    assert shown.returncode == 0, shown.stderr
    assert len(shown.stdout.splitlines()) == 60
