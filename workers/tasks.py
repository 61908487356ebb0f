"""The fleet's tasks: thin wrappers (validate -> engine -> store) with stable names.

Deterministic faults (bad parameters, an unknown job) raise BadTask: the task fails at once and is
never retried. Transient faults (the database or broker unreachable, a lock timeout) are raised again
as Retryable, which Celery's own retry options (RETRY) retry with exponential backoff and full jitter,
the longest wait well within the visibility timeout. Everything else is a bug and fails loudly."""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Iterable
from datetime import date, datetime, timezone
from typing import Any

from celery import signals
from celery.exceptions import SoftTimeLimitExceeded
from sqlalchemy import Engine

from store import init_db, make_engine, session, stalled_jobs, touch_job, unfinished_slots
from store.errors import one_line
from workers import metrics
from workers.celeryapp import NEW_PRIORITY, RESENT_PRIORITY, app, delivered_priority, destination, waiting
from workers.daily import OutOfBudget, make_daily, today
from workers.faults import Retryable, is_transient
from workers.params import FLEET_QUEUE, BadTask, JobParams, queue_of
from workers.settings import settings
from workers.slot import run_slots, slot_ranges, slots_per_task

MAX_RETRIES = 12
# Celery's retry, for every task here: a Retryable raised by the task is retried after
# randrange(min(max, 2 ** retries) + 1) whole seconds ("full jitter"), at most MAX_RETRIES times, then
# fails with it. Whole seconds suit both brokers (RabbitMQ's delayed delivery counts no less).
RETRY = {"autoretry_for": (Retryable,), "retry_backoff": True, "retry_jitter": True,
         "retry_backoff_max": settings().retry_backoff_max, "max_retries": MAX_RETRIES}
log = logging.getLogger(__name__)
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


def _retryable(exc: BaseException) -> bool:
    """A transient fault, the daily set's work budget spent, or the soft time limit reached where the
    work could not hand itself over first (a store call or a hand-over still in flight, one board
    longer than the budget): a retry takes up what is left. Acked as a failure instead, a range's slots
    would wait for beat's sweep."""
    return isinstance(exc, (SoftTimeLimitExceeded, OutOfBudget)) or is_transient(exc)


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
@app.task(name="puzzlefleet.generate_slots", bind=True, throws=(BadTask,), typing=False, **RETRY)
def generate_slots(self: Any, *args: Any, **kwargs: Any) -> dict[str, Any]:
    """Make and store the boards of the slots start..stop-1 of a job, given as (job_id, start, stop,
    params, seed); returns the summary Flower shows."""
    try:
        job_id, start, stop, params, seed = _slot_arguments(args, kwargs)
    except BadTask:
        metrics.task_finished("unknown", "bad")
        raise
    game = _game(params)
    # A range handed over keeps this task's priority: what the sweep sent again stays ahead of new work.
    priority = delivered_priority(self.request.delivery_info, settings().broker_kind)

    def hand_over(first: int, end: int) -> None:
        send_ranges(job_id, params, seed, [(first, end)],
                    priority=NEW_PRIORITY if priority is None else priority)

    try:
        summary = run_slots(db=store_engine(), job_id=job_id, start=start, stop=stop, params=params, seed=seed,
                            budget=settings().work_budget, hand_over=hand_over,
                            split_after=settings().split_seconds, observe=metrics.observe_attempt,
                            overrun=(SoftTimeLimitExceeded,))
    except BadTask:
        metrics.task_finished(game, "bad")
        raise
    except Exception as exc:
        if not _retryable(exc):
            metrics.task_finished(game, "error")
            raise
        # Ranges already handed over are done twice at worst: slots are idempotent.
        raise Retryable.of(exc) from exc
    metrics.task_finished(game, "split" if summary["handed_over"] else "finished")
    return summary


def _game_of(args: Any, kwargs: Any) -> str:
    return _game(_slot_arguments(tuple(args or ()), dict(kwargs or {}))[3])


@signals.task_retry.connect
def _count_retry(sender: Any = None, request: Any = None, **_: Any) -> None:
    # Celery sends this once the retry's message is out, so a retry that could not be sent is not counted.
    if getattr(sender, "name", None) == generate_slots.name:
        metrics.task_finished(_game_of(request.args, request.kwargs), "retry")


@signals.task_failure.connect
def _count_spent_retries(sender: Any = None, exception: BaseException | None = None, args: Any = None,
                         kwargs: Any = None, **_: Any) -> None:
    # A Retryable that fails the task is one whose retries are spent: an error (other failures count
    # themselves in the task).
    if getattr(sender, "name", None) == generate_slots.name and isinstance(exception, Retryable):
        metrics.task_finished(_game_of(args, kwargs), "error")


def send_ranges(job_id: int, params: JobParams | dict[str, Any], seed: int,
                ranges: Iterable[tuple[int, int]], *, priority: int = NEW_PRIORITY) -> int:
    """Send one task per slot range to the job's game queue over one connection; returns how many.
    `priority`: NEW_PRIORITY for a job's own tasks, RESENT_PRIORITY to be taken before them."""
    data = params.to_json() if isinstance(params, JobParams) else params
    where = destination(queue_of(data) or FLEET_QUEUE, priority, settings().broker_kind)
    sent = 0
    # A short argsrepr (what Flower shows) spares Celery a saferepr of the parameters per message.
    shown = f"{data.get('game')} {data.get('size')}" if isinstance(data, dict) else "?"
    with app.producer_or_acquire() as producer:
        for start, stop in ranges:
            generate_slots.apply_async((job_id, start, stop, data, seed), producer=producer, **where,
                                       argsrepr=f"(job {job_id}, slots {start}..{stop - 1}, {shown}, seed {seed})",
                                       kwargsrepr="{}")
            sent += 1
    return sent


def enqueue_slots(job_id: int, params: JobParams, seed: int, count: int) -> int:
    """Send a job's tasks, slots_per_task(count) slots each; returns how many tasks."""
    return send_ranges(job_id, params, seed, slot_ranges(range(count), slots_per_task(count)))


def queue_length(name: str) -> int:
    """Messages waiting in a queue, over its Redis priority lists or its RabbitMQ queue and .resent twin
    (not those already delivered to a worker)."""
    with app.connection_for_write() as conn:
        return waiting(conn, name, settings().broker_kind)


def active_queues(timeout: float = 1.0, *, within: float = 10.0) -> dict[str, set[str]]:
    """Each answering worker's consumed queues, by a broadcast that collects replies for `timeout`
    seconds. kombu's broadcast reconnects without end when the broker goes away mid-way, so it runs in
    a thread given `within` seconds more: TimeoutError past that; the broker's own errors as raised."""
    outcome: dict[str, Any] = {}

    def ask() -> None:
        try:
            outcome["replies"] = app.control.inspect(timeout=timeout).active_queues() or {}
        except Exception as exc:
            outcome["error"] = exc

    asking = threading.Thread(target=ask, name="puzzlefleet-active-queues", daemon=True)
    asking.start()
    asking.join(timeout + within)
    if "error" in outcome:
        raise outcome["error"]
    if "replies" not in outcome:
        raise TimeoutError(f"the broker did not carry the workers' answers within {timeout + within:g} s")
    return {worker: {q.get("name") for q in queues or () if isinstance(q, dict)}
            for worker, queues in outcome["replies"].items()}


def consumed_queues(timeout: float = 1.0) -> set[str] | None:
    """The queues some worker consumes, by a broadcast (about `timeout` seconds); None when that is
    unknown (no worker answered, or the broadcast failed)."""
    try:
        replies = active_queues(timeout)
    except Exception as exc:     # the broker, mid-restart: the sweep goes on without knowing
        log.warning("could not ask the workers which queues they consume: %s", one_line(exc, 200))
        return None
    return set().union(*replies.values()) if replies else None


def resend_unfinished(db: Engine, job: dict[str, Any], *, limit: int | None = None,
                      priority: int = NEW_PRIORITY) -> int:
    """Send a job's unfinished slots again (the first `limit` of them) and mark it as just having
    progressed, so that it is not sent again before it stalls again; returns how many slots."""
    with session(db, read_only=True) as s:
        slots = unfinished_slots(session=s, job_id=job["job"])
    slots = slots[:limit]
    if slots:
        send_ranges(job["job"], job["params"], job["seed"], slot_ranges(slots, slots_per_task(len(slots))),
                    priority=priority)
    with session(db) as s:
        touch_job(session=s, job_id=job["job"])
    return len(slots)


def _idle_seconds(job: dict[str, Any]) -> float:
    return (datetime.now(timezone.utc) - datetime.fromisoformat(job["updated_at"])).total_seconds()


@app.task(name="puzzlefleet.resume_stalled", **RETRY)
def resume_stalled() -> dict[str, Any]:
    """Beat's sweep: every job with no progress for PUZZLEFLEET_STALL_SECONDS has its unfinished slots
    sent again, at RESENT_PRIORITY (ahead of newer work), whatever its queue holds: its messages may be
    lost (Redis restarted without its data, a worker killed between taking a message and recording
    it) while other jobs keep the queue busy. At most PUZZLEFLEET_RESEND_SLOTS slots per sweep, oldest
    job first; the others wait for the next sweep. Storing is idempotent per slot, so a slot that was
    merely slow, or a message that was only waiting its turn, never gives a second board.

    A job whose queue no worker consumes is reported instead (a log line and puzzlefleet_jobs_waiting),
    and sent again only when its queue is empty (its messages lost)."""
    conf = settings()
    try:
        db = store_engine()
        with session(db, read_only=True) as s:
            jobs = stalled_jobs(session=s, idle_seconds=conf.stall_seconds)
        consumed = consumed_queues() if jobs else None
        budget = conf.resend_slots
        resumed: dict[str, int] = {}
        waiting: list[int] = []
        deferred: list[int] = []
        for job in jobs:
            queue = queue_of(job["params"]) or FLEET_QUEUE
            idle = _idle_seconds(job)
            if consumed is not None and queue not in consumed:
                waiting.append(job["job"])
                if job["state"] == "queued":
                    log.warning("job %d has waited %.0f s in queue %s with no slot taken: is a worker "
                                "consuming it?", job["job"], job["elapsed"], queue)
                else:
                    log.warning("job %d has made no progress for %.0f s: no worker consumes queue %s",
                                job["job"], idle, queue)
                if queue_length(queue) > 0:
                    continue            # its messages are still there for the worker that comes
            if budget <= 0:
                deferred.append(job["job"])
                continue
            sent = resend_unfinished(db, job, limit=budget, priority=RESENT_PRIORITY)
            budget -= sent
            resumed[str(job["job"])] = sent
            log.warning("job %d: %d slots sent again after %.0f s without progress", job["job"], sent, idle)
        if deferred:
            log.warning("%d stalled job(s) left for the next sweep (PUZZLEFLEET_RESEND_SLOTS=%d reached): %s",
                        len(deferred), conf.resend_slots, ", ".join(map(str, deferred[:20])))
    except Exception as exc:
        if not is_transient(exc):
            raise
        raise Retryable.of(exc) from exc
    metrics.JOBS_WAITING.set(len(waiting))
    return {"resumed": resumed, "waiting": waiting, "deferred": deferred}


@app.task(name="puzzlefleet.daily", bind=True, throws=(BadTask,), **RETRY)
def daily(self: Any, day: str | None = None) -> dict[str, Any]:
    """Beat's daily set: make (or read back) the set of `day` (YYYY-MM-DD; default today in UTC)."""
    try:
        when = today() if day is None else date.fromisoformat(day)
    except (TypeError, ValueError):
        raise BadTask(f"not a day (YYYY-MM-DD): {day!r}") from None
    # Celery's retry sends the request's own arguments again: pinned here, a retry that runs after
    # midnight still makes this day's set. (A direct call is never retried.)
    if not self.request.called_directly:
        self.request.args, self.request.kwargs = [when.isoformat()], {}
    try:
        # Handing over within the work budget keeps the soft limit for a board that overruns it.
        boards = make_daily(db=store_engine(), day=when, budget=settings().work_budget,
                            plan=settings().daily_plan)
    except Exception as exc:
        # Each board of the set is stored as it is made, so a retry makes only the rest.
        if not _retryable(exc):
            raise
        raise Retryable.of(exc) from exc
    return {"day": when.isoformat(), "boards": [board["id"] for board in boards]}
