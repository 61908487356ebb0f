"""Nothing waits silently: `enqueue` warns when no worker consumes the job's queue, `--wait` gives up
after --timeout with exit 5, and beat's sweep reports the job (a log line and
puzzlefleet_jobs_waiting) so an alert can fire."""

from __future__ import annotations

import re
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from tests.workers.conftest import BIN, BROKERS, free_port, wait_for, waiting_messages

pytestmark = [pytest.mark.fleet, pytest.mark.slow]


@pytest.mark.parametrize("broker", BROKERS, indirect=True)
def test_a_queue_nobody_consumes_is_said_and_reported(broker: str, fleet_factory, tmp_path: Path) -> None:
    fleet = fleet_factory(f"sqlite:///{tmp_path / 'unserved.db'}", broker, PUZZLEFLEET_STALL_SECONDS="1",
                          PUZZLEFLEET_RESUME_INTERVAL="1")
    port = free_port()
    worker = fleet.worker("queens", metrics_port=port, queues="queens,fleet")

    served = fleet.cli("enqueue", "--game", "queens", "--size", "5", "--count", "2", "--seed", "1", "--wait")
    assert served.returncode == 0 and "warning" not in served.stderr, served.stderr

    started = time.monotonic()
    waited = fleet.cli("enqueue", "--game", "sudoku", "--size", "9", "--count", "2", "--seed", "1", "--wait",
                       "--timeout", "2")
    took = time.monotonic() - started
    assert waited.returncode == 5, (waited.returncode, waited.stderr)
    lines = waited.stderr.strip().splitlines()
    assert lines[0].startswith("puzzlefleet: warning: no worker consumes queue sudoku")
    assert lines[-1].startswith("puzzlefleet: error: job 2 is still queued after 2 s") and len(lines) == 2
    # 2 s of waiting, the workers asked twice whether one consumes the queue (a second ask keeps a worker
    # that is reconnecting from being missed), and the start-up, seconds on a busy machine: no hang
    assert took < 15, took

    sent = fleet.cli("enqueue", "--game", "sudoku", "--size", "9", "--count", "1", "--seed", "2")
    assert sent.returncode == 0 and "no worker consumes queue sudoku" in sent.stderr

    fleet.beat()
    # said once the queue has gone unconsumed for 30 s of sweeps (a worker reconnecting does not answer)
    wait_for(lambda: "job 2 has waited" in worker.text() and "is a worker consuming it?" in worker.text(), 90,
             "the sweep's report")

    def gauge() -> bool:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as r:
            return bool(re.search(r"^puzzlefleet_jobs_waiting 2\.0$", r.read().decode(), re.M))
    wait_for(gauge, 20, "puzzlefleet_jobs_waiting to count both waiting jobs")


def test_lost_slots_are_sent_again_bounded_and_served_once_a_worker_comes(fleet_factory, tmp_path: Path) -> None:
    """Two jobs whose messages are lost (the queue purged) while no worker consumes their queue: the
    queue is empty, so the sweep sends the older job's slots again, ahead of new work, and says why;
    whole jobs, oldest first: the first of a sweep whatever its size, the next only within
    PUZZLEFLEET_RESEND_SLOTS. The other then waits behind what was sent (its queue no longer empty)
    until a worker comes and takes it; then its turn comes, and both jobs finish exactly."""
    fleet = fleet_factory(f"sqlite:///{tmp_path / 'lost.db'}", PUZZLEFLEET_STALL_SECONDS="2",
                          PUZZLEFLEET_RESUME_INTERVAL="1", PUZZLEFLEET_RESEND_SLOTS="5")
    worker = fleet.worker("housekeeping", queues="fleet")
    for seed in ("1", "2"):
        sent = fleet.cli("enqueue", "--game", "queens", "--size", "6", "--count", "12", "--seed", seed)
        assert sent.returncode == 0, sent.stderr
    assert waiting_messages(fleet.broker, ("queens",)) == {"queens": 24}
    purged = subprocess.run([str(BIN / "celery"), "-A", "workers", "purge", "-f", "-Q", "queens"], env=fleet.env,
                            capture_output=True, text=True, timeout=60)
    assert purged.returncode == 0 and not waiting_messages(fleet.broker, ("queens",)), purged.stderr
    fleet.beat()
    # the sweep's returned summary, which the worker logs after the sweep's own lines
    wait_for(lambda: "'resumed': {'1': 12}" in worker.text(), 40, "the sweep to send job 1 again")
    text = worker.text()
    assert "job 1: 12 slots sent again after" in text and "no message waits in queue queens" in text
    assert "1 stalled job(s) left for the next sweep (PUZZLEFLEET_RESEND_SLOTS=5 reached): 2" in text
    time.sleep(3)                                   # more sweeps: job 2 waits behind job 1's slots
    assert waiting_messages(fleet.broker, ("queens",)) == {"queens": 12}
    served = fleet.worker("queens", queues="queens,fleet")
    for job_id in (1, 2):
        status = fleet.wait_job(job_id, timeout=90)
        assert (status["state"], status["stored"]) == ("done", 12), status
    assert "job 2: 12 slots sent again after" in worker.text() + served.text()
    assert len(fleet.boards()) == 24


@pytest.mark.parametrize("broker", BROKERS, indirect=True)
def test_slots_sent_again_are_served_ahead_of_the_backlog(broker: str, fleet_factory, tmp_path: Path) -> None:
    """40 tasks of new work wait in `queens`, then 4 slots of another job are sent again as the sweep
    sends them (RESENT_PRIORITY); a worker with one pool process then starts. On Redis the resent
    slots are popped first (their priority list); on RabbitMQ they wait in queens.resent, which the
    broker serves beside queens, one message each in turn: done within the first ten tasks either way."""
    fleet = fleet_factory(f"sqlite:///{tmp_path / 'order.db'}", broker)
    backlog, params = fleet.new_job(40, size=7)
    resent, _ = fleet.new_job(4, size=7)
    send = (f"from workers.tasks import send_ranges; from jobs.queues import RESENT_PRIORITY; "
            f"params = {params!r}; "
            f"send_ranges({backlog}, params, 99, [(i, i + 1) for i in range(40)]); "
            f"send_ranges({resent}, params, 99, [(i, i + 1) for i in range(4)], priority=RESENT_PRIORITY)")
    sent = subprocess.run([sys.executable, "-c", send], env=fleet.env, capture_output=True, text=True, timeout=60)
    assert sent.returncode == 0, sent.stderr
    worker = fleet.worker("w1", concurrency=1, queues="queens,fleet")
    for job_id in (backlog, resent):
        assert fleet.wait_job(job_id)["state"] == "done"
    order = [int(job) for job in re.findall(r"succeeded in [^{]*\{'result': '[^']*', 'job': (\d+),", worker.text())]
    assert sorted(order) == sorted([backlog] * 40 + [resent] * 4), order
    last = max(i for i, job in enumerate(order) if job == resent)
    assert last < (4 if broker.startswith("redis") else 10), order
