"""The worker's consumer on RabbitMQ (the app's `worker_consumer` there): Celery's, with two changes.

- Celery's DelayedDelivery step binds every configured queue's exchange to its delay exchanges, and a
  queue no worker has declared yet has none: an error line at every start. Here every queue of the app
  is declared first (declaring one again is a no-op).
- A message that is not JSON, or JSON that is not a task message, got a CRITICAL with a 30-line
  traceback or the whole body logged, uncounted. Here it is one WARNING line, counted and dropped, as
  the Redis transport does (workers.transport)."""

from __future__ import annotations

import logging
from typing import Any

from celery.worker.consumer import Consumer
from celery.worker.consumer.delayed_delivery import DelayedDelivery

logger = logging.getLogger("puzzlefleet.malformed")


class DeclaredDelayedDelivery(DelayedDelivery):
    """Native delayed delivery, after declaring every queue of the app on the consumer's connection."""

    def start(self, c: Any) -> None:
        channel = c.connection.default_channel
        for queue in c.app.amqp.queues.values():
            queue.bind(channel).declare()
        super().start(c)


class FleetConsumer(Consumer):
    """Celery's consumer with DeclaredDelayedDelivery in place of DelayedDelivery, and one line for a
    malformed message."""

    def on_decode_error(self, message: Any, exc: Exception) -> None:
        from store.errors import one_line
        from workers.transport import drop
        drop("not-json", one_line(exc, 120), message.body)
        message.ack_log_error(logger, self.connection_errors)

    def on_unknown_message(self, body: Any, message: Any) -> None:
        from workers.transport import drop
        drop("not-a-task", "JSON, but not a task message", message.body)
        message.reject_log_error(logger, self.connection_errors)

    class Blueprint(Consumer.Blueprint):
        default_steps = [f"{__name__}:DeclaredDelayedDelivery" if step.endswith(":DelayedDelivery") else step
                         for step in Consumer.Blueprint.default_steps]
