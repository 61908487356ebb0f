"""Where a job's messages wait, by name: a queue per game (jobs.params.queue_of), its priorities, and
the lists or queues each broker keeps it in. Names only, no client: the workers send and consume by
them, and the deployment files (deploy/generate.py) point their scalers and exporters at them.

On Redis a lower priority number is served first (kombu's transport keeps a list per step of
`priority_steps`, taken in step order). A job's tasks go out at NEW_PRIORITY; what beat's sweep sends
again for a stalled job at RESENT_PRIORITY, so it is taken before work enqueued after it. Messages
sent with no priority (other clients, the fleet queue's tasks) count as step 0.

RabbitMQ's quorum queues have no message priorities before RabbitMQ 4.0, so there what the sweep
sends again goes to a twin queue, NAME.resent, which every worker of NAME consumes too: the broker
delivers from each queue a worker consumes as soon as it has room, so resent work never waits behind
the backlog of NAME."""

from __future__ import annotations

from typing import Any

RESENT_PRIORITY, NEW_PRIORITY = 0, 5
PRIORITY_STEPS = [RESENT_PRIORITY, NEW_PRIORITY]
# kombu's transport option `sep`, set by the app rather than left to kombu's default, as it names the
# priority lists that a scaler outside the fleet reads.
PRIORITY_SEPARATOR = "\x06\x16"
RESENT_SUFFIX = ".resent"


def queue_keys(queue: str) -> list[str]:
    """The Redis lists that hold a queue's messages, in the order workers take them: the queue's own
    name for step 0, NAME + `sep` + STEP for the others (the transport's documented naming)."""
    return [queue if step == 0 else f"{queue}{PRIORITY_SEPARATOR}{step}" for step in PRIORITY_STEPS]


def resent_queue(queue: str) -> str:
    """The RabbitMQ queue of what the sweep sends again for `queue`."""
    return queue + RESENT_SUFFIX


def broker_queues(queue: str, kind: str) -> list[str]:
    """Where a queue's messages wait on the broker `kind` ("redis": its lists, "amqp": RabbitMQ's
    queues)."""
    return queue_keys(queue) if kind == "redis" else [queue, resent_queue(queue)]


def destination(queue: str, priority: int, kind: str) -> dict[str, Any]:
    """apply_async options for a slot task of `queue` at `priority` (NEW_PRIORITY or RESENT_PRIORITY)."""
    if kind == "redis":
        return {"queue": queue, "priority": priority}
    return {"queue": resent_queue(queue) if priority == RESENT_PRIORITY else queue}


def delivered_priority(delivery_info: dict[str, Any] | None, kind: str) -> int | None:
    """The priority a task came with (None: unknown), so the ranges it hands over keep it. On RabbitMQ
    the queue says it (every message there carries priority 0, whatever it was sent with)."""
    info = delivery_info or {}
    if kind == "amqp":
        resent = str(info.get("routing_key") or "").endswith(RESENT_SUFFIX)   # also behind a delay prefix
        return RESENT_PRIORITY if resent else NEW_PRIORITY
    priority = info.get("priority")
    return None if priority is None else int(priority)
