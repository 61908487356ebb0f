"""Redis: a worker renews the leases of the messages it holds, so that a dead worker's messages go to
another worker within PUZZLEFLEET_VISIBILITY_TIMEOUT (30 s by default) while a live worker keeps its
own however long its tasks run.

kombu's Redis transport keeps each message a worker has taken in the `unacked` hash, scored in the
`unacked_index` sorted set by when it was taken; every worker hands out again (restore_visible) the
messages whose score is older than the visibility timeout. Left alone, that timeout must outlast the
longest task and its retries' countdowns (it was an hour here), and a killed worker's tasks waited as
long. Leases: every PUZZLEFLEET_VISIBILITY_TIMEOUT / 6 seconds (workers.settings.lease_renewal) the
worker's main process moves the score of every message it holds to now (ZADD XX: a message acked
meanwhile is not added back), so only the messages of a worker that stopped (killed, its host gone,
its main process hung) age past the timeout.

The messages a worker holds: those its channel has delivered and not settled (running, prefetched, or
a retry waiting out its countdown), and those of the tasks it still runs from before a reconnection."""

from __future__ import annotations

import logging
import time
from typing import Any

from celery import bootsteps

log = logging.getLogger("puzzlefleet.lease")


def held_tags(consumer: Any) -> set[str]:
    """The delivery tags of the messages this worker holds (see the module's docstring)."""
    from celery.worker import state
    tags: set[str] = set()
    channel = getattr(getattr(consumer, "task_consumer", None), "channel", None)
    delivered = getattr(getattr(channel, "qos", None), "_delivered", None)
    if delivered:
        tags.update(str(tag) for tag in list(delivered))
    for request in (*state.active_requests, *state.reserved_requests):
        message = getattr(request, "message", None)
        tag = getattr(message, "delivery_tag", None)
        if tag is not None:
            tags.add(str(tag))
    return tags


def renew(consumer: Any) -> int:
    """Move the lease of every message this worker holds to now; how many. A broker that does not
    answer is left to the consumer's own reconnection (the leases are renewed once it is back)."""
    tags = held_tags(consumer)
    if not tags:
        return 0
    channel = consumer.task_consumer.channel
    try:
        # A client of the pool, never channel.client: that one is the event loop's, whose connection may
        # have a BRPOP in flight, and a command sent on it would read (and drop) the message it pops.
        with channel.conn_or_acquire() as client:
            client.zadd(channel.unacked_index_key, dict.fromkeys(tags, time.time()), xx=True)
    except Exception as exc:          # the broker away: its reconnection is the consumer's to make
        log.debug("could not renew %d lease(s): %s", len(tags), exc)
        return 0
    return len(tags)


class Leases(bootsteps.StartStopStep):
    """A consumer step (Redis only): renew the held messages' leases every lease_renewal seconds."""

    requires = ("celery.worker.consumer.tasks:Tasks",)

    def __init__(self, c: Any, **kwargs: Any) -> None:
        self.entry: Any = None

    def start(self, c: Any) -> None:
        from workers.settings import settings
        conf = settings()
        if conf.broker_kind != "redis":
            return
        renew(c)
        self.entry = c.timer.call_repeatedly(conf.lease_renewal, renew, (c,), priority=10)

    def stop(self, c: Any) -> None:
        if self.entry is not None:
            self.entry.cancel()
            self.entry = None

    shutdown = stop
