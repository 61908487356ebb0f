"""A broker restart with the settings people run (no PUZZLEFLEET_* overrides): every task in flight comes
back, none is dropped because its retry or hand-over could not be sent while the broker was away, and
the job ends exact within a minute of the broker's return, beyond the time its boards left take at the pace
the fleet kept before the outage (the machine's load slows both alike). On Redis with its append-only file (as
docs/fleet.md runs it) and without (every queued task lost: beat's sweep sends the lost slots again), and on
RabbitMQ (quorum queues on disk)."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.workers.conftest import DEFAULT_SETTINGS, Fleet, assert_exactly

pytestmark = [pytest.mark.fleet, pytest.mark.slow, pytest.mark.xdist_group("faults")]

# Star Battle 10x10 2-star boards (tens of ms each), 50 slots a task: the job outlasts the broker's outage,
# and its tasks hand slots over (every 2 s) while the broker is away.
BOARDS = 400
OUTAGE = 4.0            # seconds: long enough that every running task hands over (every 2 s) or retries meanwhile
DEFAULTS = DEFAULT_SETTINGS             # conftest's fleet sets short limits
# Seconds past the remaining work: with the broker back empty, the stall time (45 s) and a sweep (every
# 10 s) pass before the lost slots are sent again.
RECOVERY = 90.0


class Broker:
    def __init__(self, url: str, kill: Callable[[], None], start: Callable[[], None]) -> None:
        self.url, self.kill, self.start = url, kill, start


@pytest.fixture(params=["redis-aof", "redis-empty", "rabbitmq"])
def restartable(request: pytest.FixtureRequest) -> Broker:
    if request.param.startswith("redis"):
        redis = request.getfixturevalue("own_redis")
        persist = request.param == "redis-aof"
        redis.start(persist=persist)
        return Broker(redis.url, lambda: redis.procs[-1].kill(), lambda: redis.start(persist=persist))
    rabbit = request.getfixturevalue("own_rabbit")
    return Broker(rabbit.url, rabbit.kill, rabbit.start)


@dataclass
class RestartRun:
    """What restart_mid_job saw: the job, the seconds from the broker's return until it finished, the
    seconds the boards not stored at the return take at the pace before the outage, the slots beat's
    sweep sent again, and the workers' logs."""
    job: int
    finished_after: float
    work_left: float
    resent: int
    logs: str
    beat: str


def restart_mid_job(fleet: Fleet, broker: Broker, *, boards: int = BOARDS, outage: float = OUTAGE,
                    within: float = 120.0) -> RestartRun:
    """One worker (two pool processes) and beat; a job of `boards` Star Battle 10x10 2-star boards; once
    20 are stored the broker is SIGKILLed, and started again `outage` seconds later. Returns once the
    job has finished (AssertionError past `within` seconds after the return)."""
    worker = fleet.worker("w1", concurrency=2, queues="starbattle,fleet")
    beat = fleet.beat()
    job_id = fleet.enqueue("--game", "starbattle", "--size", "10", "--stars", "2", "--count", str(boards),
                           "--seed", "17")["job"]
    fleet.wait_stored(job_id, 5)
    paced_from = time.monotonic()
    fleet.wait_stored(job_id, 20)
    per_board = (time.monotonic() - paced_from) / (fleet.job(job_id)["stored"] - 5)
    broker.kill()
    assert fleet.job(job_id)["stored"] < boards, "the job finished before the broker went: make it longer"
    time.sleep(outage)
    broker.start()
    back = time.monotonic()
    work_left = (boards - fleet.job(job_id)["stored"]) * per_board
    workers = [worker, *fleet.revive(after=0.5)]
    fleet.wait_job(job_id, timeout=within)
    took = time.monotonic() - back
    logs = "".join(w.text() for w in workers)
    resent = sum(int(n) for n in re.findall(r"job \d+: (\d+) slots sent again", logs))
    return RestartRun(job_id, took, work_left, resent, logs, beat.text())


def test_a_broker_restart_with_default_settings_drops_no_task(restartable: Broker, tmp_path: Path,
                                                              fleet_factory: Callable[..., Fleet]) -> None:
    fleet = fleet_factory(f"sqlite:///{tmp_path / 'puzzles.db'}", broker=restartable.url, **DEFAULTS)
    run = restart_mid_job(fleet, restartable)
    assert_exactly(fleet, run.job, BOARDS)
    assert run.finished_after <= run.work_left + RECOVERY, (run.finished_after, run.work_left, run.logs[-4000:])
    assert "requeue=False" not in run.logs, run.logs[-4000:]
    # The outage is one WARNING when it starts and one when it ends, in the worker and in beat (which
    # sees it only if it tried to send meanwhile); nothing at ERROR or CRITICAL (no work was lost or
    # stopped), no traceback.
    for name, log in (("worker", run.logs), ("beat", run.beat)):
        loud = [line for line in log.splitlines() if re.search(r": (WARNING|ERROR|CRITICAL)/", line)
                and "slots sent again" not in line]           # the sweep's own word, when it sends
        assert (name == "beat" and not loud) or (len(loud) == 2 and "answers again" in loud[1]), (name, loud)
        assert "Traceback" not in log, log[-4000:]
