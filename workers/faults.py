"""Which faults are expected (a database or broker that does not answer, for a while) and how they are
logged: one line, never a traceback.

Tasks retry a transient fault (see workers.tasks); Celery's own components log theirs, some with the
whole stack (beat: "Message Error: Couldn't apply scheduled task ..." plus two tracebacks for every
send while the broker restarts). OneLine, put on every log handler of the worker and of beat, cuts
such a record to its first line and the fault's message. Anything else keeps its traceback: a bug
must stay loud."""

from __future__ import annotations

import logging
import os
import tempfile
import time

import amqp.exceptions
import kombu.exceptions
from billiard.einfo import ExceptionWithTraceback
from billiard.exceptions import WorkerLostError
import redis.exceptions
from sqlalchemy import exc as sa_exc

from store.errors import exception_chain, is_unreachable, one_line

# A marker per worker (its main process's pid), made by the first of its pool processes that finds the
# store away and removed by the first task that succeeds after: one WARNING when a store outage begins
# and one when it ends, per worker, the retries between them at INFO.
STORE_DOWN_MARKER = os.path.join(tempfile.gettempdir(), "puzzlefleet-store-down-{pid}")
log = logging.getLogger(__name__)

_TRANSIENT = (sa_exc.OperationalError, sa_exc.InterfaceError, sa_exc.DisconnectionError, sa_exc.TimeoutError,
              kombu.exceptions.OperationalError, redis.exceptions.ConnectionError,
              redis.exceptions.TimeoutError, amqp.exceptions.RecoverableConnectionError, ConnectionError, TimeoutError)


class Retryable(Exception):
    """A fault a retry may outlive, raised by a task from the fault itself (its __cause__): the tasks'
    `autoretry_for` (workers.tasks.RETRY)."""

    immediate = False           # a hand-over, not a fault (work budget or soft limit): retried at once

    @classmethod
    def of(cls, fault: BaseException) -> Retryable:
        """The fault's class and one-line message ("Retry in 2s: Retryable('StoreUnreachable: ...')"); a
        retry for anything but a transient fault (the work budget spent, the soft time limit) is sent
        with no countdown: there is nothing to wait for."""
        retryable = cls(f"{type(fault).__name__}: {one_line(fault, 200)}")
        retryable.immediate = not is_transient(fault)
        return retryable


def store_outage_began(exc: BaseException) -> None:
    """Say that the store does not answer, if no other process of this worker has said it yet."""
    try:
        with open(STORE_DOWN_MARKER.format(pid=os.getppid()), "x") as marker:
            marker.write(f"{time.time():.3f}")
    except OSError:
        return                                 # said already (or cannot say: retried all the same)
    log.warning("the store does not answer (%s): tasks retry until it does", one_line(exc, 200))


def store_outage_ended(**_: object) -> None:
    """After a store outage, the worker's first task that succeeds says the store answers again."""
    path = STORE_DOWN_MARKER.format(pid=os.getppid())
    try:
        with open(path) as marker:
            began = float(marker.read() or 0)
        os.unlink(path)
    except (OSError, ValueError):
        return                                 # no outage, or another process of this worker said it
    log.warning("the store answers again, after %.0f s", time.time() - began)


def is_transient(exc: BaseException) -> bool:
    """Whether a retry may succeed: walks the exception's causes (StoreError wraps the driver's)."""
    from store.errors import StoreUnreachable
    from jobs.params import BadTask
    for each in exception_chain(exc):
        if isinstance(each, BadTask):
            return False
        if isinstance(each, (*_TRANSIENT, StoreUnreachable)) or is_unreachable(each):
            return True
    return False


class OneLine(logging.Filter):
    """A record carrying a transient fault loses its traceback (and any text after its first line) and
    gains the fault's one-line message; so does Celery's record of a dead pool process whose task it could
    not send again (a WARNING: nothing is lost)."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        if isinstance(exc, ExceptionWithTraceback):           # as the pool hands its errors over
            exc = exc.exc
        if isinstance(exc, WorkerLostError):
            # Celery logs this (with the pool's traceback) only when its resend of the dead process's task
            # could not be sent, the broker being away; the task's message is then rejected to be
            # requeued (task_reject_on_worker_lost), or, once out of retries, its slots wait for the sweep.
            _relevel(record, logging.WARNING, record.getMessage().split("\n", 1)[0]
                     + ": its resend could not be sent, so its message goes back to the broker")
            record.exc_info, record.exc_text, record.stack_info = None, None, None
            return True
        if exc is None or not is_transient(exc):
            return True
        message = record.getMessage().split("\n", 1)[0]
        detail = one_line(exc, 200)
        record.msg = message if detail in message else f"{message} ({detail})"
        record.args = None
        record.exc_info, record.exc_text, record.stack_info = None, None, None
        return True


class BrokerOutage(logging.Filter):
    """A broker outage is one WARNING when it starts and one when it ends, INFO between: Celery's
    consumer says "Connection to broker lost" (WARNING, kept), then "Cannot connect to ...: Trying again
    in N seconds" at ERROR, three lines, at every attempt (made one INFO line here, but the first of an
    outage that began before the worker was connected, a WARNING), and "Connected to ..." at INFO when it
    is back (made a WARNING saying how long the broker was away). Beat says "Connection error: ...
    Trying again" at ERROR for every send it cannot make: the first a WARNING, the others INFO, and its
    next send that goes out says the broker answers again (broker_answers). Shared by every handler."""

    down_since: float | None = None

    def filter(self, record: logging.LogRecord) -> bool:
        text = record.getMessage()
        cls = BrokerOutage
        if text.startswith("consumer: Connection to broker lost"):
            cls.down_since = cls.down_since or time.monotonic()
        elif text.startswith(("consumer: Cannot connect to", "beat: Connection error:")):
            first = cls.down_since is None
            cls.down_since = cls.down_since or time.monotonic()
            _relevel(record, logging.WARNING if first else logging.INFO, " ".join(text.split()))
        elif text.startswith("Connected to ") and cls.down_since is not None:
            away = time.monotonic() - cls.down_since
            cls.down_since = None
            _relevel(record, logging.WARNING, f"{text} (the broker answers again, after {away:.0f} s)")
        return True


def broker_answers() -> None:
    """A message was sent: if this process had lost the broker (beat, which logs no reconnection of its
    own), say that it answers again, once."""
    if BrokerOutage.down_since is not None:
        away = time.monotonic() - BrokerOutage.down_since
        BrokerOutage.down_since = None
        logging.getLogger("puzzlefleet.broker").warning("the broker answers again, after %.0f s", away)


def _relevel(record: logging.LogRecord, level: int, message: str) -> None:
    record.levelno, record.levelname = level, logging.getLevelName(level)
    record.msg, record.args = message, None


def quieten(logger: logging.Logger | None = None) -> None:
    """Put OneLine and BrokerOutage on every handler of `logger` (default: the root logger), once."""
    for handler in (logger or logging.getLogger()).handlers:
        if not any(isinstance(f, OneLine) for f in handler.filters):
            handler.addFilter(OneLine())
        if not any(isinstance(f, BrokerOutage) for f in handler.filters):
            handler.addFilter(BrokerOutage())
