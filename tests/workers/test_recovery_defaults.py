"""Recovery with the settings people run (no PUZZLEFLEET_* overrides), on both brokers:

- a SIGKILLed worker's tasks go to a waiting worker within 60 s on Redis (its messages' visibility
  timeout, 45 s, passes) and at once on RabbitMQ; a task that runs as long as a task may (its work
  budget, under its 30 s hard limit) stays with its live worker, received once;
- a SIGKILLed pool process's task is taken again within seconds (Celery's wait for a lost process's
  result is 1 s, not 10, and the task is sent again ahead of the backlog);
- a backlog is not a stall: jobs whose slots wait in a queue behind older work are never sent again."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import pytest
from sqlalchemy import text

import store

from tests.workers.conftest import BROKERS, DEFAULT_SETTINGS, Fleet, assert_exactly, is_amqp, send_raw, wait_for
from tests.workers.test_fleet_faults import kill_with_a_worker_waiting

pytestmark = [pytest.mark.fleet, pytest.mark.slow, pytest.mark.xdist_group("faults-recovery")]

DEFAULTS = DEFAULT_SETTINGS             # conftest's fleet sets short limits


@pytest.mark.parametrize("broker", BROKERS, indirect=True)
def test_a_killed_workers_tasks_are_taken_again_within_a_minute_by_default(
        broker: str, tmp_path: Path, fleet_factory: Callable[..., Fleet]) -> None:
    fleet = fleet_factory(f"sqlite:///{tmp_path / 'puzzles.db'}", broker, PUZZLEFLEET_SPLIT_SECONDS="600",
                          **DEFAULTS)
    run = kill_with_a_worker_waiting(fleet, slots=100, within=60.0)
    assert_exactly(fleet, run.job, 200)
    if is_amqp(broker):
        assert max(run.taken_again.values()) < 3.0, run.taken_again          # at once
    else:
        assert 30.0 < min(run.taken_again.values()) <= max(run.taken_again.values()) < 55.0, run.taken_again


@pytest.mark.xdist_group("long-task")       # kills nothing: beside the fault tests, not after them
def test_a_task_as_long_as_a_task_may_be_stays_with_its_live_worker(tmp_path: Path,
                                                                     fleet_factory: Callable[..., Fleet]) -> None:
    """One task of 2,000 Star Battle 10x10 2-star slots (tens of ms each: more than a task may do) on the
    default limits: it works for its whole budget, hands the rest over and ends within its hard limit,
    under the visibility timeout, so no worker's sweep for abandoned messages hands it out again: it is
    received once."""
    fleet = fleet_factory(f"sqlite:///{tmp_path / 'puzzles.db'}", PUZZLEFLEET_SPLIT_SECONDS="600", **DEFAULTS)
    worker = fleet.worker("w1", concurrency=2, queues="starbattle,fleet")
    job_id, params = fleet.new_job(2000, game="starbattle", size=10, stars=2)
    (task,) = send_raw(fleet.broker, ([job_id, 0, 2000, params, 99], "starbattle"))
    succeeded = f"generate_slots[{task}] succeeded in "
    worker.wait_for_log(succeeded, timeout=120)
    took = float(re.search(rf"{re.escape(succeeded)}([\d.]+)s", worker.text()).group(1))
    assert 20.0 < took < 30.0, f"the task ({took:.1f} s) should work its whole budget, within its hard limit"
    time.sleep(50 - took)           # past the visibility timeout (45 s) since the task was taken
    assert worker.text().count(f"generate_slots[{task}] received") == 1, worker.text()[-3000:]


def _children(pid: int) -> list[int]:
    out = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True)
    return [int(line) for line in out.stdout.split()]


@pytest.mark.parametrize("broker", BROKERS, indirect=True)
def test_a_killed_pool_process_s_task_is_taken_again_at_once(broker: str, tmp_path: Path,
                                                             fleet_factory: Callable[..., Fleet]) -> None:
    """Four jobs of eight tasks of 20 Queens 12x12 slots each wait for one worker with two pool
    processes; both processes are SIGKILLed mid-task: their tasks are received again within 5 s, ahead
    of the backlog, and every job ends exact."""
    fleet = fleet_factory(f"sqlite:///{tmp_path / 'puzzles.db'}", broker, PUZZLEFLEET_SPLIT_SECONDS="600",
                          **DEFAULTS)
    jobs = [fleet.enqueue("--game", "queens", "--size", "12", "--count", "160", "--seed", str(seed))["job"]
            for seed in range(4)]
    worker = fleet.worker("w1", concurrency=2, queues="queens,fleet")
    wait_for(lambda: worker.text().count(" received") >= 3, 30, "the worker to be under way")
    mark = len(worker.text())
    for child in _children(worker.popen.pid):
        os.kill(child, signal.SIGKILL)
    killed = time.monotonic()

    def taken_again() -> bool:
        received = re.findall(r"generate_slots\[([0-9a-f-]+)\] received", worker.text())
        return any(received.count(task) > 1 for task in set(received))
    wait_for(taken_again, 60, "a killed process's task to be received again", interval=0.05)
    took = time.monotonic() - killed
    for job_id in jobs:
        assert_exactly(fleet, job_id, 160, alone=False)
    assert took < 5.0, (took, worker.text()[mark:][-3000:])


@dataclass
class BacklogRun:
    """What backlog_without_faults saw: the jobs, the longest any waited for its first board, how many
    sweeps ran, and the slots they sent again."""
    jobs: list[int]
    longest_wait: float
    sweeps: int
    resent: int
    logs: str


def backlog_without_faults(fleet: Fleet, *, jobs: int = 12, boards: int = 60, size: int = 12,
                           within: float = 240.0) -> BacklogRun:
    """One worker with one pool process and beat; `jobs` jobs of `boards` Queens boards sent at once, so
    that most wait behind the others far longer than the stall time, some of them while running (their
    handed-over ranges queue behind older work). Returns once every job has finished (exact)."""
    worker = fleet.worker("w1", concurrency=1, queues="queens,fleet")
    made = [fleet.new_job(boards, size=size) for _ in range(jobs)]
    # Sent as enqueue sends them (workers.tasks.enqueue_slots), all from one process: faster than
    # `puzzlefleet enqueue` after `puzzlefleet enqueue`, which the worker kept up with.
    send = ("from jobs.params import JobParams; from workers.tasks import enqueue_slots; "
            f"[enqueue_slots(job, JobParams.from_json(params), 99, {boards}) for job, params in {made!r}]")
    out = subprocess.run([sys.executable, "-c", send], env=fleet.env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    # The sweep starts once every message is sent: the jobs' rows are made first, and on a busy machine
    # the sender's start-up alone can outlast the stall time, while their queue is still empty (enqueue
    # makes a job and sends it within one process).
    fleet.beat()
    sent = [job for job, _ in made]
    longest = 0.0
    for job_id in sent:
        status = fleet.wait_job(job_id, timeout=within)
        assert (status["state"], status["stored"]) == ("done", boards), status
    for job_id in sent:
        assert_exactly(fleet, job_id, boards, alone=False)
    engine = store.make_engine(fleet.db_url)
    try:
        with store.session(engine, read_only=True) as s:
            first = s.execute(text("SELECT job_id, MIN(updated_at) FROM job_slot GROUP BY job_id")).all()
            created = dict(s.execute(text("SELECT id, created_at FROM job")).all())
    finally:
        engine.dispose()
    for job_id, moment in first:
        began = created[job_id]
        moment, began = (datetime.fromisoformat(str(v)) for v in (moment, began))
        longest = max(longest, (moment - began).total_seconds())
    logs = worker.text()
    resent = sum(int(n) for n in re.findall(r"job \d+: (\d+) slots sent again", logs))
    return BacklogRun(sent, longest, logs.count("puzzlefleet.resume_stalled[") // 2, resent, logs)


@pytest.mark.parametrize("broker", BROKERS, indirect=True)
def test_a_backlog_is_not_a_stall(broker: str, tmp_path: Path, fleet_factory: Callable[..., Fleet]) -> None:
    """Twelve jobs are sent at once to one worker with one pool process, the stall time 2 s and a sweep
    every second: no slot is sent again, every job ends exact (before, the sweep sent again every job
    that had waited its turn past the stall time)."""
    fleet = fleet_factory(f"sqlite:///{tmp_path / 'puzzles.db'}", broker, PUZZLEFLEET_STALL_SECONDS="2",
                          PUZZLEFLEET_RESUME_INTERVAL="1")
    run = backlog_without_faults(fleet)
    assert run.longest_wait > 10, "the jobs should have waited past the stall time: make the backlog longer"
    assert run.sweeps > 10, "the sweep should have run throughout"
    assert run.resent == 0 and "sent again" not in run.logs, \
        [line for line in run.logs.splitlines() if "sent again" in line]
    assert "'resumed': {'" not in run.logs
