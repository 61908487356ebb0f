"""Indexes for keyset listings, and job tallies.

Each filter the read API and `list` offer (game; game and size; game and band; band; style) now leads
an index that continues in listing order (created_at, id), so a page reads about as many rows as it
shows, however many boards the store holds; (created_at, id) itself becomes a partial index that only
unfiltered listings can use; the single-column indexes on game, band and style they
replace are dropped. The daily set reads unused boards of some rules and band in id order from a
seeded point: (rules_text, band, id), which also serves what the rules_text index did.

job_tally holds each writer's share of a job's counters (store.jobs), so that the workers of one job
no longer lock its row in turn; a job's own counters keep what was counted before.

Each index is one pass over the table (at 1,000,000 boards: BENCHMARKS.md, "The store at scale").

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-07
"""
import json
from collections import Counter
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_LISTING = {"ix_puzzle_game_created": ["game", "created_at", "id"],
            "ix_puzzle_game_size_created": ["game", "size", "created_at", "id"],
            "ix_puzzle_game_band_created": ["game", "band", "created_at", "id"],
            "ix_puzzle_band_created": ["band", "created_at", "id"],
            "ix_puzzle_style_created": ["style", "created_at", "id"],
            "ix_puzzle_rules_band_id": ["rules_text", "band", "id"]}
_REPLACED = {"ix_puzzle_game": ["game"], "ix_puzzle_band": ["band"], "ix_puzzle_style": ["style"],
             "ix_puzzle_rules_text": ["rules_text"]}


_UNFILTERED = sa.text("engine_version <> ''")


def upgrade() -> None:
    # Unfiltered listings' index becomes partial, on a condition only they state (store.repo.UNFILTERED),
    # so that a filtered listing walks its own filter's index.
    op.drop_index("ix_puzzle_created_at", table_name="puzzle")
    op.create_index("ix_puzzle_created_at", "puzzle", ["created_at", "id"], sqlite_where=_UNFILTERED,
                    postgresql_where=_UNFILTERED)
    for name, columns in _LISTING.items():
        op.create_index(name, "puzzle", columns)
    for name in _REPLACED:
        op.drop_index(name, table_name="puzzle")
    op.create_table(
        "job_tally",
        sa.Column("job_id", sa.Integer(), sa.ForeignKey("job.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("writer", sa.String(40), primary_key=True),
        sa.Column("stored", sa.Integer(), nullable=False),
        sa.Column("failed", sa.Integer(), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("rejected", sa.Text(), nullable=False),
        sa.Column("seconds", sa.Float(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    # At 0007 the job row held every count: fold each job's tallies into it first (reasons merged),
    # with the state the counts now give.
    conn = op.get_bind()
    jobs: dict[int, dict] = {}
    for row in conn.execute(sa.text("SELECT job_id, stored, failed, attempts, rejected, seconds, updated_at "
                                    "FROM job_tally")).mappings():
        job = jobs.setdefault(row["job_id"], {"stored": 0, "failed": 0, "attempts": 0, "seconds": 0.0,
                                              "rejected": Counter(), "updated_at": row["updated_at"]})
        for name in ("stored", "failed", "attempts", "seconds"):
            job[name] += row[name]
        job["rejected"].update(json.loads(row["rejected"]))
        job["updated_at"] = max(job["updated_at"], row["updated_at"])
    for job_id, add in jobs.items():
        old = conn.execute(sa.text("SELECT requested, stored, failed, attempts, rejected, seconds, state, updated_at "
                                   "FROM job WHERE id = :id"), {"id": job_id}).mappings().one()
        stored, failed = old["stored"] + add["stored"], old["failed"] + add["failed"]
        state = old["state"]
        if state not in ("done", "incomplete") and stored + failed >= old["requested"]:
            state = "done" if failed == 0 else "incomplete"
        elif state == "queued" and old["attempts"] + add["attempts"]:
            state = "running"
        rejected = Counter(json.loads(old["rejected"])) + add["rejected"]
        conn.execute(sa.text("UPDATE job SET stored = :stored, failed = :failed, attempts = :attempts, "
                             "seconds = :seconds, rejected = :rejected, state = :state, updated_at = :updated_at "
                             "WHERE id = :id"),
                     {"id": job_id, "stored": stored, "failed": failed, "attempts": old["attempts"] + add["attempts"],
                      "seconds": old["seconds"] + add["seconds"], "state": state,
                      "rejected": json.dumps(dict(sorted(rejected.items())), separators=(",", ":")),
                      "updated_at": max(old["updated_at"], add["updated_at"])})
    op.drop_table("job_tally")
    for name, columns in _REPLACED.items():
        op.create_index(name, "puzzle", columns)
    for name in _LISTING:
        op.drop_index(name, table_name="puzzle")
    op.drop_index("ix_puzzle_created_at", table_name="puzzle")
    op.create_index("ix_puzzle_created_at", "puzzle", ["created_at", "id"])
