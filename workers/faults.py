"""Which faults are expected (a database or broker that does not answer, for a while) and how they are
logged: one line, never a traceback.

Tasks retry a transient fault (see workers.tasks); Celery's own components log theirs, some with the
whole stack (beat: "Message Error: Couldn't apply scheduled task ..." plus two tracebacks for every
send while the broker restarts). OneLine, put on every log handler of the worker and of beat, cuts
such a record to its first line and the fault's message. Anything else keeps its traceback: a bug
must stay loud."""

from __future__ import annotations

import logging

import amqp.exceptions
import kombu.exceptions
import redis.exceptions
from sqlalchemy import exc as sa_exc

from store.errors import is_unreachable, one_line

_TRANSIENT = (sa_exc.OperationalError, sa_exc.InterfaceError, sa_exc.DisconnectionError, sa_exc.TimeoutError,
              kombu.exceptions.OperationalError, redis.exceptions.ConnectionError,
              redis.exceptions.TimeoutError, amqp.exceptions.RecoverableConnectionError, ConnectionError, TimeoutError)


class Retryable(Exception):
    """A fault a retry may outlive, raised by a task from the fault itself (its __cause__): the tasks'
    `autoretry_for` (workers.tasks.RETRY)."""

    @classmethod
    def of(cls, fault: BaseException) -> Retryable:
        """The fault's class and one-line message ("Retry in 2s: Retryable('StoreUnreachable: ...')")."""
        return cls(f"{type(fault).__name__}: {one_line(fault, 200)}")


def is_transient(exc: BaseException) -> bool:
    """Whether a retry may succeed: walks the exception's causes (StoreError wraps the driver's)."""
    from store.errors import StoreUnreachable
    from workers.params import BadTask
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        if isinstance(current, BadTask):
            return False
        if isinstance(current, (*_TRANSIENT, StoreUnreachable)) or is_unreachable(current):
            return True
        seen.add(id(current))
        current = current.__cause__ or current.__context__
    return False


class OneLine(logging.Filter):
    """A record carrying a transient fault loses its traceback (and any text after its first line) and
    gains the fault's one-line message."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        if exc is None or not is_transient(exc):
            return True
        message = record.getMessage().split("\n", 1)[0]
        detail = one_line(exc, 200)
        record.msg = message if detail in message else f"{message} ({detail})"
        record.args = None
        record.exc_info, record.exc_text, record.stack_info = None, None, None
        return True


def quieten(logger: logging.Logger | None = None) -> None:
    """Put OneLine on every handler of `logger` (default: the root logger), once."""
    for handler in (logger or logging.getLogger()).handlers:
        if not any(isinstance(f, OneLine) for f in handler.filters):
            handler.addFilter(OneLine())
