"""The Celery app, configured from the environment (see workers.settings).

Long CPU-bound tasks on Redis: late acks and requeue when a pool process dies (a task is lost only if
it is never finished), one message prefetched per process, JSON only, a queue per game, pool processes
recycled after PUZZLEFLEET_MAX_TASKS_PER_CHILD tasks. Tasks send events, so Flower shows each task's
return value (its summary)."""

from __future__ import annotations

import os
from typing import Any

from celery import Celery, signals
from celery.schedules import crontab
from kombu import Queue

from workers import tolerant
from workers.params import FLEET_QUEUE, queue_of, queues
from workers.settings import settings

# Message priorities on Redis, where a lower number is served first: kombu keeps one list per step of
# `priority_steps` (the step 0 list is the queue's own name, the others `NAME\x06\x16STEP`) and a
# worker pops them in step order. A job's tasks go out at NEW_PRIORITY; what beat's sweep sends again
# for a stalled job goes out at RESENT_PRIORITY, so it is taken before any work enqueued after it.
# Messages sent with no priority (other clients, the fleet queue's tasks) land on the step 0 list too.
RESENT_PRIORITY, NEW_PRIORITY = 0, 5
PRIORITY_STEPS = [RESENT_PRIORITY, NEW_PRIORITY]
PRIORITY_SEPARATOR = "\x06\x16"             # kombu's default `sep`


def queue_keys(queue: str) -> list[str]:
    """The Redis lists that hold a queue's messages, in the order workers take them."""
    return [queue if step == 0 else f"{queue}{PRIORITY_SEPARATOR}{step}" for step in PRIORITY_STEPS]


def _route(name: str, args: Any, kwargs: Any, options: Any, task: Any = None, **_: Any) -> dict | None:
    """A slot task goes to its game's queue (the game is in its parameters)."""
    if name == "puzzlefleet.generate_slots":
        params = (args[3] if args and len(args) > 3 else (kwargs or {}).get("params")) or {}
        return {"queue": queue_of(params) or FLEET_QUEUE}
    if name.startswith("puzzlefleet."):
        return {"queue": FLEET_QUEUE}
    return None


def make_app() -> Celery:
    conf = settings()
    app = Celery("puzzlefleet", broker=conf.broker, include=["workers.tasks"])
    visibility = conf.visibility_timeout
    app.conf.update(
        task_serializer="json",
        result_serializer="json",
        event_serializer="json",
        accept_content=["json"],
        result_accept_content=["json"],
        task_acks_late=True,
        task_reject_on_worker_lost=True,
        worker_prefetch_multiplier=1,
        worker_max_tasks_per_child=conf.max_tasks_per_child,
        task_soft_time_limit=conf.soft_time_limit,
        task_time_limit=conf.time_limit,
        task_ignore_result=True,           # progress lives in the store; Flower reads return values from events
        task_queues=[Queue(name) for name in (*queues(), FLEET_QUEUE)],
        task_default_queue=FLEET_QUEUE,
        task_routes=(_route,),
        worker_send_task_events=True,
        broker_connection_retry_on_startup=True,
        # A task still running when the broker connection drops carries on; its slot is idempotent, so
        # a redelivery after reconnecting costs a lookup, not a second board.
        worker_cancel_long_running_tasks_on_connection_loss=False,
        broker_transport_options={
            "visibility_timeout": visibility,
            # Sweep for abandoned (unacknowledged) messages often enough that a small visibility
            # timeout means fast redelivery; kombu's defaults sweep about every 100 s.
            "unacked_restore_interval": max(1, min(10, int(visibility // 4))),
            "unacked_restore_throttle": 1,
            # The lock a worker takes to restore them lives 300 s by default: a worker killed while
            # holding it would stop every restore for that long. Restoring is transactional per
            # message (WATCH), so a short lock only risks a wasted scan.
            "unacked_mutex_expire": max(2, min(60, int(visibility // 2))),
            "socket_connect_timeout": 10,
            "socket_timeout": 30,
            "health_check_interval": 10,
            "priority_steps": PRIORITY_STEPS,
            # A worker with several queues (a game's and `fleet`) takes them in turn, as before.
            "queue_order_strategy": "round_robin",
        },
        timezone="UTC",
        enable_utc=True,
        beat_schedule={
            "resume-stalled-jobs": {"task": "puzzlefleet.resume_stalled", "schedule": conf.resume_interval,
                                    "options": {"expires": conf.resume_interval}},
            # The day's set, just after midnight UTC (the app's timezone); a run missed by more than
            # a few hours is left to the next day's, or to `puzzlefleet daily`.
            "daily-set": {"task": "puzzlefleet.daily", "schedule": crontab(minute=5, hour=0),
                          "options": {"expires": 6 * 3600}},
        },
    )
    return app


app = make_app()


def _count_malformed(reason: str) -> None:
    from workers import metrics
    metrics.MALFORMED.labels(reason).inc()


tolerant.install(_count_malformed)     # a malformed message is dropped, not the worker


@signals.after_setup_logger.connect
def _one_line_faults(logger: Any = None, **_: Any) -> None:
    # Worker and beat alike: an expected fault (the broker or the store away for a while) is one log
    # line, not a traceback (workers.faults.OneLine).
    from workers.faults import quieten
    quieten(logger)


@signals.worker_init.connect
def _worker_init(sender: Any = None, **_: Any) -> None:
    # The worker's main process, before its pool starts: a clean metrics directory, then the server,
    # whose per-job gauges cover the queues this worker consumes (-Q; all of them without it).
    from workers import metrics
    metrics.wipe()
    consumed = sender.app.amqp.queues.consume_from if sender is not None else None
    metrics.serve(None if consumed is None else set(consumed))


@signals.worker_process_shutdown.connect
def _process_shutdown(pid: int | None = None, **_: Any) -> None:
    from workers import metrics
    metrics.process_exited(pid or os.getpid())
