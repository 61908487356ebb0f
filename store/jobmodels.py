"""The job tables of the fleet: a job (one `enqueue`) and its slots (one row per finished or tried slot).

A slot's row is written in the same transaction as its board, and (job_id, slot) is its primary key, so
a redelivered or duplicated task can never store a second board for one slot. Counters live on the job
row, so reading a job's progress is one primary-key lookup however large the job is."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import BigInteger, Column, DateTime, ForeignKey, Integer, String, Text
from sqlmodel import Field, SQLModel

from store.models import utcnow
# Slot states: pending (attempts recorded, no board yet), stored, failed (out of attempts).
SLOT_STATES = ("pending", "stored", "failed")


class Job(SQLModel, table=True):
    __tablename__ = "job"

    id: int | None = Field(default=None, primary_key=True)
    game: str = Field(index=True)
    rules: str                                                      # engine rules text, e.g. "queens 9"
    band: str | None = None
    params: str = Field(sa_type=Text)                               # the validated parameters, JSON text
    seed: int = Field(sa_type=BigInteger)                           # slot seeds: derive_seed(seed, slot, attempt)
    requested: int
    stored: int = 0
    failed: int = 0                                                 # slots that ran out of attempts
    attempts: int = 0                                               # attempts recorded (once each)
    rejected: str = Field(default="{}", sa_type=Text)               # reason -> count, JSON text
    seconds: float = 0.0                                            # engine seconds, summed over attempts
    state: str = Field(default="queued", index=True)
    error: str | None = None                                        # why a job failed, one line
    # `enqueue --key`: the caller's name for the request; a second enqueue with it returns this job.
    idempotency_key: str | None = Field(default=None, sa_column=Column(String(200), unique=True, nullable=True,
                                                                       index=True))
    created_at: datetime = Field(default_factory=utcnow, sa_type=DateTime(timezone=True))
    updated_at: datetime = Field(default_factory=utcnow, sa_type=DateTime(timezone=True))


class JobSlot(SQLModel, table=True):
    __tablename__ = "job_slot"

    job_id: int = Field(sa_column=Column(Integer, ForeignKey("job.id", ondelete="CASCADE"),
                                         primary_key=True))
    slot: int = Field(primary_key=True)
    state: str = "pending"
    attempts: int = 0                                               # attempts recorded: the next one's index
    puzzle_id: str | None = Field(default=None, sa_column=Column(String(16), ForeignKey("puzzle.id"),
                                                                 nullable=True, index=True))
    seed: int | None = Field(default=None, sa_type=BigInteger)      # the stored board's seed
    updated_at: datetime = Field(default_factory=utcnow, sa_type=DateTime(timezone=True))


class JobTally(SQLModel, table=True):
    """One writer's share of a job's counters. Each process that records attempts adds to its own row
    (its `writer` key), so the workers of one job never wait on each other's row lock; a job's counts
    are its row's (what was counted before tallies existed) plus the sum of its tallies."""
    __tablename__ = "job_tally"

    job_id: int = Field(sa_column=Column(Integer, ForeignKey("job.id", ondelete="CASCADE"), primary_key=True))
    writer: str = Field(sa_column=Column(String(40), primary_key=True))
    stored: int = 0
    failed: int = 0
    attempts: int = 0
    rejected: str = Field(default="{}", sa_type=Text)               # reason -> count, JSON text
    seconds: float = 0.0
    updated_at: datetime = Field(default_factory=utcnow, sa_type=DateTime(timezone=True))
