"""workers.transport overrides five methods of kombu's Redis channel and transport; each must still be
there, with the parameters it is called with, and do what the override expects of it. A kombu release
that changes one fails here, before it fails in a worker."""

from __future__ import annotations

import inspect
from queue import Empty
from typing import Any

import pytest
from kombu import Connection, Producer, Queue
import amqp
from kombu.transport import pyamqp
from kombu.transport import redis as kombu_redis

from tests.workers.conftest import redis_client
from workers.transport import AmqpChannel, AmqpConnection, AmqpTransport, Channel, Transport

OVERRIDDEN = {
    (kombu_redis.Channel, "_brpop_read"): ["self", "options"],
    (kombu_redis.Channel, "_get"): ["self", "queue"],
    (kombu_redis.Channel, "basic_ack"): ["self", "delivery_tag", "multiple"],
    (kombu_redis.Channel, "basic_reject"): ["self", "delivery_tag", "requeue"],
    (kombu_redis.Transport, "_deliver"): ["self", "message", "queue"],
    (amqp.Channel, "basic_ack"): ["self", "delivery_tag", "multiple", "argsig"],
    (amqp.Channel, "basic_reject"): ["self", "delivery_tag", "requeue", "argsig"],
}


@pytest.mark.parametrize("owner, name", list(OVERRIDDEN), ids=lambda value: getattr(value, "__name__", value))
def test_what_the_transport_overrides_is_still_kombus_to_override(owner: type, name: str) -> None:
    method = getattr(owner, name, None)
    assert callable(method), f"kombu's {owner.__name__} has no {name} any more"
    assert list(inspect.signature(method).parameters) == OVERRIDDEN[(owner, name)]
    assert Channel.__mro__[1] is kombu_redis.Channel and Transport.__mro__[1] is kombu_redis.Transport
    # py-amqp makes its channels of its Connection's Channel, kombu of its Transport's Connection
    assert AmqpChannel.__mro__[1] is pyamqp.Channel and pyamqp.Connection.Channel is pyamqp.Channel
    assert AmqpConnection.__mro__[1] is pyamqp.Connection and pyamqp.Transport.Connection is pyamqp.Connection
    assert AmqpTransport.Connection is AmqpConnection


def test_an_ack_on_a_closed_rabbitmq_connection_is_one_info_line(amqp_url: str,
                                                                 caplog: pytest.LogCaptureFixture) -> None:
    """A message taken from RabbitMQ, its connection then closed: the ack cannot be made (RabbitMQ took
    the message back) and is one INFO line."""
    import logging
    name = "puzzlefleet-test-transport"
    with Connection(amqp_url, transport=AmqpTransport) as conn:
        queue = Queue(name, auto_delete=False).bind(conn.default_channel)
        queue.declare()
        Producer(conn.default_channel).publish("x", routing_key=name)
        message = None
        for _ in range(50):
            message = queue.get(no_ack=False)
            if message is not None:
                break
        assert message is not None
        conn.connection.close()
        caplog.set_level(logging.INFO, logger="puzzlefleet.transport")
        message.ack()
    said = [r for r in caplog.records if r.name == "puzzlefleet.transport"]
    assert len(said) == 1 and said[0].levelname == "INFO" and "RabbitMQ hands it out again" in said[0].getMessage()
    with Connection(amqp_url) as conn:
        Queue(name).bind(conn.default_channel).delete()


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
