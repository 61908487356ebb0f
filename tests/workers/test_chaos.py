"""Chaos, on each broker, with the default settings: small jobs, each hit by one fault while it runs: a
worker SIGKILLed, its pool processes SIGKILLed, the broker SIGKILLed and started again (Redis: a server
of the test's own, back empty, so beat's sweep sends the lost slots again; RabbitMQ: a node of the
test's own, its quorum queues back from disk), a malformed task message, and the store stopped for a
few seconds (a PostgreSQL of the test's own) with an `enqueue` meanwhile. Every job ends done with
exactly its boards, no board twice, and nothing stored outside a job's slots."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Callable

import pytest

from tests.workers.conftest import BROKERS, DEFAULT_SETTINGS, Fleet, OwnPostgres, assert_exactly, send_raw
from tests.workers.test_malformed_messages import _publish as publish

pytestmark = [pytest.mark.fleet, pytest.mark.slow, pytest.mark.xdist_group("chaos")]

# Star Battle 10x10 2-star: several seconds of work for two workers, so each fault lands mid-job
# (100 Queens 12x12 boards, as fast as they now are, were done before the first fault could land).
BOARDS = 100


class Broker:
    """A broker of the test's own: its URL and a restart that kills it first (SIGKILL)."""

    def __init__(self, url: str, restart: Callable[[], None]) -> None:
        self.url, self.restart = url, restart


@pytest.fixture(params=BROKERS)
def own_broker(request: pytest.FixtureRequest) -> Broker:
    if request.param == "redis":
        redis = request.getfixturevalue("own_redis")
        redis.start()

        def restart_redis() -> None:
            redis.procs[-1].kill()
            time.sleep(1.0)
            redis.start()                    # empty: no persistence
        return Broker(redis.url, restart_redis)
    rabbit = request.getfixturevalue("own_rabbit")

    def restart_rabbit() -> None:
        rabbit.kill()
        time.sleep(1.0)
        rabbit.start()                       # the same node and data
    return Broker(rabbit.url, restart_rabbit)


def test_jobs_ride_out_every_fault_with_the_default_settings(
        own_broker: Broker, own_postgres: OwnPostgres, fleet_factory: Callable[..., Fleet]) -> None:
    """With no PUZZLEFLEET_* setting at all (recovery in seconds is the default, docs/fleet.md, "What
    the defaults trade"), five jobs each hit by one fault while they run: a worker SIGKILLed (its tasks come
    back within the 30 s lease on Redis, at once on RabbitMQ), a pool process SIGKILLed, the broker
    SIGKILLed and started again (Redis empty: the sweep finds the lost slots), malformed messages, and
    the store stopped for a few seconds, with an `enqueue` while it is down (exit 6 within seconds)
    that is sent by the same command, same --key, once it is back."""
    fleet = fleet_factory(own_postgres.url, broker=own_broker.url, **DEFAULT_SETTINGS)
    victim = fleet.worker("w1", concurrency=1, queues="starbattle,fleet")
    other = fleet.worker("w2", concurrency=2, queues="starbattle,fleet")
    fleet.beat()
    jobs: list[int] = []

    def job_under_way(seed: int) -> int:
        job_id = fleet.enqueue("--game", "starbattle", "--size", "10", "--stars", "2", "--count", str(BOARDS),
                               "--seed", str(seed))["job"]
        fleet.wait_stored(job_id, 5)
        jobs.append(job_id)
        return job_id

    def still_running(job_id: int) -> None:
        # Asked just before the fault, whose first act is a SIGKILL: a broker's restart then takes
        # seconds, in which the workers may well finish the job with what they already hold.
        assert fleet.job(job_id)["stored"] < BOARDS, f"job {job_id} finished before its fault: make it longer"

    hit = job_under_way(1)
    still_running(hit)
    victim.kill()                                            # a worker, SIGKILLed mid-task
    fleet.worker("w3", concurrency=1, queues="starbattle,fleet")

    hit = job_under_way(2)
    still_running(hit)
    for child in subprocess.run(["pgrep", "-P", str(other.popen.pid)], capture_output=True,
                                text=True).stdout.split():
        os.kill(int(child), signal.SIGKILL)                  # its pool processes, mid-task

    hit = job_under_way(3)
    still_running(hit)
    own_broker.restart()                                     # the broker, SIGKILLed and started again
    fleet.revive()

    hit = job_under_way(4)
    publish(fleet.broker, "starbattle", "not json")          # malformed messages: not JSON,
    send_raw(fleet.broker, ([hit, 0], "starbattle"))         # and a task message with the wrong arguments
    still_running(hit)

    still_running(job_under_way(5))
    own_postgres.stop("immediate")                           # the store, as a crash, for a few seconds
    started = time.monotonic()
    down = fleet.cli("enqueue", "--game", "queens", "--size", "6", "--count", "3", "--key", "chaos", "--json")
    assert down.returncode == 6 and time.monotonic() - started < 6.0, (down.returncode, down.stderr)
    time.sleep(max(0.0, 4.0 - (time.monotonic() - started)))
    own_postgres.start()
    again = fleet.enqueue("--game", "queens", "--size", "6", "--count", "3", "--key", "chaos")
    fleet.worker("w4", concurrency=1, queues="queens,fleet")

    for job_id in jobs:
        assert_exactly(fleet, job_id, BOARDS, alone=False)
    assert_exactly(fleet, again["job"], 3, alone=False)
    boards = fleet.boards()
    assert len(boards) == len({b["id"] for b in boards}) == len(jobs) * BOARDS + 3   # no duplicate, none stray
    for proc in fleet.procs:        # faults are one line each (but kombu's Redis race, which revive() handles)
        if not getattr(proc, "revived", False):
            assert "Traceback" not in proc.text(), (proc.name, proc.text()[-3000:])
            assert "requeue=False" not in proc.text(), (proc.name, proc.text()[-3000:])
