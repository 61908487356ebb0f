"""A worker survives whatever lands on its queue: a message that is not JSON, JSON that is not a task
message, and a task message with the wrong arguments are each dropped or failed with one log line and
counted, and the worker goes on to finish a real job."""

from __future__ import annotations

import re
import urllib.request
from pathlib import Path

import pytest

from tests.workers.conftest import free_port, redis_client, send_raw, wait_for

pytestmark = [pytest.mark.fleet]


def test_a_worker_survives_malformed_messages(fleet_factory, redis_url: str, tmp_path: Path) -> None:
    fleet = fleet_factory(f"sqlite:///{tmp_path / 'malformed.db'}")
    port = free_port()
    worker = fleet.worker("queens", metrics_port=port, queues="queens,fleet")
    client = redis_client(redis_url)
    client.lpush("queens", "not json")
    client.lpush("queens", '{"a": 1}')
    wait_for(lambda: worker.text().count("dropped a malformed message") == 2, 20, "the two drops")
    send_raw(redis_url, ([1, 2], "queens"), ([1, 0, 1, {}, 5, "extra"], "queens"))
    wait_for(lambda: worker.text().count("generate_slots") and "is missing" in worker.text()
             and "takes (job_id" in worker.text(), 20, "the two bad calls")
    assert worker.popen.poll() is None, worker.text()[-3000:]
    log = worker.text()
    assert "Unrecoverable error" not in log and "TypeError" not in log
    assert "Traceback" not in log, log[-3000:]
    done = fleet.cli("enqueue", "--game", "queens", "--size", "6", "--count", "3", "--seed", "2", "--wait")
    assert done.returncode == 0, done.stderr + log[-3000:]
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as r:
        text = r.read().decode()
    assert re.search(r'^puzzlefleet_malformed_messages_total\{reason="not-json"\} 1\.0$', text, re.M), text
    assert re.search(r'^puzzlefleet_malformed_messages_total\{reason="not-a-task"\} 1\.0$', text, re.M), text
    assert re.search(r'^puzzlefleet_slot_tasks_total\{game="unknown",outcome="bad"\} 2\.0$', text, re.M), text
