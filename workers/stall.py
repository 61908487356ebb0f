"""Whether a job that has made no progress has lost its messages: what beat's sweep asks the broker
before it sends a job's slots again (workers.tasks.resume_stalled).

A job with no progress for PUZZLEFLEET_STALL_SECONDS is one of:
  held     a worker holds one of its messages (running it, or waiting out a retry's countdown);
  waiting  its messages may still wait in its queue, behind older work (a backlog: not a stall);
  lost     neither: its messages are gone (a broker restarted without its data, a message taken by a
           worker killed before the broker recorded it, a task that failed for good): the sweep
           sends its unfinished slots again;
  unknown  the broker could not tell (it is away, or no worker answered): nothing is sent.

On Redis the sweep reads it from the broker itself. Every slot task message carries two headers,
puzzlefleet_job and puzzlefleet_sent (the unix time it was sent), and the hash SENT_KEY keeps, per
job, when its last message was sent (written before the send and again after it). Held: a message of
the job is in kombu's `unacked` hash (what workers hold, their leases renewed while they live:
workers.lease). Waiting: a message of the job is among those at the head of its queue's lists (the
next ones workers take) that were sent no later than its last send (SKEW allowed between hosts'
clocks). The lists are first in, first out, so each is read from its head only until a message sent
after that: the job's messages cannot be behind it. Otherwise lost. A backlog of more than SCAN_LIMIT
such messages is not read to its end: a job not seen in it may still be behind, and counts as
waiting. After Redis loses its data the hash is gone too, and a job's last send is taken to be its
creation.

On RabbitMQ no message is lost by a restart (quorum queues, publisher confirms), and a queue's order
cannot be read without taking messages, so a job is waiting while its queue, its .resent twin or a
delay queue (retries counting down) holds any message; held when a worker says it runs or holds one
of its tasks (a broadcast); lost otherwise."""

from __future__ import annotations

import json
import math
import time
from collections.abc import Collection, Iterable, Mapping
from datetime import datetime
from typing import Any

SENT_KEY = "puzzlefleet:sent"
JOB_HEADER, SENT_HEADER = "puzzlefleet_job", "puzzlefleet_sent"
SKEW = 5.0                  # seconds: clocks of the hosts that send may differ this much
SCAN_LIMIT = 5000           # messages read from the head of one queue list per sweep
SCAN_PAGE = 250
UNACKED_KEY = "unacked"     # kombu's Redis transport: the messages workers hold (its default name)

HELD, WAITING, LOST, UNKNOWN = "held", "waiting", "lost", "unknown"


def headers(job_id: int, when: float | None = None) -> dict[str, Any]:
    """The headers of a slot task message of `job_id` sent now (or at `when`)."""
    return {JOB_HEADER: int(job_id), SENT_HEADER: round(time.time() if when is None else when, 3)}


def mark_sent(client: Any, job_ids: Iterable[int], when: float | None = None) -> None:
    """Redis: note that messages of these jobs are being sent (before sending them)."""
    stamp = round(time.time() if when is None else when, 3)
    mapping = {str(int(job)): stamp for job in job_ids}
    if mapping:
        client.hset(SENT_KEY, mapping=mapping)


def forget(client: Any, open_jobs: Collection[int]) -> None:
    """Redis: drop the send times of jobs no longer open."""
    keys = client.hkeys(SENT_KEY)
    gone = [key for key in keys if int(key) not in open_jobs]
    if gone:
        client.hdel(SENT_KEY, *gone)


def _headers_of(raw: bytes | str | None) -> dict[str, Any]:
    """A Redis-held message's headers ({} for anything unreadable)."""
    if raw is None:
        return {}
    try:
        value = json.loads(raw)
    except ValueError:
        return {}
    if isinstance(value, list) and value:            # the unacked hash: [payload, exchange, routing key]
        value = value[0]
    head = value.get("headers") if isinstance(value, dict) else None
    return head if isinstance(head, dict) else {}


def _job_of(head: Mapping[str, Any]) -> int | None:
    job = head.get(JOB_HEADER)
    if isinstance(job, int):
        return job
    shown = str(head.get("argsrepr") or "")         # messages sent before the header existed
    if shown.startswith("(job "):
        number = shown[5:].split(",", 1)[0]
        return int(number) if number.isdigit() else None
    return None


def _timestamp(value: str) -> float:
    return datetime.fromisoformat(value).timestamp()


def _sent_at(head: Mapping[str, Any]) -> float:
    stamp = head.get(SENT_HEADER)
    return float(stamp) if isinstance(stamp, (int, float)) else 0.0     # unknown: as old as can be


def _jobs_at_head(client: Any, key: str, horizon: float) -> tuple[set[int], float]:
    """The jobs of the messages at the head of list `key` sent no later than `horizon`, read from the
    head (the right end: workers pop from the right) until one sent after it; and up to when the list
    is known (infinity when read that far; else the latest send read, SCAN_LIMIT messages in). A
    worker that pops between two pages makes the next page skip a message: a job judged lost for that
    is sent again, which costs only time."""
    seen: set[int] = set()
    newest = 0.0
    for start in range(0, SCAN_LIMIT, SCAN_PAGE):
        page = client.lrange(key, -(start + SCAN_PAGE), -(start + 1))
        for raw in reversed(page):
            head = _headers_of(raw)
            job = _job_of(head)
            if job is not None:
                seen.add(job)
            newest = max(newest, _sent_at(head))
            if newest > horizon:
                return seen, math.inf
        if len(page) < SCAN_PAGE:
            return seen, math.inf
    return seen, newest


def redis_evidence(client: Any, jobs: Iterable[Mapping[str, Any]], lists_of: Mapping[int, list[str]]) -> dict[int, str]:
    """HELD, WAITING or LOST for each job (dicts with "job" and "created_at"), from Redis. `lists_of`:
    each job's queue lists (workers.celeryapp.queue_keys of its queue)."""
    jobs = list(jobs)
    held = {_job_of(_headers_of(raw)) for raw in client.hvals(UNACKED_KEY)}
    sent = {int(k): float(v) for k, v in client.hgetall(SENT_KEY).items()}
    horizon_of: dict[int, float] = {}             # a job's last send, clocks' skew allowed
    horizon: dict[str, float] = {}                # each list read up to the latest of its jobs'
    for job in jobs:
        job_id = int(job["job"])
        if job_id in held:
            continue
        horizon_of[job_id] = max(sent.get(job_id, 0.0), _timestamp(job["created_at"])) + SKEW
        for key in lists_of[job_id]:
            horizon[key] = max(horizon.get(key, 0.0), horizon_of[job_id])
    read = {key: _jobs_at_head(client, key, until) for key, until in horizon.items()}
    out = {}
    for job in jobs:
        job_id = int(job["job"])
        if job_id in held:
            out[job_id] = HELD
            continue
        # seen among the messages before it, or further back than the list was read
        behind = any(job_id in read[key][0] or read[key][1] <= horizon_of[job_id] for key in lists_of[job_id])
        out[job_id] = WAITING if behind else LOST
    return out


def amqp_evidence(jobs: Iterable[Mapping[str, Any]], queued: Mapping[int, int], delayed: int,
                  held: set[int] | None) -> dict[int, str]:
    """HELD, WAITING, LOST or UNKNOWN for each job on RabbitMQ: `queued` the messages waiting in each
    job's queue and its .resent twin, `delayed` those in the delay queues, `held` the jobs some worker
    runs or holds a task of (None: no worker answered)."""
    out = {}
    for job in jobs:
        job_id = int(job["job"])
        if queued[job_id] > 0 or delayed > 0:
            out[job_id] = WAITING
        elif held is None:
            out[job_id] = UNKNOWN
        else:
            out[job_id] = HELD if job_id in held else LOST
    return out
