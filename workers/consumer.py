"""The worker's consumer on RabbitMQ: Celery's, with every queue of the fleet declared before native
delayed delivery binds them, and malformed messages dropped in one line (workers.celeryapp names it in
`worker_consumer` for RabbitMQ only).

Celery's DelayedDelivery step binds the exchange of every configured queue to its delay exchanges, not
only those the worker consumes; a queue no worker has declared yet (a game whose workers have not
started) has no exchange, and each failed bind was an error line at every start. Declaring a queue
again is a no-op, so every worker declaring them all is harmless.

A message that is not JSON got Celery's CRITICAL "Can't decode message body" and a 30-line traceback,
and JSON that is not a task message its "Received and deleted unknown message" with the whole body,
neither counted. Here each is one WARNING line, counted in puzzlefleet_malformed_messages_total
(not-json, not-a-task), as the Redis transport does (workers.transport), and dropped."""

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
