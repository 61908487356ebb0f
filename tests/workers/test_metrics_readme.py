"""Metrics the way the README starts a worker: `PUZZLEFLEET_METRICS_PORT=... celery -A workers worker -Q
queens,fleet -n queens@%h -c 2 -l info`, with no other metrics setting, show the counters of a job."""

from __future__ import annotations

import re
import socket
import urllib.request


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_metrics_as_the_readme_starts_a_worker(fleet_factory, tmp_path) -> None:
    fleet = fleet_factory(f"sqlite:///{tmp_path / 'metrics.db'}")
    port = free_port()
    worker = fleet._start("queens", ["worker", "-Q", "queens,fleet", "-n", "queens@%h", "-c", "2", "-l", "info"],
                          {"PUZZLEFLEET_METRICS_PORT": str(port)})
    worker.wait_for_log(" ready.")
    sent = fleet.cli("enqueue", "--game", "queens", "--size", "6", "--count", "5", "--seed", "3", "--wait")
    assert sent.returncode == 0, sent.stderr + worker.text()[-3000:]
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as r:
        text = r.read().decode()
    assert re.search(r'^puzzlefleet_boards_accepted_total\{band="none",game="queens",size="6"\} 5\.0$', text, re.M), text
    assert re.search(r'^puzzlefleet_slot_tasks_total\{game="queens",outcome="finished"\} \d', text, re.M)
    assert re.search(r'^puzzlefleet_generation_seconds_count\{game="queens",size="6"\} \d', text, re.M)
