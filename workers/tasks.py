"""The fleet's tasks: thin wrappers (validate -> engine -> store) with stable names.

Deterministic faults (bad parameters, an unknown job) raise BadTask: the task fails at once and is
never retried. Transient faults (the database or broker unreachable, a lock timeout) retry with a
jittered exponential backoff that stays below the visibility timeout. Everything else is a bug and
fails loudly."""

from __future__ import annotations

import os
import random
from collections.abc import Iterable
from datetime import date
from typing import Any

import kombu.exceptions
import redis.exceptions
from sqlalchemy import Engine
from sqlalchemy import exc as sa_exc

from store import init_db, make_engine, session, stalled_jobs, touch_job, unfinished_slots
from workers import metrics
from workers.celeryapp import app
from workers.daily import make_daily, today
from workers.params import GAMES, BadTask, JobParams, check_ids
from workers.settings import settings
from workers.slot import run_slot

MAX_RETRIES = 12
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
    game = params.get("game") if isinstance(params, dict) else None
    return game if game in GAMES else "unknown"


@app.task(name="puzzlefleet.generate_slot", bind=True, throws=(BadTask,), max_retries=MAX_RETRIES)
def generate_slot(self: Any, job_id: int, slot: int, params: dict[str, Any], seed: int) -> dict[str, Any]:
    """Make and store the board of one slot of a job; returns the summary Flower shows."""
    game = _game(params)
    try:
        summary = run_slot(db=store_engine(), job_id=job_id, slot=slot, params=params, seed=seed,
                           budget=settings().work_budget, observe=metrics.observe_attempt)
    except BadTask:
        metrics.task_finished(game, "bad")
        raise
    except Exception as exc:
        if not is_transient(exc):
            metrics.task_finished(game, "error")
            raise
        metrics.task_finished(game, "retry")
        raise self.retry(exc=exc, countdown=backoff(self.request.retries)) from None
    if summary.get("continue"):
        # Out of this task's time budget: the rest of the slot (from its next attempt) in a new task.
        generate_slot.apply_async((job_id, slot, params, seed))
    metrics.task_finished(game, "continued" if summary.get("continue") else summary["state"])
    return summary


def send_slots(job_id: int, params: JobParams | dict[str, Any], seed: int, slots: Iterable[int]) -> int:
    """Send one task per slot to the job's game queue over one connection; returns how many."""
    data = params.to_json() if isinstance(params, JobParams) else params
    queue = _game(data)
    sent = 0
    # A short argsrepr (what Flower shows) spares Celery a saferepr of the parameters per message.
    shown = f"{data.get('game')} {data.get('size')}" if isinstance(data, dict) else "?"
    with app.producer_or_acquire() as producer:
        for slot in slots:
            generate_slot.apply_async((job_id, slot, data, seed), queue=queue, producer=producer,
                                      argsrepr=f"(job {job_id}, slot {slot}, {shown}, seed {seed})",
                                      kwargsrepr="{}")
            sent += 1
    return sent


DISPATCH_CHUNK = 1000      # slots per dispatch task


@app.task(name="puzzlefleet.dispatch_slots", bind=True, throws=(BadTask,), max_retries=MAX_RETRIES)
def dispatch_slots(self: Any, job_id: int, params: dict[str, Any], seed: int, start: int, stop: int) -> dict:
    """Send the slot tasks start..stop-1 of a job: a large job is enqueued as a few of these, so the
    fleet shares the sending. Sending twice (a redelivery) only makes slots find themselves done."""
    check_ids(job_id, start, seed)
    JobParams.from_json(params)
    if not isinstance(stop, int) or isinstance(stop, bool) or not start < stop <= start + 100 * DISPATCH_CHUNK:
        raise BadTask(f"bad slot range {start}..{stop!r}")
    try:
        sent = send_slots(job_id, params, seed, range(start, stop))
    except Exception as exc:
        if not is_transient(exc):
            raise
        raise self.retry(exc=exc, countdown=backoff(self.request.retries)) from None
    return {"job": job_id, "sent": sent, "slots": [start, stop]}


def enqueue_slots(job_id: int, params: JobParams, seed: int, count: int) -> None:
    """Send a job's tasks: one per slot directly for a small job; for a large one, one dispatch task
    per DISPATCH_CHUNK slots (a few messages now, the slot tasks sent by the workers)."""
    if count <= DISPATCH_CHUNK:
        send_slots(job_id, params, seed, range(count))
        return
    data = params.to_json()
    with app.producer_or_acquire() as producer:
        for start in range(0, count, DISPATCH_CHUNK):
            dispatch_slots.apply_async((job_id, data, seed, start, min(count, start + DISPATCH_CHUNK)),
                                       producer=producer)


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
        for job in jobs:
            game = _game(job["params"])
            if queue_length(game) > 0:
                continue            # still waiting its turn, not stalled
            with session(db, read_only=True) as s:
                slots = unfinished_slots(session=s, job_id=job["job"])
            sent = send_slots(job["job"], job["params"], job["seed"], slots) if slots else 0
            with session(db) as s:
                touch_job(session=s, job_id=job["job"])
            resumed[str(job["job"])] = sent
    except Exception as exc:
        if not is_transient(exc):
            raise
        raise self.retry(exc=exc, countdown=backoff(self.request.retries)) from None
    return {"resumed": resumed}


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
