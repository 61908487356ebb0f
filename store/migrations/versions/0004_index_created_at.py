"""Index puzzle.created_at: every listing (export, the read API) is ordered by (created_at, id).

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-30
"""
from collections.abc import Sequence

from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_index("ix_puzzle_created_at", "puzzle", ["created_at", "id"])


def downgrade() -> None:
    op.drop_index("ix_puzzle_created_at", table_name="puzzle")
