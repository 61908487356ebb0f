"""The fleet's tasks: thin wrappers (validate -> engine -> store) with stable names.

Deterministic faults (bad parameters, an unknown job) raise BadTask: the task fails at once and is
never retried. Transient faults (the database or broker unreachable, a lock timeout) retry with a
jittered exponential backoff that stays below the visibility timeout. Everything else is a bug and
fails loudly."""

from __future__ import annotations

import logging
import os
import random
from collections.abc import Iterable
from datetime import date
from typing import Any

import kombu.exceptions
import redis.exceptions
from celery.exceptions import SoftTimeLimitExceeded
from sqlalchemy import Engine
from sqlalchemy import exc as sa_exc

from store import init_db, make_engine, session, stalled_jobs, touch_job, unfinished_slots
from workers import metrics
from workers.celeryapp import app
from workers.daily import make_daily, today
from workers.params import FLEET_QUEUE, BadTask, JobParams, queue_of
from workers.settings import settings
from workers.slot import run_slots, slot_ranges, slots_per_task

MAX_RETRIES = 12
log = logging.getLogger(__name__)
_TRANSIENT = (sa_exc.OperationalError, sa_exc.InterfaceError, sa_exc.DisconnectionError, sa_exc.TimeoutError,
              kombu.exceptions.OperationalError, redis.exceptions.ConnectionError,
              redis.exceptions.TimeoutError, ConnectionError, TimeoutError)

_db: Engine | None = None
_db_pid: int | None = None


def store_engine() -> Engine:
    """This process's store engine, created (and the schema migrated) after the fork, on first use."""
    global _db, _db_pid
    if _db is None or _db_pid != os.getpid():
        db = make_engine(None)
        init_db(db)
        _db, _db_pid = db, os.getpid()
    return _db


def is_transient(exc: BaseException) -> bool:
    """Whether a retry may succeed: walks the exception's causes (StoreError wraps the driver's)."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        if isinstance(current, BadTask):
            return False
        if isinstance(current, _TRANSIENT):
            return True
        seen.add(id(current))
        current = current.__cause__ or current.__context__
    return False


def backoff(retries: int) -> float:
    """Seconds before retry number `retries` + 1: exponential, capped, with jitter ("equal jitter")."""
    ceiling = min(settings().retry_backoff_max, 2.0 ** retries)
    return ceiling / 2 + random.uniform(0, ceiling / 2)


def _game(params: Any) -> str:
    """The game label of a task's metrics ("unknown" for parameters that name no game)."""
    game = params.get("game") if isinstance(params, dict) else None
    return game if queue_of(params) is not None else "unknown"


_SLOT_ARGUMENTS = ("job_id", "start", "stop", "params", "seed")


def _slot_arguments(args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Any, ...]:
    """(job_id, start, stop, params, seed) from a message's arguments; BadTask (one line) otherwise."""
    if len(args) > len(_SLOT_ARGUMENTS) or set(kwargs) - set(_SLOT_ARGUMENTS[len(args):]):
        raise BadTask(f"generate_slots takes ({', '.join(_SLOT_ARGUMENTS)}), got {len(args)} positional "
                      f"argument(s) and {sorted(kwargs)}")
    values = dict(zip(_SLOT_ARGUMENTS, args)) | kwargs
    missing = [name for name in _SLOT_ARGUMENTS if name not in values]
    if missing:
        raise BadTask(f"generate_slots is missing {', '.join(missing)}")
    return tuple(values[name] for name in _SLOT_ARGUMENTS)


# The arguments are read by hand, not by Python's call: a message with the wrong ones is then a bad
# task in one line (counted), not a TypeError traceback from Celery.
@app.task(name="puzzlefleet.generate_slots", bind=True, throws=(BadTask,), max_retries=MAX_RETRIES,
          typing=False)
def generate_slots(self: Any, *args: Any, **kwargs: Any) -> dict[str, Any]:
    """Make and store the boards of the slots start..stop-1 of a job, given as (job_id, start, stop,
    params, seed); returns the summary Flower shows."""
    try:
        job_id, start, stop, params, seed = _slot_arguments(args, kwargs)
    except BadTask:
        metrics.task_finished("unknown", "bad")
        raise
    game = _game(params)

    def hand_over(first: int, end: int) -> None:
        send_ranges(job_id, params, seed, [(first, end)])

    try:
        summary = run_slots(db=store_engine(), job_id=job_id, start=start, stop=stop, params=params, seed=seed,
                            budget=settings().work_budget, hand_over=hand_over,
                            split_after=settings().split_seconds, observe=metrics.observe_attempt,
                            overrun=(SoftTimeLimitExceeded,))
    except BadTask:
        metrics.task_finished(game, "bad")
        raise
    except Exception as exc:
        if not is_transient(exc):
            metrics.task_finished(game, "error")
            raise
        # Ranges already handed over are done twice at worst: slots are idempotent.
        metrics.task_finished(game, "retry")
        raise self.retry(exc=exc, countdown=backoff(self.request.retries)) from None
    metrics.task_finished(game, "split" if summary["handed_over"] else "finished")
    return summary


def send_ranges(job_id: int, params: JobParams | dict[str, Any], seed: int,
                ranges: Iterable[tuple[int, int]]) -> int:
    """Send one task per slot range to the job's game queue over one connection; returns how many."""
    data = params.to_json() if isinstance(params, JobParams) else params
    queue = queue_of(data) or FLEET_QUEUE
    sent = 0
    # A short argsrepr (what Flower shows) spares Celery a saferepr of the parameters per message.
    shown = f"{data.get('game')} {data.get('size')}" if isinstance(data, dict) else "?"
    with app.producer_or_acquire() as producer:
        for start, stop in ranges:
            generate_slots.apply_async((job_id, start, stop, data, seed), queue=queue, producer=producer,
                                       argsrepr=f"(job {job_id}, slots {start}..{stop - 1}, {shown}, seed {seed})",
                                       kwargsrepr="{}")
            sent += 1
    return sent


def enqueue_slots(job_id: int, params: JobParams, seed: int, count: int) -> int:
    """Send a job's tasks, slots_per_task(count) slots each; returns how many tasks."""
    return send_ranges(job_id, params, seed, slot_ranges(range(count), slots_per_task(count)))


def queue_length(name: str) -> int:
    """Messages waiting in a queue (not those already delivered to a worker)."""
    with app.connection_for_write() as conn:
        return int(conn.default_channel.client.llen(name))


@app.task(name="puzzlefleet.resume_stalled", bind=True, max_retries=3)
def resume_stalled(self: Any) -> dict[str, Any]:
    """Beat's sweep: a job with no progress for PUZZLEFLEET_STALL_SECONDS while its queue is empty has
    lost messages (e.g. Redis restarted without its data); send its unfinished slots again. Storing is
    idempotent per slot, so a slot that was merely slow cannot get a second board."""
    conf = settings()
    try:
        db = store_engine()
        with session(db, read_only=True) as s:
            jobs = stalled_jobs(session=s, idle_seconds=conf.stall_seconds)
        resumed: dict[str, int] = {}
        waiting: list[int] = []
        for job in jobs:
            queue = queue_of(job["params"]) or FLEET_QUEUE
            if queue_length(queue) > 0:
                if job["state"] == "queued":     # not one slot taken: perhaps nobody serves the queue
                    waiting.append(job["job"])
                    log.warning("job %d has waited %.0f s in queue %s with no slot taken: is a worker "
                                "consuming it?", job["job"], job["elapsed"], queue)
                continue            # still waiting its turn, not stalled
            with session(db, read_only=True) as s:
                slots = unfinished_slots(session=s, job_id=job["job"])
            ranges = slot_ranges(slots, slots_per_task(len(slots)))
            sent = send_ranges(job["job"], job["params"], job["seed"], ranges)
            with session(db) as s:
                touch_job(session=s, job_id=job["job"])
            resumed[str(job["job"])] = sent
    except Exception as exc:
        if not is_transient(exc):
            raise
        raise self.retry(exc=exc, countdown=backoff(self.request.retries)) from None
    metrics.JOBS_WAITING.set(len(waiting))
    return {"resumed": resumed, "waiting": waiting}


@app.task(name="puzzlefleet.daily", bind=True, throws=(BadTask,), max_retries=MAX_RETRIES)
def daily(self: Any, day: str | None = None) -> dict[str, Any]:
    """Beat's daily set: make (or read back) the set of `day` (YYYY-MM-DD; default today in UTC)."""
    try:
        when = today() if day is None else date.fromisoformat(day)
    except (TypeError, ValueError):
        raise BadTask(f"not a day (YYYY-MM-DD): {day!r}") from None
    try:
        boards = make_daily(db=store_engine(), day=when)
    except Exception as exc:
        if not is_transient(exc):
            raise
        # The day is pinned, so a retry that runs after midnight still makes this day's set.
        raise self.retry(args=(when.isoformat(),), exc=exc, countdown=backoff(self.request.retries)) from None
    return {"day": when.isoformat(), "boards": [board["id"] for board in boards]}
