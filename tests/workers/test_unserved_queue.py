"""Nothing waits silently: `enqueue` warns when no worker consumes the job's queue, `--wait` gives up
after --timeout with exit 5, and beat's sweep reports the job (a log line and
puzzlefleet_jobs_waiting) so an alert can fire."""

from __future__ import annotations

import re
import time
import urllib.request
from pathlib import Path

import pytest

from tests.workers.conftest import free_port, wait_for

pytestmark = [pytest.mark.fleet, pytest.mark.slow]


def test_a_queue_nobody_consumes_is_said_and_reported(fleet_factory, tmp_path: Path) -> None:
    fleet = fleet_factory(f"sqlite:///{tmp_path / 'unserved.db'}", PUZZLEFLEET_STALL_SECONDS="1",
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
    assert took < 10, took

    sent = fleet.cli("enqueue", "--game", "sudoku", "--size", "9", "--count", "1", "--seed", "2")
    assert sent.returncode == 0 and "no worker consumes queue sudoku" in sent.stderr

    fleet.beat()
    wait_for(lambda: "job 2 has waited" in worker.text() and "is a worker consuming it?" in worker.text(), 40,
             "the sweep's report")

    def gauge() -> bool:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as r:
            return bool(re.search(r"^puzzlefleet_jobs_waiting 2\.0$", r.read().decode(), re.M))
    wait_for(gauge, 20, "puzzlefleet_jobs_waiting to count both waiting jobs")
