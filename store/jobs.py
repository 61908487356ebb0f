"""Keyword-only repository functions over the job tables (see store/jobmodels.py).

`record_attempts` is the one write a worker makes, once per batch of attempts: in a single transaction
it locks the batch's slot rows, stores the boards (those not already stored), claims their slots and adds
to this process's tally of the job's counters. Each (job, slot, attempt) is counted at most once, and
each slot gets at most one board, however often a task is delivered. Only two deliveries of the same
slots wait on each other: the workers of one job share no row they lock, so a job's write rate grows
with its workers. `settle_job`, after the commit, moves a finished job's row to done."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Any

import os
import socket
from functools import cache
from importlib import import_module

from sqlalchemy import bindparam, func, insert, or_, select, update
from sqlalchemy.orm import Session
from sqlmodel import col

from store.errors import StoreError
from store.jobmodels import Job, JobSlot, JobTally
from store.models import Puzzle, utcnow
from store.progress import FINAL_STATES, JOB_COLUMNS, JOB_STATES, TALLY_COLUMNS, job_dict
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
_TALLY = JobTally.__table__  # type: ignore[attr-defined]
_TALLY_SELECT = select(*(_TALLY.c[name] for name in TALLY_COLUMNS))


def writer_key() -> str:
    """This process's name for its tally rows: host and pid (a pid the host reuses takes over a dead
    process's rows, which is harmless: a row is locked while it is added to)."""
    return f"{socket.gethostname()[:30]}:{os.getpid()}"


@cache
def _insert_missing(dialect: str, table: Any) -> Any:
    """INSERT ... ON CONFLICT DO NOTHING into `table` for this dialect: a row another transaction
    is inserting is waited for, then left as that one made it."""
    return import_module(f"sqlalchemy.dialects.{dialect}").insert(table).on_conflict_do_nothing()


def _with_tallies(session: Session, rows: Sequence[Any]) -> list[dict[str, Any]]:
    """Job rows as job dicts, each with its tallies (one query for all of them)."""
    ids = [row["id"] for row in rows]
    tallies: dict[int, list[Any]] = {job_id: [] for job_id in ids}
    if ids:
        for tally in session.execute(_TALLY_SELECT.where(_TALLY.c.job_id.in_(ids))).mappings():
            tallies[tally["job_id"]].append(tally)
    return [job_dict(row, tallies[row["id"]]) for row in rows]


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
    rows = session.execute(_JOB_SELECT.where(col(Job.id) == job_id)).mappings().all()
    return _with_tallies(session, rows)[0] if rows else None


def job_by_key(*, session: Session, key: str) -> dict[str, Any] | None:
    """The job made with idempotency key `key` (enqueue --key), as get_job gives it, or None."""
    rows = session.execute(_JOB_SELECT.where(col(Job.idempotency_key) == key)).mappings().all()
    return _with_tallies(session, rows)[0] if rows else None


def list_jobs(*, session: Session, limit: int = 20, state: str | None = None) -> list[dict[str, Any]]:
    """The newest jobs first."""
    stmt = _JOB_SELECT.order_by(col(Job.id).desc()).limit(limit)
    if state is not None:
        stmt = stmt.where(col(Job.state) == state)
    return _with_tallies(session, session.execute(stmt).mappings().all())


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

    The batch's slot rows are made if missing and locked (SELECT ... FOR UPDATE on PostgreSQL; SQLite
    write transactions are already exclusive), so two deliveries of the same slots are recorded one
    after the other, while the job's other slots are recorded alongside. The counts go to this
    process's tally row of the job. An attempt whose slot is finished, or which was already counted,
    changes nothing. Raises StoreError for an unknown job or slot, or a bad board, before anything is
    kept (the caller's transaction rolls back). Call settle_job once the transaction is committed."""
    _whole(max_attempts, "max_attempts", 1)
    for item in attempts:
        _whole(item.slot, "slot")
        _whole(item.attempt, "attempt")
        if item.data is not None and item.fingerprint is None:
            raise StoreError("a board needs its fingerprint")
    if not attempts:
        return []
    requested = session.scalar(select(col(Job.requested)).where(col(Job.id) == job_id))
    if requested is None:
        raise JobNotFound(f"no job with id {job_id}")
    wanted = sorted({item.slot for item in attempts})
    if wanted[-1] >= requested:
        raise JobNotFound(f"job {job_id} has slots 0..{requested - 1}, not {next(s for s in wanted if s >= requested)}")
    connection = session.connection()
    dialect = connection.dialect.name
    # The slot rows are plain dicts, written with one executemany per batch at the end: ORM objects
    # cost more per attempt than storing its board. Rows are locked in slot order, so two deliveries
    # of overlapping ranges cannot deadlock.
    slots = JobSlot.__table__  # type: ignore[attr-defined]
    connection.execute(_insert_missing(dialect, slots),
                       [{"job_id": job_id, "slot": slot, "state": "pending", "attempts": 0, "updated_at": utcnow()}
                        for slot in wanted])
    rows: dict[int, dict[str, Any]] = {row.slot: dict(row._mapping) for row in connection.execute(
        select(slots.c.slot, slots.c.state, slots.c.attempts, slots.c.puzzle_id, slots.c.seed)
        .where(slots.c.job_id == job_id, slots.c.slot.in_(wanted)).order_by(slots.c.slot).with_for_update())}
    written: set[int] = set()
    added = {"stored": 0, "failed": 0, "attempts": 0, "seconds": 0.0}
    reasons_added: Counter[str] = Counter()
    counted: list[tuple[Attempt, str, dict[str, Any]]] = []
    outcomes: list[tuple[str, str, int] | None] = []
    for item in attempts:
        row = rows[item.slot]
        if row["state"] != "pending":
            outcomes.append(("done", row["state"], row["attempts"]))
            continue
        if item.attempt < row["attempts"]:
            outcomes.append(("stale", row["state"], row["attempts"]))
            continue
        reasons: Counter[str] = Counter({str(k): int(v) for k, v in item.rejected.items() if v})
        status = "rejected"
        if item.data is not None:
            assert item.fingerprint is not None
            if save_board(session=session, data=item.data, fingerprint=item.fingerprint):
                status = "stored"
                row.update(state="stored", puzzle_id=item.data["id"], seed=item.seed)
                added["stored"] += 1
            else:
                status = "duplicate"
                reasons["duplicate"] += 1
        row["attempts"] = item.attempt + 1
        row["updated_at"] = utcnow()
        written.add(item.slot)
        if status != "stored" and row["attempts"] >= max_attempts:
            row["state"] = "failed"
            added["failed"] += 1
        reasons_added.update(reasons)
        added["attempts"] += 1
        added["seconds"] += max(0.0, float(item.seconds))
        outcomes.append((status, row["state"], row["attempts"]))
    # (bound names may not repeat the column names an UPDATE sets)
    changed = [{"key_job": job_id, "key_slot": slot, **{f"new_{name}": rows[slot][name] for name in _SLOT_WRITTEN}}
               for slot in sorted(written)]
    if changed:
        connection.execute(update(slots).where(slots.c.job_id == bindparam("key_job"),
                                               slots.c.slot == bindparam("key_slot"))
                           .values({name: bindparam(f"new_{name}") for name in _SLOT_WRITTEN}), changed)
    if added["attempts"]:
        _add_to_tally(connection, job_id, added, reasons_added)
    state = _states(session, job_id)[1]
    return [AttemptOutcome(status, slot_state, next_attempt, state) for status, slot_state, next_attempt in outcomes]


def _add_to_tally(connection: Any, job_id: int, added: Mapping[str, float], reasons: Counter[str]) -> None:
    """Add counts to this process's tally row of the job (made on first use)."""
    key = {"job_id": job_id, "writer": writer_key()}
    where = (_TALLY.c.job_id == job_id, _TALLY.c.writer == key["writer"])
    locked = select(_TALLY.c.stored, _TALLY.c.failed, _TALLY.c.attempts, _TALLY.c.seconds,
                    _TALLY.c.rejected).where(*where).with_for_update()
    mine = connection.execute(locked).mappings().first()
    if mine is None:
        connection.execute(_insert_missing(connection.dialect.name, _TALLY),
                           {**key, "stored": 0, "failed": 0, "attempts": 0, "seconds": 0.0, "rejected": "{}",
                            "updated_at": utcnow()})
        mine = connection.execute(locked).mappings().one()
    total = Counter(json.loads(mine["rejected"]))
    total.update(reasons)
    connection.execute(update(_TALLY).where(*where).values(
        stored=mine["stored"] + added["stored"], failed=mine["failed"] + added["failed"],
        attempts=mine["attempts"] + added["attempts"], seconds=mine["seconds"] + added["seconds"],
        rejected=json.dumps(dict(sorted(total.items())), separators=(",", ":")), updated_at=utcnow()))


def _states(session: Session, job_id: int) -> tuple[str, str]:
    """The job row's state and the state its counts give, from what this transaction sees (one read of
    the row, one of its tallies); JobNotFound for an unknown job."""
    rows = session.execute(_JOB_SELECT.where(col(Job.id) == job_id)).mappings().all()
    if not rows:
        raise JobNotFound(f"no job with id {job_id}")
    return rows[0]["state"], _with_tallies(session, rows)[0]["state"]


def settle_job(*, session: Session, job_id: int) -> str | None:
    """Bring a job row's state up to its counts, after record_attempts' transaction is committed: running
    once an attempt is counted, done or incomplete once every slot is finished. Writers that finish a
    job's last slots at the same moment each settle after their own commit, so the last of them sees
    every count. Takes the job row's lock only when its state changes (twice in a job's life); returns
    the new state, or None when it stays."""
    recorded, counted = _states(session, job_id)
    if counted == recorded:
        return None
    changed = session.execute(update(Job).where(col(Job.id) == job_id, col(Job.state) == recorded)
                              .values(state=counted, updated_at=utcnow()))
    return counted if changed.rowcount == 1 else None


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
    recent = select(_TALLY.c.job_id).where(_TALLY.c.updated_at >= cutoff)
    stmt = (_JOB_SELECT.where(col(Job.state).in_(("queued", "running")), col(Job.updated_at) < cutoff,
                              col(Job.id).not_in(recent))
            .order_by(col(Job.id)))
    jobs = _with_tallies(session, session.execute(stmt).mappings().all())
    return [job for job in jobs if job["state"] in ("queued", "running")]


def started_jobs(*, session: Session, after_id: int, created_after: datetime) -> list[dict[str, Any]]:
    """Jobs with ids above `after_id` created after `created_after` that have an attempt counted (any
    state but queued, or a tally), as {"job", "game", "params", "created_at"}: the evidence that a queue
    has moved past what was sent to it before them."""
    tallied = select(_TALLY.c.job_id).where(_TALLY.c.job_id > after_id)
    stmt = (select(col(Job.id), col(Job.game), col(Job.params), col(Job.created_at))
            .where(col(Job.id) > after_id, col(Job.created_at) > created_after,
                   or_(col(Job.state) != "queued", col(Job.id).in_(tallied)))
            .order_by(col(Job.id)))
    return [{"job": row.id, "game": row.game, "params": json.loads(row.params),
             # (SQLite hands back naive times; every stored time is UTC)
             "created_at": row.created_at if row.created_at.tzinfo else row.created_at.replace(tzinfo=timezone.utc)}
            for row in session.execute(stmt)]


def open_job_ids(*, session: Session) -> set[int]:
    """The ids of the jobs still open (queued or running)."""
    stmt = _JOB_SELECT.where(col(Job.state).in_(("queued", "running")))
    return {job["job"] for job in _with_tallies(session, session.execute(stmt).mappings().all())
            if job["state"] in ("queued", "running")}


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
