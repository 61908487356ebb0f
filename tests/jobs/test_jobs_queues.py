"""Where a job's messages wait: the queue names and priorities both brokers are sent by."""

from __future__ import annotations

from jobs.queues import NEW_PRIORITY, RESENT_PRIORITY, broker_queues, delivered_priority, destination, queue_keys


def test_on_redis_a_priority_is_a_list_of_its_own_and_resent_work_is_taken_first() -> None:
    assert queue_keys("queens") == ["queens", "queens\x06\x165"]       # step 0 (resent) is served first
    assert broker_queues("queens", "redis") == queue_keys("queens")
    assert destination("queens", RESENT_PRIORITY, "redis") == {"queue": "queens", "priority": RESENT_PRIORITY}
    assert destination("queens", NEW_PRIORITY, "redis") == {"queue": "queens", "priority": NEW_PRIORITY}
    assert delivered_priority({"routing_key": "queens", "priority": 5}, "redis") == 5
    assert delivered_priority({"routing_key": "queens"}, "redis") is None and delivered_priority(None, "redis") is None


def test_on_rabbitmq_resent_work_goes_to_a_twin_queue_which_names_its_priority() -> None:
    assert broker_queues("queens", "amqp") == ["queens", "queens.resent"]
    assert destination("queens", RESENT_PRIORITY, "amqp") == {"queue": "queens.resent"}
    assert destination("queens", NEW_PRIORITY, "amqp") == {"queue": "queens"}
    # every RabbitMQ message says priority 0: the queue it came from (behind a delay prefix too) decides
    assert delivered_priority({"routing_key": "queens", "priority": 0}, "amqp") == NEW_PRIORITY
    assert delivered_priority({"routing_key": "0.0.1.queens.resent", "priority": 0}, "amqp") == RESENT_PRIORITY
