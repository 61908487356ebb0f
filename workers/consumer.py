"""The worker's consumer on RabbitMQ: Celery's, with every queue of the fleet declared before native
delayed delivery binds them (workers.celeryapp names it in `worker_consumer` for RabbitMQ only).

Celery's DelayedDelivery step binds the exchange of every configured queue to its delay exchanges, not
only those the worker consumes; a queue no worker has declared yet (a game whose workers have not
started) has no exchange, and each failed bind was an error line at every start. Declaring a queue
again is a no-op, so every worker declaring them all is harmless."""

from __future__ import annotations

from typing import Any

from celery.worker.consumer import Consumer
from celery.worker.consumer.delayed_delivery import DelayedDelivery


class DeclaredDelayedDelivery(DelayedDelivery):
    """Native delayed delivery, after declaring every queue of the app on the consumer's connection."""

    def start(self, c: Any) -> None:
        channel = c.connection.default_channel
        for queue in c.app.amqp.queues.values():
            queue.bind(channel).declare()
        super().start(c)


class FleetConsumer(Consumer):
    """Celery's consumer with DeclaredDelayedDelivery in place of DelayedDelivery."""

    class Blueprint(Consumer.Blueprint):
        default_steps = [f"{__name__}:DeclaredDelayedDelivery" if step.endswith(":DelayedDelivery") else step
                         for step in Consumer.Blueprint.default_steps]
