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
connection. kombu's Redis transport raised AttributeError ("'NoneType' object has no attribute
'client'" or "... 'hostname'") out of the event loop: "Unrecoverable error", and the worker stopped.
Such an acknowledgement (or rejection) is made on a channel of a new connection instead
(settle_elsewhere: Redis keeps what workers hold in one hash, whatever the channel). One
that cannot be made (the broker away; on RabbitMQ a channel that closed, whose messages RabbitMQ has
already taken back) is one INFO line, not kombu's CRITICAL with a traceback: the message comes back to
a worker (on Redis once its visibility timeout has passed), and its slots are idempotent.

On Redis a message rejected to be requeued (a pool process killed mid-task) goes back to the head of
its queue, where kombu put it at the tail, behind every message waiting there.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from queue import Empty
from typing import Any

log = logging.getLogger("puzzlefleet.malformed")


_count: list[Callable[[str], None]] = []        # what install() was given: counts a dropped message
_connect: list[Callable[[], Any]] = []          # and: opens a new broker connection (a context manager)


def drop(reason: str, detail: str, body: Any) -> None:
    """Say (one WARNING line) and count a malformed message that is dropped."""
    log.warning("dropped a malformed message (%s): %.80r", detail, body)
    for count in _count:
        count(reason)


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
        log.warning("dropped a malformed message (%s): %.80r", detail, text)
        dropped(reason)
        raise Empty()
    load.__wrapped__ = loads                      # type: ignore[attr-defined]
    return load


def _closed(message: Any) -> bool:
    """Whether a message's channel belongs to a connection that has been closed."""
    connection = getattr(message.channel, "connection", None)
    return connection is None or getattr(connection, "client", None) is None


def settles_on_closed_channels(method: Callable[..., Any], verb: str) -> Callable[..., Any]:
    """Message.ack_log_error or reject_log_error, made as the module's docstring says."""
    settle_here = "ack" if verb == "acknowledge" else "reject"

    def settle(self: Any, logger: Any, errors: Any, *args: Any, **kwargs: Any) -> Any:
        requeue = None if verb == "acknowledge" else bool(kwargs.get("requeue", args[0] if args else False))
        try:
            return getattr(self, settle_here)(*args, **kwargs)
        except AttributeError as exc:
            if not _closed(self):
                raise
            if settle_elsewhere(self.delivery_tag, requeue):
                done = "requeued" if requeue else ("acknowledged" if requeue is None else "rejected")
                logger.info("%s message %s on a new connection: its own was lost while its task ran",
                            done, self.delivery_tag)
                return None
            cause: BaseException = exc
        except (BrokenPipeError, *errors) as exc:
            cause = exc
        logger.info("could not %s message %s: %s; the broker hands it out again (on Redis once its visibility "
                    "timeout has passed), and its slots are idempotent", verb, self.delivery_tag, _short(cause))
        return None
    settle.__wrapped__ = method                   # type: ignore[attr-defined]
    return settle


def _short(exc: BaseException) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text[:200]


def _reject_to_the_head(reject: Callable[..., Any]) -> Callable[..., Any]:
    """kombu's Redis QoS.reject, a requeued message put back at the head of its queue."""
    def reject_here(self: Any, delivery_tag: Any, requeue: bool = False) -> None:
        if not requeue:
            return reject(self, delivery_tag, requeue=False)
        self.restore_by_tag(delivery_tag, leftmost=False)      # workers pop the right end first
        self._quick_ack(delivery_tag)
        return None
    reject_here.__wrapped__ = reject              # type: ignore[attr-defined]
    return reject_here


def settle_elsewhere(tag: Any, requeue: bool | None) -> bool:
    """Redis: acknowledge (requeue None or False: drop; True: back to the head of its queue) the
    message `tag` on a channel of a new connection; False when the broker does not answer."""
    try:
        with _connect[0]() as conn:
            qos = conn.default_channel.qos
            if requeue:
                qos.restore_by_tag(tag, leftmost=False)
            else:
                qos._remove_from_indices(tag).execute()
    except Exception as exc:          # the broker away: the message comes back after its visibility timeout
        log.debug("could not settle message %s: %s", tag, exc)
        return False
    return True


def install(dropped: Callable[[str], None], connect: Callable[[], Any]) -> None:
    """Wrap the Redis transport's decoder, requeue and kombu's acknowledgement (once per process);
    `dropped(reason)` counts a dropped message, `connect()` opens a broker connection to settle on."""
    from kombu.message import Message
    from kombu.transport import redis as transport
    if not _count:
        _count.append(dropped)
        _connect.append(connect)
    if not hasattr(transport.loads, "__wrapped__"):
        transport.loads = tolerant(transport.loads, dropped)
    if not hasattr(Message.ack_log_error, "__wrapped__"):
        Message.ack_log_error = settles_on_closed_channels(Message.ack_log_error, "acknowledge")
        Message.reject_log_error = settles_on_closed_channels(Message.reject_log_error, "reject")
    if not hasattr(transport.QoS.reject, "__wrapped__"):
        transport.QoS.reject = _reject_to_the_head(transport.QoS.reject)
