"""The Celery app, configured from the environment (see workers.settings).

CPU-bound tasks on Redis or RabbitMQ: late acks and requeue when a pool process dies (a task is lost
only if it is never finished; a message a dead worker took comes back from the broker: on Redis after
the visibility timeout, which a task's hard limit fits under), one message prefetched per process,
JSON only, a queue per game,
pool processes recycled after PUZZLEFLEET_MAX_TASKS_PER_CHILD tasks. Tasks send events, so Flower
shows each task's return value (its summary).

On RabbitMQ the queues are durable quorum queues (replicated, written to disk), messages persistent
and every publish confirmed by the broker; a worker whose connection closes has its unacknowledged
messages handed out again at once. Retries wait in RabbitMQ's delay queues (Celery's native delayed
delivery, which needs topic exchanges), not in the worker."""

from __future__ import annotations

import os
import warnings
from typing import Any

from celery import Celery, signals
from celery.schedules import crontab
from kombu import Connection, Exchange, Queue

from workers import transport
from jobs.params import FLEET_QUEUE, queue_of, queues
from jobs.queues import PRIORITY_SEPARATOR, PRIORITY_STEPS, RESENT_SUFFIX, broker_queues, resent_queue
from workers.settings import Settings, settings
from workers.settings import broker_kind as broker_kind_of


def waiting(connection: Connection, queue: str, kind: str, *, twin: bool = True) -> int:
    """Messages waiting in a queue (not those already delivered to a worker), as the broker counts them
    for a passive declare (on Redis over its priority lists; on RabbitMQ with its .resent twin, unless
    `twin` is False); 0 for a queue the broker does not hold (Redis keeps no empty queue)."""
    total = 0
    for name in [queue] if kind == "redis" or not twin else broker_queues(queue, kind):
        channel = connection.channel()       # a passive declare of a missing queue may close its channel
        try:
            total += channel.queue_declare(queue=name, passive=True).message_count
        except connection.channel_errors:
            pass
        finally:
            if getattr(channel, "is_open", True):
                channel.close()
    return total


def broker_connection(url: str | None = None) -> Connection:
    """A kombu Connection to the broker (by default the settings' one) with the fleet's transport
    options, so that a queue's depth counts its priority lists."""
    conf = settings()
    url = url or conf.broker
    options = _redis_options(conf) if broker_kind_of(url) == "redis" else _amqp_options(conf)
    return Connection(url, connect_timeout=5, transport_options=options)


def _queue(name: str, kind: str) -> Queue:
    if kind == "redis":
        return Queue(name)
    # A topic exchange of its own, as native delayed delivery needs (it does not serve direct ones).
    return Queue(name, Exchange(name, type="topic"), routing_key=name, queue_arguments={"x-queue-type": "quorum"})


def task_queues(kind: str) -> list[Queue]:
    """Every queue of the fleet on this broker: a queue per game and `fleet` (on RabbitMQ each with
    its .resent twin)."""
    names = [*queues(), FLEET_QUEUE]
    if kind == "amqp":
        names = [name for base in names for name in (base, resent_queue(base))]
    return [_queue(name, kind) for name in names]


def _route(name: str, args: Any, kwargs: Any, options: Any, task: Any = None, **_: Any) -> dict | None:
    """A slot task goes to its game's queue (the game is in its parameters); a retry of one that came
    from a RabbitMQ .resent queue goes back there."""
    if name == "puzzlefleet.generate_slots":
        params = (args[3] if args and len(args) > 3 else (kwargs or {}).get("params")) or {}
        queue = queue_of(params) or FLEET_QUEUE
        if str((options or {}).get("routing_key") or "").endswith(RESENT_SUFFIX):
            queue = resent_queue(queue)
        return {"queue": queue}
    if name.startswith("puzzlefleet."):
        return {"queue": FLEET_QUEUE}
    return None


def _redis_options(conf: Settings) -> dict[str, Any]:
    visibility = conf.visibility_timeout
    return {
        # A message taken and not acknowledged goes to another worker after this long: a task's hard
        # limit and a retry's countdown fit under it (the settings check), so only a dead worker's do.
        "visibility_timeout": visibility,
        # Sweep for abandoned (unacknowledged) messages often enough that a message past its timeout
        # goes to another worker within seconds; kombu's defaults sweep about every 100 s.
        "unacked_restore_interval": max(1, min(5, int(visibility // 6))),
        "unacked_restore_throttle": 1,
        # The lock a worker takes to restore them lives 300 s by default: a worker killed while
        # holding it would stop every restore for that long. Restoring is transactional per
        # message (WATCH), so a short lock only risks a wasted scan.
        "unacked_mutex_expire": max(2, min(60, int(visibility // 2))),
        "socket_connect_timeout": 10,
        "socket_timeout": 30,
        "health_check_interval": 10,
        "priority_steps": PRIORITY_STEPS,
        "sep": PRIORITY_SEPARATOR,
        # A worker with several queues (a game's and `fleet`) takes them in turn: neither starves the other.
        "queue_order_strategy": "round_robin",
    }


def _amqp_options(conf: Settings) -> dict[str, Any]:
    # Publisher confirms: a send returns once RabbitMQ has the message (on disk, for a quorum queue),
    # so `enqueue` never reports a job sent whose messages a broker restart then loses.
    return {"confirm_publish": True}


def make_app(conf: Settings | None = None) -> Celery:
    conf = conf or settings()
    kind = conf.broker_kind
    app = Celery("puzzlefleet", broker=conf.broker, include=["workers.tasks"])
    # Redis: kombu's transport with a malformed message dropped and a settle after a reconnection
    # made on a new connection (workers.transport).
    extra: dict[str, Any] = {"broker_transport": "workers.transport:Transport"}
    if kind == "amqp":
        extra = {
            # an ack whose connection closed meanwhile is one line, not a CRITICAL (workers.transport)
            "broker_transport": "workers.transport:AmqpTransport",
            # queues Celery makes by itself (a queue named in a send) are quorum queues too
            "task_default_queue_type": "quorum",
            "task_default_exchange_type": "topic",      # as the queues' own (see _queue)
            "worker_detect_quorum_queues": True,
            # A host that vanishes without closing its connection is noticed in about a minute (its
            # messages then go to other workers), not Celery's default four.
            "broker_heartbeat": 30,
            "worker_consumer": "workers.consumer:FleetConsumer",     # the worker imports it, no client does
        }
    app.conf.update(
        task_serializer="json",
        result_serializer="json",
        event_serializer="json",
        accept_content=["json"],
        result_accept_content=["json"],
        task_acks_late=True,
        task_reject_on_worker_lost=True,
        worker_prefetch_multiplier=1,
        # A pool process that dies mid-task has its message requeued after this many seconds (Celery
        # waits for a result it may have sent first; 10 s by default, a task that ends in the meantime
        # having come back through the pipe long before).
        worker_lost_wait=1.0,
        worker_max_tasks_per_child=conf.max_tasks_per_child,
        task_soft_time_limit=conf.soft_time_limit,
        task_time_limit=conf.time_limit,
        task_ignore_result=True,           # progress lives in the store; Flower reads return values from events
        task_queues=task_queues(kind),
        task_default_queue=FLEET_QUEUE,
        task_routes=(_route,),
        worker_send_task_events=True,
        broker_connection_retry_on_startup=True,
        # A task still running when the broker connection drops carries on; its slot is idempotent, so
        # a redelivery after reconnecting costs a lookup, not a second board.
        worker_cancel_long_running_tasks_on_connection_loss=False,
        broker_transport_options=_redis_options(conf) if kind == "redis" else _amqp_options(conf),
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
        **extra,
    )
    return app


app = make_app()


def _quiet_cancel_warning() -> None:
    # Celery warns, in ten lines at every broker connection loss, that it may one day cancel running
    # tasks then; this app sets worker_cancel_long_running_tasks_on_connection_loss=False on purpose
    # (slots are idempotent), so the warning says nothing to an operator. (Called again once the worker
    # is ready: Celery's logging set-up puts its own "always" filters first.)
    warnings.filterwarnings("ignore", message=r"(?s).*cancels all currently executed tasks")


_quiet_cancel_warning()


def _count_malformed(reason: str) -> None:
    from workers import metrics
    metrics.MALFORMED.labels(reason).inc()


transport.count_drops(_count_malformed)     # a malformed message is dropped and counted, not the worker


@signals.after_setup_logger.connect
def _one_line_faults(logger: Any = None, **_: Any) -> None:
    # Worker and beat alike: an expected fault (the broker or the store away for a while) is one log
    # line, not a traceback (workers.faults.OneLine).
    from workers.faults import quieten
    quieten(logger)


@signals.worker_ready.connect
def _worker_ready(**_: Any) -> None:
    _quiet_cancel_warning()          # after Celery's logging set-up, whose "always" filters come first


@signals.after_task_publish.connect
def _published(**_: Any) -> None:
    # beat (and any sender) after a broker outage: the send that goes out ends it, in one WARNING
    from workers.faults import broker_answers
    broker_answers()


@signals.celeryd_after_setup.connect
def _consume_resent(sender: Any = None, instance: Any = None, **_: Any) -> None:
    # RabbitMQ: a worker of a queue (-Q queens,fleet) also takes what the sweep sent again for it.
    if instance is None:
        return
    declared = instance.app.amqp.queues
    consumed = declared.consume_from
    if consumed is None:
        return                      # no -Q: it consumes every queue, the twins included
    for name in list(consumed):
        if not name.endswith(RESENT_SUFFIX) and resent_queue(name) in declared:
            declared.select_add(declared[resent_queue(name)])


@signals.worker_init.connect
def _worker_init(sender: Any = None, **_: Any) -> None:
    # The worker's main process, before its pool starts: a clean metrics directory, then the server,
    # whose per-job gauges cover the queues this worker consumes (-Q; all of them without it).
    from workers import metrics
    from workers.faults import STORE_DOWN_MARKER
    try:
        os.unlink(STORE_DOWN_MARKER.format(pid=os.getpid()))      # one left by an earlier worker of this pid
    except OSError:
        pass
    metrics.wipe()
    consumed = sender.app.amqp.queues.consume_from if sender is not None else None
    metrics.serve(None if consumed is None else set(consumed))


@signals.worker_process_shutdown.connect
def _process_shutdown(pid: int | None = None, **_: Any) -> None:
    from workers import metrics
    metrics.process_exited(pid or os.getpid())
