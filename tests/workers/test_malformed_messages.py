"""A worker survives whatever lands on its queue, on either broker: a message that is not JSON, JSON that
is not a task message, and a task message with the wrong arguments are each dropped or failed with one
log line (a WARNING, never CRITICAL, never a traceback) and counted, and the worker goes on to finish a
real job."""

from __future__ import annotations

import re
import urllib.request
from pathlib import Path

import pytest

from typing import Any

from tests.workers.conftest import BROKERS, free_port, is_amqp, redis_client, send_raw, wait_for

pytestmark = [pytest.mark.fleet]


def _publish(broker: str, queue: str, body: bytes | str, content_type: str = "application/json") -> None:
    """A message on `queue` as a client that is not Celery sends it (no task headers)."""
    if not is_amqp(broker):
        redis_client(broker).lpush(queue, body)
        return
    from kombu import Connection, Producer
    from workers.celeryapp import task_queues
    (declared,) = [q for q in task_queues("amqp") if q.name == queue]
    with Connection(broker, connect_timeout=5) as conn:
        bound = declared.bind(conn.default_channel)
        bound.declare()
        Producer(conn.default_channel).publish(body, exchange=bound.exchange, routing_key=queue,
                                               content_type=content_type, content_encoding="utf-8")


@pytest.mark.parametrize("broker", BROKERS, indirect=True)
def test_a_worker_survives_malformed_messages(broker: str, fleet_factory: Any, tmp_path: Path) -> None:
    fleet = fleet_factory(f"sqlite:///{tmp_path / 'malformed.db'}", broker)
    port = free_port()
    worker = fleet.worker("queens", metrics_port=port, queues="queens,fleet")
    _publish(broker, "queens", "not json")
    _publish(broker, "queens", '{"a": 1}')
    wait_for(lambda: worker.text().count("dropped a malformed message") == 2, 20, "the two drops")
    send_raw(broker, ([1, 2], "queens"), ([1, 0, 1, {}, 5, "extra"], "queens"))
    wait_for(lambda: worker.text().count("generate_slots") and "is missing" in worker.text()
             and "takes (job_id" in worker.text(), 20, "the two bad calls")
    assert worker.popen.poll() is None, worker.text()[-3000:]
    log = worker.text()
    assert "Unrecoverable error" not in log and "TypeError" not in log
    assert "Traceback" not in log and "CRITICAL" not in log and "ERROR" not in log, log[-3000:]
    assert "Received and deleted" not in log, log[-3000:]
    dropped = [line for line in log.splitlines() if "dropped a malformed message" in line]
    assert len(dropped) == 2 and all("WARNING" in line for line in dropped), dropped
    done = fleet.cli("enqueue", "--game", "queens", "--size", "6", "--count", "3", "--seed", "2", "--wait")
    assert done.returncode == 0, done.stderr + log[-3000:]
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as r:
        text = r.read().decode()
    assert re.search(r'^puzzlefleet_malformed_messages_total\{reason="not-json"\} 1\.0$', text, re.M), text
    assert re.search(r'^puzzlefleet_malformed_messages_total\{reason="not-a-task"\} 1\.0$', text, re.M), text
    assert re.search(r'^puzzlefleet_slot_tasks_total\{game="unknown",outcome="bad"\} 2\.0$', text, re.M), text
