"""Add puzzle.style: the drawing style a board was drawn in (games with styles), for listings to filter on.

Existing rows take it from their JSON where it says (the board's `style`, or `generation.style`, where
boards drawn in a style other than the default recorded it before `style` existed); the others stay
NULL (drawn before styles were recorded, or a game without styles).

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-02
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# Only a JSON string counts as a style; the LIKE skips, cheaply, the rows that never name one.
_BACKFILL = {
    "sqlite": """
        UPDATE puzzle SET style = COALESCE(
            CASE WHEN json_type(data, '$.style') = 'text' THEN json_extract(data, '$.style') END,
            CASE WHEN json_type(data, '$.generation.style') = 'text'
                 THEN json_extract(data, '$.generation.style') END)
        WHERE data LIKE '%"style"%'""",
    "postgresql": """
        UPDATE puzzle SET style = COALESCE(
            CASE WHEN jsonb_typeof(data::jsonb -> 'style') = 'string' THEN data::jsonb ->> 'style' END,
            CASE WHEN jsonb_typeof(data::jsonb -> 'generation' -> 'style') = 'string'
                 THEN data::jsonb -> 'generation' ->> 'style' END)
        WHERE data LIKE '%"style"%'""",
}


def upgrade() -> None:
    op.add_column("puzzle", sa.Column("style", sa.String(), nullable=True))
    op.create_index("ix_puzzle_style", "puzzle", ["style"])
    op.execute(_BACKFILL[op.get_bind().dialect.name])


def downgrade() -> None:
    op.drop_index("ix_puzzle_style", table_name="puzzle")
    with op.batch_alter_table("puzzle") as batch:
        batch.drop_column("style")
