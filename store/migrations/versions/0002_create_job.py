"""Create the job and job_slot tables (the fleet's jobs and their idempotent slots).

Revision ID: 0002
Revises: 0001
Create Date: 2024-11-30
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "job",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game", sa.String(), nullable=False),
        sa.Column("rules", sa.String(), nullable=False),
        sa.Column("band", sa.String(), nullable=True),
        sa.Column("params", sa.Text(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("requested", sa.Integer(), nullable=False),
        sa.Column("stored", sa.Integer(), nullable=False),
        sa.Column("failed", sa.Integer(), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("rejected", sa.Text(), nullable=False),
        sa.Column("seconds", sa.Float(), nullable=False),
        sa.Column("state", sa.String(), nullable=False),
        sa.Column("error", sa.String(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_job_game", "job", ["game"])
    op.create_index("ix_job_state", "job", ["state"])
    # (job_id, slot) is the primary key: the database refuses a second row for a slot, and the row is
    # inserted in the same transaction as the slot's board.
    op.create_table(
        "job_slot",
        sa.Column("job_id", sa.Integer(), sa.ForeignKey("job.id", ondelete="CASCADE"), nullable=False),
        sa.Column("slot", sa.Integer(), nullable=False),
        sa.Column("state", sa.String(), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("puzzle_id", sa.String(16), sa.ForeignKey("puzzle.id"), nullable=True),
        sa.Column("seed", sa.BigInteger(), nullable=True),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("job_id", "slot"),
    )
    op.create_index("ix_job_slot_puzzle_id", "job_slot", ["puzzle_id"])


def downgrade() -> None:
    op.drop_index("ix_job_slot_puzzle_id", table_name="job_slot")
    op.drop_table("job_slot")
    op.drop_index("ix_job_state", table_name="job")
    op.drop_index("ix_job_game", table_name="job")
    op.drop_table("job")
