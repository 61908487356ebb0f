"""Create the puzzle table.

Revision ID: 0001
Revises:
Create Date: 2024-11-30
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Plain portable types only, so the same revision runs on SQLite and PostgreSQL.
    op.create_table(
        "puzzle",
        sa.Column("id", sa.String(16), nullable=False),
        sa.Column("fingerprint", sa.String(64), nullable=False),
        sa.Column("game", sa.String(), nullable=False),
        sa.Column("size", sa.Integer(), nullable=False),
        sa.Column("stars", sa.Integer(), nullable=True),
        sa.Column("diagonals", sa.Boolean(), nullable=False),
        sa.Column("band", sa.String(), nullable=True),
        sa.Column("score", sa.Integer(), nullable=True),
        sa.Column("engine_version", sa.String(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("data", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    # The unique index is the conflict target of INSERT ... ON CONFLICT DO NOTHING (dedup).
    op.create_index("ix_puzzle_fingerprint", "puzzle", ["fingerprint"], unique=True)
    op.create_index("ix_puzzle_game", "puzzle", ["game"])
    op.create_index("ix_puzzle_band", "puzzle", ["band"])


def downgrade() -> None:
    op.drop_index("ix_puzzle_band", table_name="puzzle")
    op.drop_index("ix_puzzle_game", table_name="puzzle")
    op.drop_index("ix_puzzle_fingerprint", table_name="puzzle")
    op.drop_table("puzzle")
