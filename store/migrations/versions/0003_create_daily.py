"""Create the daily table (each day's set of boards).

Revision ID: 0003
Revises: 0002
Create Date: 2024-12-01
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # (day, position) is the key and (day, board_id) is unique: a racing second writer of a day's set
    # is refused by the database, whatever the application checked before.
    op.create_table(
        "daily",
        sa.Column("day", sa.Date(), nullable=False),
        sa.Column("position", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("board_id", sa.String(16), sa.ForeignKey("puzzle.id"), nullable=False),
        sa.PrimaryKeyConstraint("day", "position"),
        sa.UniqueConstraint("day", "board_id", name="uq_daily_day_board"),
    )
    # "Is this board in any day's set?" is asked for every candidate.
    op.create_index("ix_daily_board_id", "daily", ["board_id"])


def downgrade() -> None:
    op.drop_index("ix_daily_board_id", table_name="daily")
    op.drop_table("daily")
