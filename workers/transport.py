"""The fleet's transports: kombu's, subclassed (the app names them in `broker_transport`), so that a
fault costs a log line instead of the worker, or kombu's CRITICAL with a traceback.

On Redis (Transport):
- A payload that is not a kombu envelope (`LPUSH queens 'not json'`, or JSON of another shape) raised
  out of the worker's event loop and stopped it. It is dropped with one WARNING line and counted
  (`puzzlefleet_malformed_messages_total{reason}`), as if the queue had been empty.
- A task that ends after the worker has reconnected (it carries on through a lost connection) is
  acknowledged by Celery on the old, closed channel, where kombu raised AttributeError and the worker
  stopped. It is settled on a new connection instead (Redis keeps what workers hold in one hash, whatever
  the channel); if the broker is away, one INFO line: the message comes back after its visibility timeout.

On RabbitMQ (AmqpTransport), a settle on a connection closed meanwhile needs none (RabbitMQ has taken the
message back): one INFO line, not kombu's CRITICAL "Couldn't ack".

tests/workers/test_transport.py fails when a kombu or py-amqp release changes what this overrides (Redis:
`_brpop_read`, `_get`, `_deliver`, `basic_ack`, `basic_reject`; py-amqp: `basic_ack`, `basic_reject`)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from queue import Empty
from typing import Any

import amqp
from kombu.transport import pyamqp, redis

from store.errors import one_line

log = logging.getLogger("puzzlefleet.malformed")
settle_log = logging.getLogger("puzzlefleet.transport")

_counters: list[Callable[[str], None]] = []      # count a dropped message by reason (workers.metrics)


def count_drops(counter: Callable[[str], None]) -> None:
    """Have every dropped message counted by `counter(reason)` in this process (once)."""
    if not _counters:
        _counters.append(counter)


def drop(reason: str, detail: str, body: Any = None) -> None:
    """Say (one WARNING line, with the start of its body when known) and count a malformed message that
    is dropped."""
    shown = "" if body is None else f": {repr(body)[:80]}"
    log.warning("dropped a malformed message (%s)%s", detail, shown)
    for count in _counters:
        count(reason)


def is_envelope(payload: Any) -> bool:
    """Whether a decoded payload has the shape of a kombu message: a body and its properties."""
    return isinstance(payload, dict) and "body" in payload and isinstance(payload.get("properties"), dict)


class Channel(redis.Channel):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The kombu Connection this channel belongs to, kept for a new connection to settle on after
        # this one is closed (the transport then forgets it).
        self._origin = self.connection.client

    def _brpop_read(self, **options: Any) -> Any:
        try:
            return super()._brpop_read(**options)
        except ValueError as exc:            # the popped payload is not JSON (json's decode error)
            drop("not-json", one_line(exc, 120))
            raise Empty() from None

    def _get(self, queue: str) -> Any:
        try:
            payload = super()._get(queue)
        except ValueError as exc:
            drop("not-json", one_line(exc, 120))
            raise Empty() from None
        if not is_envelope(payload):
            drop("not-a-task", "JSON, but not a task message", payload)
            raise Empty()
        return payload

    def basic_ack(self, delivery_tag: Any, multiple: bool = False) -> None:
        self._settle(delivery_tag, None, lambda: super(Channel, self).basic_ack(delivery_tag, multiple))

    def basic_reject(self, delivery_tag: Any, requeue: bool = False) -> None:
        self._settle(delivery_tag, requeue, lambda: super(Channel, self).basic_reject(delivery_tag, requeue))

    def _settle(self, tag: Any, requeue: bool | None, here: Callable[[], None]) -> None:
        """Settle a message on this channel, or on a new connection when this channel's is closed."""
        origin = self._origin
        try:
            here()
            return
        except AttributeError:
            if self.connection is not None and getattr(self.connection, "client", None) is not None:
                raise                               # a live channel: a bug, not a closed connection
            cause = "its connection was closed while its task ran"
        except (*self.connection_errors, BrokenPipeError) as exc:
            cause = one_line(exc, 200)
        verb = "acknowledge" if requeue is None else ("requeue" if requeue else "reject")
        try:
            with origin.clone() as conn:
                channel = conn.default_channel
                if requeue is None:
                    channel.basic_ack(tag)
                else:
                    channel.basic_reject(tag, requeue=requeue)
        except Exception as exc:      # the broker away: the message comes back after its visibility timeout
            settle_log.info("could not %s message %s (%s; again: %s): the broker hands it out again once its "
                            "visibility timeout has passed, and its slots are idempotent", verb, tag, cause,
                            one_line(exc, 200))
            return
        settle_log.info("%s message %s on a new connection: %s", {"acknowledge": "acknowledged",
                        "requeue": "requeued", "reject": "rejected"}[verb], tag, cause)


class Transport(redis.Transport):
    Channel = Channel

    def _deliver(self, message: Any, queue: str) -> None:
        if not is_envelope(message):
            drop("not-a-task", "JSON, but not a task message", message)
            raise Empty()
        super()._deliver(message, queue)


def _not_settled(verb: str, tag: Any, exc: BaseException) -> None:
    settle_log.info("could not %s message %s (%s): its connection is gone, so RabbitMQ hands it out again, "
                    "and its slots are idempotent", verb, tag, one_line(exc, 200))


_GONE = (amqp.exceptions.RecoverableConnectionError, ConnectionError, OSError)


class AmqpChannel(pyamqp.Channel):
    def basic_ack(self, delivery_tag: Any, multiple: bool = False, argsig: str = "Lb") -> Any:
        try:
            return super().basic_ack(delivery_tag, multiple, argsig)
        except _GONE as exc:
            _not_settled("acknowledge", delivery_tag, exc)
            return None

    def basic_reject(self, delivery_tag: Any, requeue: bool, argsig: str = "Lb") -> Any:
        try:
            return super().basic_reject(delivery_tag, requeue, argsig)
        except _GONE as exc:
            _not_settled("requeue" if requeue else "reject", delivery_tag, exc)
            return None


class AmqpConnection(pyamqp.Connection):
    Channel = AmqpChannel


class AmqpTransport(pyamqp.Transport):
    Connection = AmqpConnection
