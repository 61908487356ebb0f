"""What beat's sweep knows of a stalled job from the store: whether its messages are gone. No Celery
here: the sweep (workers.tasks.resume_stalled) asks the broker only how many messages wait in a queue,
and passes that in."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Engine

from jobs.params import FLEET_QUEUE, queue_of
from store import session, started_jobs

SKEW = 5.0      # seconds: a job's messages go out just after its row is made, and hosts' clocks differ


def queue_of_job(job: dict[str, Any]) -> str:
    """The queue a job's tasks go to."""
    return queue_of(job["params"]) or FLEET_QUEUE


def lost_jobs(db: Engine, jobs: list[dict[str, Any]], depths: Callable[[set[str]], dict[str, int]]
              ) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The stalled jobs (no progress for the stall time) split into those whose messages are gone (each
    with "gone": why that is known) and those whose messages may still wait in their queue, judged
    from the store and the queues' depth.

    A stalled job's messages are gone when its queue is empty (none waits, and a live worker holding one
    would have shown progress within the stall time), or when a job made after the stalled one's last
    progress, on the same queue, has started: a queue serves its messages in order, so the stalled
    job's were taken before, and they showed nothing. Otherwise they may wait behind older work (a
    backlog is not a stall). A queue whose depth `depths` does not give counts as not empty."""
    if not jobs:
        return [], []
    last = {job["job"]: datetime.fromisoformat(job["updated_at"]) for job in jobs}
    with session(db, read_only=True) as s:
        later = started_jobs(session=s, after_id=min(last), created_after=min(last.values()) + timedelta(seconds=SKEW))
    started = [(other["job"], queue_of_job(other), other["created_at"]) for other in later]
    queues = {job["job"]: queue_of_job(job) for job in jobs}
    moved_past = {job_id for job_id, queue in queues.items()
                  if any(other > job_id and on == queue and made > last[job_id] + timedelta(seconds=SKEW)
                         for other, on, made in started)}
    unsure = {queue for job_id, queue in queues.items() if job_id not in moved_past}
    depth = depths(unsure) if unsure else {}
    lost = []
    for job in jobs:
        queue = queues[job["job"]]
        if job["job"] in moved_past:
            lost.append({**job, "gone": f"a job made after its last progress has started on queue {queue}"})
        elif depth.get(queue) == 0:
            lost.append({**job, "gone": f"no message waits in queue {queue}"})
    gone = {job["job"] for job in lost}
    return lost, [job for job in jobs if job["job"] not in gone]
