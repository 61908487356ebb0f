"""Beat's sweep for stalled jobs, judged from the store: which jobs' messages are gone, which to send
again within the sweep's budget, which wait in a queue no worker consumes. No Celery here: the task
(workers.tasks.resume_stalled) asks the broker how many messages wait in a queue and which queues its
workers consume, and sends the slots, through the functions it passes in."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from typing import Any

from sqlalchemy import Engine

from jobs.params import FLEET_QUEUE, queue_of
from jobs.slot import slot_ranges, slots_per_task
from store import session, stalled_jobs, started_jobs, touch_job, unfinished_slots

SKEW = 5.0      # seconds: a job's messages go out just after its row is made, and hosts' clocks differ
CONSUMED_FOR = 60.0        # seconds the sweep reuses an answer in which every queue it asked about is consumed
UNCONSUMED_FOR = 30.0      # seconds a queue must go unconsumed, asked again at each sweep, before it is said
log = logging.getLogger(__name__)
# send(job_id, params, seed, ranges): the job's slot ranges [start, stop) sent as tasks.
Send = Callable[[int, Any, int, list[tuple[int, int]]], Any]


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


class Unconsumed:
    """The queues among those asked about that no worker has consumed for UNCONSUMED_FOR seconds, by
    the answers of `ask()` (the queues some worker consumes, by a broadcast; None: no worker answered),
    as one process's sweeps see them: `unconsumed(queues)`, None when no worker answered.

    An answer in which all are consumed is reused for CONSUMED_FOR seconds (a standing backlog would
    otherwise cost a broadcast, a second of a pool process, at every sweep); a queue found unconsumed
    is asked about again at each sweep, and said only once it has stayed so that long: a worker
    reconnecting to the broker (after a restart: up to half a minute) does not answer."""

    def __init__(self, ask: Callable[[], set[str] | None], clock: Callable[[], float] = time.monotonic) -> None:
        self.ask, self.clock = ask, clock
        self.asked_at: float = -CONSUMED_FOR
        self.consumed: set[str] | None = None
        self.since: dict[str, float] = {}          # when each queue was first found unconsumed

    def __call__(self, queues: set[str]) -> set[str] | None:
        now = self.clock()
        fresh = self.consumed is not None and now - self.asked_at < CONSUMED_FOR and queues <= self.consumed
        if not fresh:
            self.asked_at, self.consumed = now, self.ask()
        consumed = self.consumed
        if consumed is None:
            return None
        for queue in list(self.since):
            if queue in consumed:
                del self.since[queue]
        for queue in queues - consumed:
            self.since.setdefault(queue, now)
        return {queue for queue in queues - consumed if now - self.since[queue] >= UNCONSUMED_FOR}


def resend_unfinished(db: Engine, job: dict[str, Any], send: Send, *, within: int | None = None) -> int | None:
    """Send a job's unfinished slots again, all of them (`send`), and mark it as just having progressed,
    so that it is not sent again before it stalls again; returns how many slots. With `within`, a job
    with more unfinished slots than that is left as it is: None."""
    with session(db, read_only=True) as s:
        slots = unfinished_slots(session=s, job_id=job["job"])
    if within is not None and len(slots) > within:
        return None
    if slots:
        send(job["job"], job["params"], job["seed"], slot_ranges(slots, slots_per_task(len(slots))))
    with session(db) as s:
        touch_job(session=s, job_id=job["job"])
    return len(slots)


def _idle_seconds(job: dict[str, Any]) -> float:
    return (datetime.now(timezone.utc) - datetime.fromisoformat(job["updated_at"])).total_seconds()


def sweep(db: Engine, *, stall_seconds: float, resend_slots: int, depths: Callable[[set[str]], dict[str, int]],
          unconsumed: Callable[[set[str]], set[str] | None], send: Send) -> dict[str, Any]:
    """One sweep: every job with no progress for `stall_seconds` whose messages are gone (lost_jobs, by
    the queues' `depths`) has its unfinished slots sent again (`send`): a broker restarted without its
    data, a worker killed between taking a message and the broker recording it, a task that failed for
    good. A job whose messages may wait in its queue, behind older work, is not sent again: a backlog is
    not a stall. Jobs go whole, oldest first, until the next would take the sweep past `resend_slots`
    slots (the first goes whatever its size); that one and the rest wait for the next sweep, still
    stalled: a job sent in part would wait for a stall of its own before its rest went. Storing is
    idempotent per slot, so a slot sent twice never gives a second board.

    A job waiting in a queue no worker consumes (`unconsumed`) is said in a log line. Returns the slots
    sent again by job ("resumed"), the jobs waiting in such a queue ("waiting") and those left for the
    next sweep ("deferred")."""
    with session(db, read_only=True) as s:
        jobs = stalled_jobs(session=s, idle_seconds=stall_seconds)
    lost, standing = lost_jobs(db, jobs, depths)
    unserved = unconsumed({queue_of_job(job) for job in standing}) if standing else None
    budget = resend_slots
    resumed: dict[str, int] = {}
    waiting: list[int] = []
    deferred: list[int] = []
    for job in standing:
        queue = queue_of_job(job)
        if unserved is not None and queue in unserved:
            waiting.append(job["job"])
            if job["state"] == "queued":
                log.warning("job %d has waited %.0f s in queue %s with no slot taken: is a worker "
                            "consuming it?", job["job"], job["elapsed"], queue)
            else:
                log.warning("job %d has made no progress for %.0f s: no worker consumes queue %s",
                            job["job"], _idle_seconds(job), queue)
    for job in lost:
        idle = _idle_seconds(job)
        sent = None if deferred else resend_unfinished(db, job, send, within=budget if resumed else None)
        if sent is None:
            deferred.append(job["job"])
            continue
        budget -= sent
        resumed[str(job["job"])] = sent
        log.warning("job %d: %d slots sent again after %.0f s without progress: %s", job["job"], sent, idle,
                    job["gone"])
    if deferred:
        log.warning("%d stalled job(s) left for the next sweep (PUZZLEFLEET_RESEND_SLOTS=%d reached): %s",
                    len(deferred), resend_slots, ", ".join(map(str, deferred[:20])))
    return {"resumed": resumed, "waiting": waiting, "deferred": deferred}
