"""A task's soft time limit, raised only where the work can stop cleanly: inside the engine.

The pool raises Celery's soft limit from a signal handler, at whatever line the task has reached.
Raised in the middle of a query, it leaves the database connection with a command in flight (the
next one fails: "another command is already in progress") and the attempts made so far unrecorded,
so the retry runs the same seeds into the same overrun, again and again; raised in the middle of a
send, it can cut a message to the broker in half. Engine work has nothing to clean up.

`hold_outside_engine` puts a handler in place of the pool's: inside `engine_work()` the limit raises
at once, as before; anywhere else it is held, and raised when the next `engine_work()` begins. The
store and broker calls after the last engine work of a task finish (a task's work budget ends before
its soft limit, so there are few of them); the hard limit stays the backstop. No Celery here: the
task module installs it with Celery's own exception.
"""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

_inside = False
_held: BaseException | None = None


@contextmanager
def engine_work() -> Iterator[None]:
    """Engine work, which the soft limit may cut short; raises at once a limit held since the last."""
    global _inside, _held
    if _held is not None:
        held, _held = _held, None
        raise held
    _inside = True
    try:
        yield
    finally:
        _inside = False


def hold_outside_engine(signum: int, exception: type[BaseException]) -> None:
    """From now on in this process, the signal `signum` raises `exception` inside engine_work() and is
    held for the next engine_work() anywhere else."""
    def handler(_signum: int, _frame: FrameType | None) -> None:
        global _held
        if _inside:
            raise exception()
        _held = exception()

    signal.signal(signum, handler)


def forget() -> None:
    """Drop a held limit: a new task begins with its own time."""
    global _held
    _held = None


__all__ = ["engine_work", "forget", "hold_outside_engine"]
