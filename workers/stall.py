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
puzzlefleet_job and puzzlefleet_sent (the unix time it was sent), and the hash SENT_KEY keeps, per job,
when its last message was sent (written before the send). Held: a message of the job is in kombu's
`unacked` hash (what workers hold, their leases renewed while they live: workers.lease). Waiting:
some list of its queue holds, at its head (the next message a worker takes), a message sent no later
than the job's last one (SKEW allowed between hosts' clocks): the lists are first in, first out, so
the job's messages may still be behind it. Otherwise lost, when the job's queue lists are empty or
their heads are younger than its last message (the job's messages would have been taken by now).
After Redis loses its data the hash is gone too, and a job's last send is taken to be its creation.

On RabbitMQ no message is lost by a restart (quorum queues, publisher confirms), and a queue's order
cannot be read without taking messages, so a job is waiting while its queue, its .resent twin or a
delay queue (retries counting down) holds any message; held when a worker says it runs or holds one
of its tasks (a broadcast); lost otherwise."""

from __future__ import annotations

import json
import time
from collections.abc import Collection, Iterable, Mapping
from datetime import datetime
from typing import Any

SENT_KEY = "puzzlefleet:sent"
JOB_HEADER, SENT_HEADER = "puzzlefleet_job", "puzzlefleet_sent"
SKEW = 5.0                  # seconds: clocks of the hosts that send may differ this much
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


def redis_evidence(client: Any, jobs: Iterable[Mapping[str, Any]], lists_of: Mapping[int, list[str]]) -> dict[int, str]:
    """HELD, WAITING or LOST for each job (dicts with "job" and "created_at"), from Redis. `lists_of`:
    each job's queue lists (workers.celeryapp.queue_keys of its queue)."""
    jobs = list(jobs)
    held = {_job_of(_headers_of(raw)) for raw in client.hvals(UNACKED_KEY)}
    sent = {int(k): float(v) for k, v in client.hgetall(SENT_KEY).items()}
    heads: dict[str, float | None] = {}           # a list's head's send time; absent: the list is empty
    for keys in lists_of.values():
        for key in keys:
            if key in heads:
                continue
            raw = client.lindex(key, -1)          # workers pop from the right: this one is next
            if raw is not None:
                stamp = _headers_of(raw).get(SENT_HEADER)
                heads[key] = float(stamp) if isinstance(stamp, (int, float)) else 0.0   # unknown: as old
    out = {}
    for job in jobs:
        job_id = int(job["job"])
        if job_id in held:
            out[job_id] = HELD
            continue
        last = max(sent.get(job_id, 0.0), _timestamp(job["created_at"]))
        behind = any(key in heads and heads[key] <= last + SKEW for key in lists_of[job_id])
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
