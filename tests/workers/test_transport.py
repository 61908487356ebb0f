"""workers.transport overrides five methods of kombu's Redis channel and transport; each must still be
there, with the parameters it is called with, and do what the override expects of it. A kombu release
that changes one fails here, before it fails in a worker."""

from __future__ import annotations

import inspect
from queue import Empty
from typing import Any

import pytest
from kombu import Connection, Queue
from kombu.transport import redis as kombu_redis

from tests.workers.conftest import redis_client
from workers.transport import Channel, Transport

OVERRIDDEN = {
    (kombu_redis.Channel, "_brpop_read"): ["self", "options"],
    (kombu_redis.Channel, "_get"): ["self", "queue"],
    (kombu_redis.Channel, "basic_ack"): ["self", "delivery_tag", "multiple"],
    (kombu_redis.Channel, "basic_reject"): ["self", "delivery_tag", "requeue"],
    (kombu_redis.Transport, "_deliver"): ["self", "message", "queue"],
}


@pytest.mark.parametrize("owner, name", list(OVERRIDDEN), ids=lambda value: getattr(value, "__name__", value))
def test_what_the_transport_overrides_is_still_kombus_to_override(owner: type, name: str) -> None:
    method = getattr(owner, name, None)
    assert callable(method), f"kombu's {owner.__name__} has no {name} any more"
    assert list(inspect.signature(method).parameters) == OVERRIDDEN[(owner, name)]
    assert Channel.__mro__[1] is kombu_redis.Channel and Transport.__mro__[1] is kombu_redis.Transport


def test_a_malformed_payload_is_dropped_and_a_message_still_read(redis_url: str, caplog: pytest.LogCaptureFixture) -> None:
    """On the test's own Redis database, through the transport as a worker uses it: a payload that is not
    JSON and one of another shape are dropped (one WARNING each), and the message behind them is read."""
    client = redis_client(redis_url)
    client.flushdb()
    dropped: list[str] = []
    import workers.transport as transport
    counters = list(transport._counters)
    try:
        with Connection(redis_url, transport=Transport) as conn:
            channel: Any = conn.default_channel
            queue = Queue("q").bind(channel)
            queue.declare()
            client.lpush("q", "not json", '{"a": 1}')
            channel.basic_publish(channel.prepare_message("real"), exchange="", routing_key="q")
            transport._counters[:] = [dropped.append]
            for _ in range(2):
                with pytest.raises(Empty):
                    channel._get("q")
            message = queue.get(no_ack=True)
            assert message is not None and message.body == b"real"
    finally:
        transport._counters[:] = counters
        client.flushdb()
    assert dropped == ["not-json", "not-a-task"]
    warned = [r.getMessage() for r in caplog.records if r.name == "puzzlefleet.malformed"]
    assert len(warned) == 2 and all(text.startswith("dropped a malformed message") for text in warned)
