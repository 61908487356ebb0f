"""Keyword-only repository functions over the job tables (see store/jobmodels.py).

`record_attempt` is the one write a worker makes per attempt: in a single transaction it locks the job
row, stores the board (if any and not a duplicate), claims the slot and updates the job's counters. Each
(job, slot, attempt) is counted at most once, and each slot gets at most one board, however often a
task is delivered."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session
from sqlmodel import col

from store.errors import StoreError
from store.jobmodels import FINAL_STATES, JOB_STATES, Job, JobSlot
from store.models import Puzzle, utcnow
from store.repo import save_board

_INT32_MAX = 2**31 - 1


class JobNotFound(StoreError):
    """A job, or a slot of it, that does not exist: retrying cannot help."""


@dataclass(frozen=True, slots=True)
class AttemptOutcome:
    """What record_attempt did. status: stored | duplicate | rejected (this attempt counted);
    done (the slot was already finished: nothing counted) | stale (this attempt was already counted)."""
    status: str
    slot_state: str          # pending | stored | failed
    next_attempt: int        # the index of the slot's next attempt
    job_state: str


@dataclass(frozen=True, slots=True)
class SlotStatus:
    state: str               # pending | stored | failed
    attempts: int            # attempts recorded: the next attempt's index


def _as_utc(moment: datetime) -> datetime:
    # SQLite hands back naive datetimes; every stored time is UTC.
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=timezone.utc)


def _job_dict(job: Job) -> dict[str, Any]:
    created, updated = _as_utc(job.created_at), _as_utc(job.updated_at)
    end = updated if job.state in FINAL_STATES else max(utcnow(), updated)
    return {
        "job": job.id, "game": job.game, "rules": job.rules, "band": job.band,
        "params": json.loads(job.params), "seed": job.seed, "requested": job.requested,
        "stored": job.stored, "failed": job.failed, "attempts": job.attempts,
        "rejected": json.loads(job.rejected), "seconds": round(job.seconds, 3), "state": job.state,
        "error": job.error, "created_at": created.isoformat(), "updated_at": updated.isoformat(),
        "elapsed": round((end - created).total_seconds(), 3),
    }


def _whole(value: Any, what: str, low: int = 0, high: int = _INT32_MAX) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise StoreError(f"{what} must be a whole number {low}..{high}, got {value!r}")
    return value


def create_job(*, session: Session, game: str, rules: str, band: str | None, params: Mapping[str, Any],
               seed: int, requested: int) -> int:
    """Record a new job (state queued) and return its id."""
    _whole(requested, "requested", 1)
    _whole(seed, "seed", 0, 2**63 - 1)
    try:
        text = json.dumps(dict(params), sort_keys=True, allow_nan=False, separators=(",", ":"))
    except (TypeError, ValueError) as exc:
        raise StoreError(f"job parameters are not JSON-serialisable: {exc}") from None
    job = Job(game=game, rules=rules, band=band, params=text, seed=seed, requested=requested)
    session.add(job)
    session.flush()
    assert job.id is not None
    return job.id


def get_job(*, session: Session, job_id: int) -> dict[str, Any] | None:
    """A job's progress as a dict (requested, stored, failed, attempts, rejected by reason, seconds,
    state, elapsed ...), or None."""
    job = session.get(Job, job_id)
    return None if job is None else _job_dict(job)


def list_jobs(*, session: Session, limit: int = 20, state: str | None = None) -> list[dict[str, Any]]:
    """The newest jobs first."""
    stmt = select(Job).order_by(col(Job.id).desc()).limit(limit)
    if state is not None:
        stmt = stmt.where(col(Job.state) == state)
    return [_job_dict(job) for job in session.scalars(stmt)]


def set_job_state(*, session: Session, job_id: int, state: str, error: str | None = None) -> None:
    """Force a job's state (e.g. failed: its tasks could not be sent)."""
    if state not in JOB_STATES:
        raise StoreError(f"unknown job state {state!r}")
    job = session.get(Job, job_id, with_for_update=True)
    if job is None:
        raise JobNotFound(f"no job with id {job_id}")
    job.state, job.error, job.updated_at = state, error, utcnow()


def slot_status(*, session: Session, job_id: int, slot: int) -> SlotStatus | None:
    """Where a slot stands (a slot with nothing recorded yet is pending with 0 attempts); None when
    the job does not exist."""
    row = session.execute(
        select(col(Job.id), col(JobSlot.state), col(JobSlot.attempts))
        .select_from(Job).outerjoin(JobSlot, (col(JobSlot.job_id) == col(Job.id)) & (col(JobSlot.slot) == slot))
        .where(col(Job.id) == job_id)).first()
    if row is None:
        return None
    return SlotStatus(row[1] or "pending", row[2] or 0)


def record_attempt(*, session: Session, job_id: int, slot: int, attempt: int, seed: int,
                   data: dict[str, Any] | None, fingerprint: str | None, rejected: Mapping[str, int],
                   seconds: float, max_attempts: int) -> AttemptOutcome:
    """Record one attempt of a slot, storing its board if it has one, all in the caller's transaction.

    The job row is locked first (SELECT ... FOR UPDATE on PostgreSQL; SQLite write transactions are
    already exclusive), so attempts of one job are recorded one at a time. An attempt whose slot is
    finished, or which was already counted, changes nothing. Raises StoreError for an unknown job."""
    _whole(slot, "slot")
    _whole(attempt, "attempt")
    _whole(max_attempts, "max_attempts", 1)
    job = session.execute(select(Job).where(col(Job.id) == job_id).with_for_update()).scalar_one_or_none()
    if job is None:
        raise JobNotFound(f"no job with id {job_id}")
    if not 0 <= slot < job.requested:
        raise JobNotFound(f"job {job_id} has slots 0..{job.requested - 1}, not {slot}")
    row = session.get(JobSlot, (job_id, slot))
    if row is not None and row.state != "pending":
        return AttemptOutcome("done", row.state, row.attempts, job.state)
    if row is not None and attempt < row.attempts:
        return AttemptOutcome("stale", row.state, row.attempts, job.state)
    if row is None:
        row = JobSlot(job_id=job_id, slot=slot)
        session.add(row)
    reasons: Counter[str] = Counter({str(k): int(v) for k, v in rejected.items() if v})
    status = "rejected"
    if data is not None:
        if fingerprint is None:
            raise StoreError("a board needs its fingerprint")
        if save_board(session=session, data=data, fingerprint=fingerprint):
            status = "stored"
            row.state, row.puzzle_id, row.seed = "stored", data["id"], seed
            job.stored += 1
        else:
            status = "duplicate"
            reasons["duplicate"] += 1
    row.attempts = attempt + 1
    row.updated_at = utcnow()
    if status != "stored" and row.attempts >= max_attempts:
        row.state = "failed"
        job.failed += 1
    total = Counter(json.loads(job.rejected))
    total.update(reasons)
    job.rejected = json.dumps(dict(sorted(total.items())), separators=(",", ":"))
    job.attempts += 1
    job.seconds += max(0.0, float(seconds))
    if job.state not in FINAL_STATES or job.state == "failed":
        if job.stored + job.failed >= job.requested:
            job.state = "done" if job.failed == 0 else "incomplete"
        elif job.state == "queued":
            job.state = "running"
    job.updated_at = utcnow()
    session.flush()
    return AttemptOutcome(status, row.state, row.attempts, job.state)


def unfinished_slots(*, session: Session, job_id: int) -> list[int]:
    """The slots of a job that have no board yet and have not given up, in order."""
    requested = session.scalar(select(col(Job.requested)).where(col(Job.id) == job_id))
    if requested is None:
        raise JobNotFound(f"no job with id {job_id}")
    finished = set(session.scalars(select(col(JobSlot.slot)).where(
        col(JobSlot.job_id) == job_id, col(JobSlot.state) != "pending")))
    return [s for s in range(requested) if s not in finished]


def stalled_jobs(*, session: Session, idle_seconds: float) -> list[dict[str, Any]]:
    """Unfinished jobs (queued or running) with no progress recorded for `idle_seconds`."""
    cutoff = utcnow() - timedelta(seconds=idle_seconds)
    stmt = (select(Job).where(col(Job.state).in_(("queued", "running")), col(Job.updated_at) < cutoff)
            .order_by(col(Job.id)))
    return [_job_dict(job) for job in session.scalars(stmt)]


def touch_job(*, session: Session, job_id: int) -> None:
    """Mark a job as just having progressed (after its unfinished slots were sent again)."""
    job = session.get(Job, job_id, with_for_update=True)
    if job is not None:
        job.updated_at = utcnow()


def list_job_boards(*, session: Session, job_id: int, limit: int | None = None) -> list[dict[str, Any]]:
    """The boards a job stored, in slot order, as JSON dicts."""
    if limit is not None and limit < 0:
        raise StoreError("limit must not be negative")
    stmt = (select(col(Puzzle.data)).join(JobSlot, col(JobSlot.puzzle_id) == col(Puzzle.id))
            .where(col(JobSlot.job_id) == job_id, col(JobSlot.state) == "stored")
            .order_by(col(JobSlot.slot)).limit(limit))
    return [json.loads(text) for text in session.scalars(stmt)]


def count_job_boards(*, session: Session, job_id: int) -> int:
    """How many boards a job stored, counted from its slots (the job row's `stored` should agree)."""
    stmt = select(func.count()).select_from(JobSlot).where(
        col(JobSlot.job_id) == job_id, col(JobSlot.state) == "stored")
    return int(session.scalar(stmt) or 0)
