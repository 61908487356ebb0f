"""A worker survives a malformed message on its queue, and a task that ends after its broker
connection was lost.

kombu's Redis transport decodes each message it pops with one `loads` and hands the result on; a
payload that is not a kombu envelope (`LPUSH queens 'not json'`, or JSON of another shape) raised out
of the worker's event loop and stopped the worker ("Unrecoverable error: JSONDecodeError"). The
transport's `loads` is wrapped here: such a payload, already popped, is dropped with one log line and
counted (`puzzlefleet_malformed_messages_total{reason}`: not-json, not-a-task), and the transport carries on as if the queue had been
empty. Lists (kombu's own bookkeeping of unacknowledged messages) pass unchanged.

A task still running when the broker connection drops carries on (the app's setting); when it ends
after the worker has reconnected, Celery acknowledges its message on the channel of the old, closed
connection, whose transport is gone, and kombu's Redis transport raised AttributeError ("'NoneType'
object has no attribute 'client'" or "... 'hostname'") out of the event loop: "Unrecoverable error",
and the worker stopped. Such an acknowledgement (or rejection) is skipped with one log line: the
message is gone with the old connection's bookkeeping, or Redis hands it out again after the
visibility timeout, and its slots are idempotent."""

from __future__ import annotations

import logging
from collections.abc import Callable
from queue import Empty
from typing import Any

log = logging.getLogger("puzzlefleet.malformed")


def tolerant(loads: Callable[[Any], Any], dropped: Callable[[str], None]) -> Callable[[Any], Any]:
    def load(text: Any) -> Any:
        try:
            value = loads(text)
        except ValueError as exc:
            reason, detail = "not-json", str(exc)
        else:
            if isinstance(value, list) or (isinstance(value, dict) and "body" in value
                                           and isinstance(value.get("properties"), dict)):
                return value
            reason, detail = "not-a-task", "JSON, but not a task message"
        log.error("dropped a malformed message (%s): %.80r", detail, text)
        dropped(reason)
        raise Empty()
    load.__wrapped__ = loads                      # type: ignore[attr-defined]
    return load


def _closed(message: Any) -> bool:
    """Whether a message's channel belongs to a connection that has been closed."""
    connection = getattr(message.channel, "connection", None)
    return connection is None or getattr(connection, "client", None) is None


def settles_on_closed_channels(method: Callable[..., Any], verb: str) -> Callable[..., Any]:
    def settle(self: Any, logger: Any, errors: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            return method(self, logger, errors, *args, **kwargs)
        except AttributeError as exc:
            if not _closed(self):
                raise
            logger.warning("could not %s message %s: its broker connection was lost (%s); the broker hands "
                           "it out again after the visibility timeout", verb, self.delivery_tag, exc)
            return None
    settle.__wrapped__ = method                   # type: ignore[attr-defined]
    return settle


def install(dropped: Callable[[str], None]) -> None:
    """Wrap the Redis transport's decoder and kombu's acknowledgement (once per process)."""
    from kombu.message import Message
    from kombu.transport import redis as transport
    if not hasattr(transport.loads, "__wrapped__"):
        transport.loads = tolerant(transport.loads, dropped)
    if not hasattr(Message.ack_log_error, "__wrapped__"):
        Message.ack_log_error = settles_on_closed_channels(Message.ack_log_error, "acknowledge")
        Message.reject_log_error = settles_on_closed_channels(Message.reject_log_error, "reject")
