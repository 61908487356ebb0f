"""Keyword-only repository functions over the job tables (see store/jobmodels.py).

`record_attempts` is the one write a worker makes, once per batch of attempts: in a single transaction
it locks the job row, stores the boards (those not already stored), claims their slots and updates the
job's counters. Each (job, slot, attempt) is counted at most once, and each slot gets at most one board,
however often a task is delivered."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from sqlalchemy import bindparam, func, insert, select, update
from sqlalchemy.orm import Session
from sqlmodel import col

from store.errors import StoreError
from store.jobmodels import Job, JobSlot
from store.models import Puzzle, utcnow
from store.progress import FINAL_STATES, JOB_COLUMNS, JOB_STATES, job_dict
from store.repo import save_board

_INT32_MAX = 2**31 - 1
_SLOT_WRITTEN = ("state", "attempts", "puzzle_id", "seed", "updated_at")   # what an attempt changes in a slot row


class JobNotFound(StoreError):
    """A job, or a slot of it, that does not exist: retrying cannot help."""


@dataclass(frozen=True, slots=True)
class AttemptOutcome:
    """What record_attempts did with one attempt. status: stored | duplicate | rejected (this attempt counted);
    done (the slot was already finished: nothing counted) | stale (this attempt was already counted)."""
    status: str
    slot_state: str          # pending | stored | failed
    next_attempt: int        # the index of the slot's next attempt
    job_state: str


@dataclass(frozen=True, slots=True)
class Attempt:
    """One engine attempt of a slot, as a worker hands it to record_attempts."""
    slot: int
    attempt: int             # the slot's attempt index: its seed is derive_seed(job seed, slot, attempt)
    seed: int
    data: dict[str, Any] | None          # the board, or None (timed out)
    fingerprint: str | None
    rejected: Mapping[str, int]          # drawings rejected by reason
    seconds: float


_JOB_SELECT = select(*(Job.__table__.c[name] for name in JOB_COLUMNS))  # type: ignore[attr-defined]


def _whole(value: Any, what: str, low: int = 0, high: int = _INT32_MAX) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise StoreError(f"{what} must be a whole number {low}..{high}, got {value!r}")
    return value


MAX_KEY_LENGTH = 200


def create_job(*, session: Session, game: str, rules: str, band: str | None, params: Mapping[str, Any],
               seed: int, requested: int, key: str | None = None) -> int:
    """Record a new job (state queued) and return its id. `key`, when given, must be new (the
    idempotency key is unique: look it up first with job_by_key)."""
    _whole(requested, "requested", 1)
    if key is not None and not (isinstance(key, str) and 0 < len(key) <= MAX_KEY_LENGTH):
        raise StoreError(f"a job key is 1..{MAX_KEY_LENGTH} characters, got {key!r}")
    _whole(seed, "seed", 0, 2**63 - 1)
    try:
        text = json.dumps(dict(params), sort_keys=True, allow_nan=False, separators=(",", ":"))
    except (TypeError, ValueError) as exc:
        raise StoreError(f"job parameters are not JSON-serialisable: {exc}") from None
    job = Job(game=game, rules=rules, band=band, params=text, seed=seed, requested=requested,
              idempotency_key=key)
    session.add(job)
    session.flush()
    assert job.id is not None
    return job.id


def get_job(*, session: Session, job_id: int) -> dict[str, Any] | None:
    """A job's progress as a dict (requested, stored, failed, attempts, rejected by reason, seconds,
    state, elapsed ...), or None."""
    row = session.execute(_JOB_SELECT.where(col(Job.id) == job_id)).mappings().first()
    return None if row is None else job_dict(row)


def job_by_key(*, session: Session, key: str) -> dict[str, Any] | None:
    """The job made with idempotency key `key` (enqueue --key), as get_job gives it, or None."""
    row = session.execute(_JOB_SELECT.where(col(Job.idempotency_key) == key)).mappings().first()
    return None if row is None else job_dict(row)


def list_jobs(*, session: Session, limit: int = 20, state: str | None = None) -> list[dict[str, Any]]:
    """The newest jobs first."""
    stmt = _JOB_SELECT.order_by(col(Job.id).desc()).limit(limit)
    if state is not None:
        stmt = stmt.where(col(Job.state) == state)
    return [job_dict(row) for row in session.execute(stmt).mappings()]


def set_job_state(*, session: Session, job_id: int, state: str, error: str | None = None) -> None:
    """Force a job's state (e.g. failed: its tasks could not be sent)."""
    if state not in JOB_STATES:
        raise StoreError(f"unknown job state {state!r}")
    job = session.get(Job, job_id, with_for_update=True)
    if job is None:
        raise JobNotFound(f"no job with id {job_id}")
    job.state, job.error, job.updated_at = state, error, utcnow()


def pending_slots(*, session: Session, job_id: int, start: int, stop: int) -> dict[int, int]:
    """The slots start..stop-1 of a job that still need a board, each with its next attempt's index
    (0 for a slot with nothing recorded). Raises JobNotFound for an unknown job or a range outside it."""
    requested = session.scalar(select(col(Job.requested)).where(col(Job.id) == job_id))
    if requested is None:
        raise JobNotFound(f"no job with id {job_id}")
    if not 0 <= start < stop <= requested:
        raise JobNotFound(f"job {job_id} has slots 0..{requested - 1}, not {start}..{stop - 1}")
    rows = session.execute(select(col(JobSlot.slot), col(JobSlot.state), col(JobSlot.attempts)).where(
        col(JobSlot.job_id) == job_id, col(JobSlot.slot) >= start, col(JobSlot.slot) < stop))
    pending = dict.fromkeys(range(start, stop), 0)
    for slot, state, attempts in rows:
        if state == "pending":
            pending[slot] = attempts
        else:
            del pending[slot]
    return pending


def record_attempts(*, session: Session, job_id: int, attempts: Sequence[Attempt],
                    max_attempts: int) -> list[AttemptOutcome]:
    """Record attempts of a job's slots in order, storing their boards, all in the caller's transaction;
    returns one outcome per attempt.

    The job row is locked first (SELECT ... FOR UPDATE on PostgreSQL; SQLite write transactions are
    already exclusive), so the attempts of one job are recorded one batch at a time. An attempt whose
    slot is finished, or which was already counted, changes nothing. Raises StoreError for an unknown
    job or slot, or a bad board, before anything is kept (the caller's transaction rolls back)."""
    _whole(max_attempts, "max_attempts", 1)
    for item in attempts:
        _whole(item.slot, "slot")
        _whole(item.attempt, "attempt")
        if item.data is not None and item.fingerprint is None:
            raise StoreError("a board needs its fingerprint")
    if not attempts:
        return []
    job = session.execute(select(Job).where(col(Job.id) == job_id).with_for_update()).scalar_one_or_none()
    if job is None:
        raise JobNotFound(f"no job with id {job_id}")
    wanted = {item.slot for item in attempts}
    outside = sorted(slot for slot in wanted if slot >= job.requested)
    if outside:
        raise JobNotFound(f"job {job_id} has slots 0..{job.requested - 1}, not {outside[0]}")
    # The slot rows are plain dicts, written with one executemany per batch at the end (new rows
    # inserted, known ones updated): ORM objects cost more per attempt than storing its board.
    slots = JobSlot.__table__  # type: ignore[attr-defined]
    rows: dict[int, dict[str, Any]] = {row.slot: dict(row._mapping) for row in session.execute(
        select(slots.c.slot, slots.c.state, slots.c.attempts, slots.c.puzzle_id, slots.c.seed)
        .where(slots.c.job_id == job_id, slots.c.slot.in_(wanted)))}
    known = set(rows)
    written: set[int] = set()
    total = Counter(json.loads(job.rejected))
    # The job's counters, kept here and set on its row once.
    stored, failed, counted, seconds, state = job.stored, job.failed, job.attempts, job.seconds, job.state
    outcomes = []
    for item in attempts:
        row = rows.get(item.slot)
        if row is not None and row["state"] != "pending":
            outcomes.append(AttemptOutcome("done", row["state"], row["attempts"], state))
            continue
        if row is not None and item.attempt < row["attempts"]:
            outcomes.append(AttemptOutcome("stale", row["state"], row["attempts"], state))
            continue
        if row is None:
            row = rows[item.slot] = {"slot": item.slot, "state": "pending", "attempts": 0, "puzzle_id": None,
                                     "seed": None}
        reasons: Counter[str] = Counter({str(k): int(v) for k, v in item.rejected.items() if v})
        status = "rejected"
        if item.data is not None:
            assert item.fingerprint is not None
            if save_board(session=session, data=item.data, fingerprint=item.fingerprint):
                status = "stored"
                row.update(state="stored", puzzle_id=item.data["id"], seed=item.seed)
                stored += 1
            else:
                status = "duplicate"
                reasons["duplicate"] += 1
        row["attempts"] = item.attempt + 1
        row["updated_at"] = utcnow()
        written.add(item.slot)
        if status != "stored" and row["attempts"] >= max_attempts:
            row["state"] = "failed"
            failed += 1
        total.update(reasons)
        counted += 1
        seconds += max(0.0, float(item.seconds))
        if state not in FINAL_STATES or state == "failed":
            if stored + failed >= job.requested:
                state = "done" if failed == 0 else "incomplete"
            elif state == "queued":
                state = "running"
        outcomes.append(AttemptOutcome(status, row["state"], row["attempts"], state))
    connection = session.connection()
    new = [{**rows[slot], "job_id": job_id} for slot in sorted(written - known)]
    if new:
        connection.execute(insert(slots), new)
    # (bound names may not repeat the column names an UPDATE sets)
    changed = [{"key_job": job_id, "key_slot": slot, **{f"new_{name}": rows[slot][name] for name in _SLOT_WRITTEN}}
               for slot in sorted(written & known)]
    if changed:
        connection.execute(update(slots).where(slots.c.job_id == bindparam("key_job"),
                                               slots.c.slot == bindparam("key_slot"))
                           .values({name: bindparam(f"new_{name}") for name in _SLOT_WRITTEN}), changed)
    job.stored, job.failed, job.attempts, job.seconds, job.state = stored, failed, counted, seconds, state
    job.rejected = json.dumps(dict(sorted(total.items())), separators=(",", ":"))
    job.updated_at = utcnow()
    session.flush()
    return outcomes


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
    stmt = (_JOB_SELECT.where(col(Job.state).in_(("queued", "running")), col(Job.updated_at) < cutoff)
            .order_by(col(Job.id)))
    return [job_dict(row) for row in session.execute(stmt).mappings()]


def open_job_ids(*, session: Session) -> set[int]:
    """The ids of the jobs still open (queued or running)."""
    return set(session.scalars(select(col(Job.id)).where(col(Job.state).in_(("queued", "running")))))


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
