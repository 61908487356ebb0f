"""The fleet's tasks: thin wrappers (validate -> engine -> store) with stable names.

Deterministic faults (bad parameters, an unknown job) raise BadTask: the task fails at once and is
never retried. Transient faults (the database or broker unreachable, a lock timeout) are raised again
as Retryable, which Celery's own retry options (RETRY) retry with exponential backoff and full jitter,
the longest wait well within the visibility timeout. Everything else is a bug and fails loudly."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable
from datetime import date
from functools import partial
from typing import Any

from celery import Task, signals
from celery.exceptions import Reject, Retry, SoftTimeLimitExceeded
from sqlalchemy.exc import SQLAlchemyError

from engine import ENGINE_VERSION
from store import process_engine
from store.errors import StoreError, exception_chain, one_line
from workers import metrics
from workers.celeryapp import app, waiting
from jobs.queues import NEW_PRIORITY, RESENT_PRIORITY, delivered_priority, destination
from jobs.daily import OutOfBudget, make_daily, today
from workers.faults import Retryable, is_transient, store_outage_began, store_outage_ended
from jobs.params import FLEET_QUEUE, BadTask, JobParams, queue_of
from jobs.sweep import Unconsumed, sweep
from workers.settings import settings
from jobs.regrade import regrade_range
from jobs.slot import HandOverFailed, run_slots, slot_arguments, slot_ranges, slots_per_task

MAX_RETRIES = 150
# Celery's retry, for every task here: a Retryable raised by the task is retried after
# randrange(min(max, 2 ** retries) + 1) whole seconds ("full jitter"), at most MAX_RETRIES times (with
# the 10 s cap, about 12 minutes of waiting in all), then fails with it. Whole seconds suit both
# brokers (RabbitMQ's delayed delivery counts no less).
RETRY = {"autoretry_for": (Retryable,), "retry_backoff": True, "retry_jitter": True,
         "retry_backoff_max": settings().retry_backoff_max, "max_retries": MAX_RETRIES}
PATIENCE_MARGIN = 2.0      # seconds before the soft limit by which a task stops waiting for the broker
log = logging.getLogger(__name__)
_started = [time.monotonic()]         # when this process's current task started (task_prerun)


@signals.task_prerun.connect
def _task_started(**_: Any) -> None:
    _started[0] = time.monotonic()


def _patience_left() -> float:
    """Seconds the current task may still wait for the broker: until PATIENCE_MARGIN before its soft
    time limit."""
    return _started[0] + settings().soft_time_limit - PATIENCE_MARGIN - time.monotonic()


def patiently(send: Callable[[], Any], what: str, *, within: float,
              again: Callable[[BaseException], bool] = is_transient) -> Any:
    """send(), tried again while it raises a fault `again` accepts (by default a transient one: the
    broker does not answer), for up to `within` seconds, one log line while waiting; the last fault is
    raised once that time is spent."""
    deadline = time.monotonic() + within
    pause, said = 1.0, False
    while True:
        try:
            result = send()
        except Exception as exc:
            if not again(exc) or time.monotonic() + pause > deadline:
                raise
            if not said:
                log.info("the broker does not answer (%s): %s waits for it (up to %.0f s)", one_line(exc, 120),
                         what, max(0.0, deadline - time.monotonic()))
                said = True
            time.sleep(pause)
            pause = min(2 * pause, 5.0)
            continue
        if said:
            log.info("the broker answers again: %s sent", what)
        return result


class FleetTask(Task):
    """Every task here: a retry that cannot be sent (the broker away) is not dropped, and a task whose
    pool process died is sent again first-served.

    Celery sends a retry's message and, when that fails, rejects the task's message without requeueing
    it: the task was lost (a broker restart lost tasks so). Here the retry is sent again while the
    broker does not answer, for as long as the task's soft time limit allows (PATIENCE_MARGIN before
    it), so it goes out the moment the broker returns; past that the task's own message is rejected to
    be requeued (on Redis, should the broker not take the rejection either, the message comes back once
    its visibility timeout has passed).

    A task whose pool process died (SIGKILL, out of memory) is sent again by the worker at once, at
    RESENT_PRIORITY (Redis) or to its queue's .resent twin (RabbitMQ), so it is taken before the
    backlog: requeued instead, RabbitMQ's quorum queues put it behind every message waiting."""

    retry_on_worker_lost = True
    default_retry_delay = 0          # that resend's countdown (a retry of the task's own has its backoff)

    def signature_from_request(self, request: Any = None, args: Any = None, kwargs: Any = None,
                               queue: Any = None, **extra_options: Any) -> Any:
        own_retry = extra_options.pop(_OWN_RETRY, False)
        signature = super().signature_from_request(request, args, kwargs, queue=queue, **extra_options)
        if not own_retry and self.name == SLOT_TASK:        # the worker's resend of a task whose process died
            kind = settings().broker_kind
            request = self.request if request is None else request
            params = (request.args[3] if request.args and len(request.args) > 3 else {}) or {}
            where = destination(queue_of(params) or FLEET_QUEUE, RESENT_PRIORITY, kind)
            if kind == "amqp":
                where = {"queue": where["queue"], "exchange": where["queue"], "routing_key": where["queue"]}
            signature.options.update(where)
        return signature

    def retry(self, args: Any = None, kwargs: Any = None, exc: BaseException | None = None, throw: bool = True,
              eta: Any = None, countdown: Any = None, max_retries: int | None = None, **options: Any) -> Any:
        options[_OWN_RETRY] = True
        if getattr(exc, "immediate", False):
            countdown, eta = 0, None            # a hand-over (budget, soft limit), not a fault: no backoff

        def send() -> Any:
            try:
                return super(FleetTask, self).retry(args, kwargs, exc, throw, eta, countdown, max_retries, **options)
            except Retry as sent:            # sent: raised to the caller below, not retried here
                return sent
            except Reject as rejected:
                if rejected.requeue:
                    raise
                raise _RetryNotSent(rejected.reason) from None

        try:
            outcome = patiently(send, f"the retry of {self.name}[{self.request.id}]", within=_patience_left(),
                                again=lambda fault: isinstance(fault, _RetryNotSent) and is_transient(fault))
        except (_RetryNotSent, SoftTimeLimitExceeded) as failed:
            raise Reject(f"its retry could not be sent ({one_line(failed, 200)}): its message is requeued",
                         requeue=True) from None
        if isinstance(outcome, Retry) and throw:
            raise outcome
        return outcome


class _RetryNotSent(Exception):
    """Celery could not send a retry (its fault is args[0]); transient when that fault is."""

    def __init__(self, fault: Any) -> None:
        super().__init__(fault)
        self.__cause__ = fault if isinstance(fault, BaseException) else None


SLOT_TASK = "puzzlefleet.generate_slots"
_OWN_RETRY = "_puzzlefleet_own_retry"      # an option FleetTask.retry passes on to signature_from_request


_OVERRUN = (SoftTimeLimitExceeded, OutOfBudget)


def _retryable(exc: BaseException) -> bool:
    """A transient fault, the daily set's work budget spent, or the soft time limit reached where the
    work could not hand itself over first (a store call or a hand-over still in flight, one board
    longer than the budget), also when it only set off the fault raised (a soft limit in the middle of
    the pool's ping of a PostgreSQL connection leaves psycopg's "can't change 'autocommit' now"): a
    retry takes up what is left. Acked as a failure instead, a range's slots would wait for beat's
    sweep."""
    return _cause_of(exc, _OVERRUN) is not None or is_transient(exc)


def retry_for(exc: BaseException) -> Retryable:
    """The Retryable a task raises for `exc`, named after the time limit or budget that set it off if
    one did (the driver's error from a query cut short says nothing of why, and the store did answer);
    a store that does not answer is said once per worker, at WARNING, when the outage begins
    (workers.faults.store_outage_ended, at a task's success, says when it ends)."""
    overrun = _cause_of(exc, _OVERRUN)
    if overrun is not None:
        return Retryable.of(overrun)
    if is_transient(exc) and _cause_of(exc, (StoreError, SQLAlchemyError)) is not None:
        store_outage_began(exc)
    return Retryable.of(exc)


signals.task_success.connect(store_outage_ended, weak=False)


def _cause_of(exc: BaseException, kinds: tuple[type[BaseException], ...]) -> BaseException | None:
    """`exc` or the first exception it was raised from or while handling that is one of `kinds`."""
    return next((each for each in exception_chain(exc) if isinstance(each, kinds)), None)


def _game(params: Any) -> str:
    """The game label of a task's metrics ("unknown" for parameters that name no game)."""
    game = params.get("game") if isinstance(params, dict) else None
    return game if queue_of(params) is not None else "unknown"


# The arguments are read by hand, not by Python's call: a message with the wrong ones is then a bad
# task in one line (counted), not a TypeError traceback from Celery.
@app.task(name=SLOT_TASK, base=FleetTask, bind=True, throws=(BadTask,), typing=False, **RETRY)
def generate_slots(self: Any, *args: Any, **kwargs: Any) -> dict[str, Any]:
    """Make and store the boards of the slots start..stop-1 of a job, given as (job_id, start, stop,
    params, seed); returns the summary Flower shows."""
    try:
        job_id, start, stop, params, seed = slot_arguments(args, kwargs)
    except BadTask:
        metrics.task_finished("unknown", "bad")
        raise
    game = _game(params)
    # A range handed over keeps this task's priority: what the sweep sent again stays ahead of new work.
    priority = delivered_priority(self.request.delivery_info, settings().broker_kind)

    def hand_over(first: int, end: int) -> None:
        try:
            send_ranges(job_id, params, seed, [(first, end)],
                        priority=NEW_PRIORITY if priority is None else priority)
        except Exception as exc:
            if not is_transient(exc):
                raise
            raise HandOverFailed(one_line(exc, 200)) from exc

    try:
        summary = run_slots(db=process_engine(), job_id=job_id, start=start, stop=stop, params=params, seed=seed,
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
        raise retry_for(exc) from exc
    metrics.task_finished(game, "split" if summary["handed_over"] else "finished")
    return summary


def _game_of(args: Any, kwargs: Any) -> str:
    return _game(slot_arguments(tuple(args or ()), dict(kwargs or {}))[3])


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
    # A short argsrepr (what Flower shows) spares Celery a saferepr of the parameters per message.
    shown = f"{data.get('game')} {data.get('size')}" if isinstance(data, dict) else "?"
    return _send(generate_slots, (((job_id, start, stop, data, seed),
                                   f"(job {job_id}, slots {start}..{stop - 1}, {shown}, seed {seed})")
                                  for start, stop in ranges), queue_of(data) or FLEET_QUEUE, priority)


def _send(task: Any, calls: Iterable[tuple[tuple[Any, ...], str | None]], queue: str, priority: int) -> int:
    """Send `task` once per (arguments, argsrepr) to `queue` at `priority`, over one connection."""
    where = destination(queue, priority, settings().broker_kind)
    sent = 0
    with app.producer_or_acquire() as producer:
        for arguments, shown in calls:
            task.apply_async(arguments, producer=producer, **where, argsrepr=shown, kwargsrepr="{}")
            sent += 1
    return sent


def enqueue_slots(job_id: int, params: JobParams, seed: int, count: int) -> int:
    """Send a job's tasks, slots_per_task(count) slots each; returns how many tasks."""
    return send_ranges(job_id, params, seed, slot_ranges(range(count), slots_per_task(count)))


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
        log.info("could not ask the workers which queues they consume: %s", one_line(exc, 200))
        return None
    return set().union(*replies.values()) if replies else None


# Which queues no worker consumes, by this process's broadcasts (jobs.sweep.Unconsumed).
_unconsumed = Unconsumed(consumed_queues)


def queue_depths(queues: set[str]) -> dict[str, int]:
    """Messages waiting in each of `queues`, over one broker connection; {} when the broker does not
    answer (the sweep then takes none of them for empty)."""
    kind = settings().broker_kind
    try:
        with app.connection_for_write() as conn:
            return {queue: waiting(conn, queue, kind) for queue in queues}
    except Exception as exc:
        if not is_transient(exc):
            raise
        log.info("could not ask the broker how many messages wait in %s: %s", ", ".join(sorted(queues)),
                 one_line(exc, 200))
        return {}


@app.task(name="puzzlefleet.resume_stalled", base=FleetTask, **RETRY)
def resume_stalled() -> dict[str, Any]:
    """Beat's sweep for stalled jobs (jobs.sweep.sweep), given the broker's answers: how many messages
    wait in a queue, which queues some worker consumes. What it sends again goes out at RESENT_PRIORITY,
    ahead of newer work; the jobs waiting in a queue no worker consumes are puzzlefleet_jobs_waiting."""
    conf = settings()
    try:
        swept = sweep(process_engine(), stall_seconds=conf.stall_seconds, resend_slots=conf.resend_slots,
                      depths=queue_depths, unconsumed=_unconsumed, send=partial(send_ranges, priority=RESENT_PRIORITY))
    except Exception as exc:
        if not is_transient(exc):
            raise
        raise retry_for(exc) from exc
    metrics.JOBS_WAITING.set(len(swept["waiting"]))
    return swept


@app.task(name="puzzlefleet.daily", base=FleetTask, bind=True, throws=(BadTask,), **RETRY)
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
        boards = make_daily(db=process_engine(), day=when, budget=settings().work_budget,
                            plan=settings().daily_plan)
    except Exception as exc:
        # Each board of the set is stored as it is made, so a retry makes only the rest.
        if not _retryable(exc):
            raise
        raise retry_for(exc) from exc
    return {"day": when.isoformat(), "boards": [board["id"] for board in boards]}


REGRADE_TASK = "puzzlefleet.regrade"


@app.task(name=REGRADE_TASK, base=FleetTask, bind=True, throws=(BadTask,), **RETRY)
def regrade(self: Any, after: str | None, through: str | None, version: str) -> dict[str, Any]:
    """Regrade the boards with ids above `after` and up to `through` that another engine version
    graded (jobs.regrade); `version` is the engine the sender asked for, which must be this one.
    A redelivered or duplicated task finds the boards already done: none is regraded twice."""
    if version != ENGINE_VERSION:
        raise BadTask(f"regrade to engine {version} asked of a worker running engine {ENGINE_VERSION}")
    # Within the work budget, so the task stays short (settings: the hard limit fits under the
    # visibility timeout); the rest of the range goes to a new task.
    deadline = time.monotonic() + settings().work_budget
    try:
        done, rest = regrade_range(db=process_engine(), after=after, through=through,
                                   stop=lambda: time.monotonic() > deadline)
        if rest is not None:
            send_regrade([(rest, through)])
    except Exception as exc:
        if not _retryable(exc):
            raise
        raise retry_for(exc) from exc
    handed = "" if rest is None else f"; ids above {rest} handed over"
    return {"result": f"regraded {done} board(s){handed}", "regraded": done, "ids": [after, through]}


def send_regrade(ranges: Iterable[tuple[str | None, str | None]]) -> int:
    """Send a regrade task per id range to the fleet queue over one connection; returns how many."""
    return _send(regrade, (((after, through, ENGINE_VERSION), None) for after, through in ranges),
                 FLEET_QUEUE, NEW_PRIORITY)
