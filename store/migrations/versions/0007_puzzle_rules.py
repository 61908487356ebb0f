"""puzzle.rules and puzzle.rules_text replace puzzle.stars and puzzle.diagonals: a board's rules as its
game states them, JSON (`rules.to_json()`, for filters on an option) and the canonical text form
(`str(rules)`, indexed, for the exact rules), so that a game with other options needs no new column.

Existing rows get both from the columns they replace, as the games built them at 0006: the JSON is
{"size"} plus, for the star games (stars not NULL), "stars" and "diagonals"; the text is the game, the
size, the stars when more than one, and "diagonals" when the rule is on ("queens 8", "queens 10
diagonals", "starbattle 10 2", "sudoku 9"). The downgrade reads the columns back from the JSON.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-02
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_TEXT = """game || ' ' || size
    || CASE WHEN stars IS NULL OR stars = 1 THEN '' ELSE ' ' || stars END
    || CASE WHEN diagonals THEN ' diagonals' ELSE '' END"""
_FORWARD = {
    "sqlite": f"""
        UPDATE puzzle SET rules_text = {_TEXT},
            rules = CASE WHEN stars IS NULL THEN json_object('size', size)
                         ELSE json_object('size', size, 'stars', stars,
                                          'diagonals', json(CASE WHEN diagonals THEN 'true' ELSE 'false' END)) END""",
    "postgresql": f"""
        UPDATE puzzle SET rules_text = {_TEXT},
            rules = CASE WHEN stars IS NULL THEN json_build_object('size', size)
                         ELSE json_build_object('size', size, 'stars', stars, 'diagonals', diagonals) END""",
}
_BACK = {
    "sqlite": """
        UPDATE puzzle SET stars = json_extract(rules, '$.stars'),
                          diagonals = COALESCE(json_extract(rules, '$.diagonals'), 0)""",
    "postgresql": """
        UPDATE puzzle SET stars = (rules ->> 'stars')::integer,
                          diagonals = COALESCE((rules ->> 'diagonals')::boolean, false)""",
}


def upgrade() -> None:
    op.add_column("puzzle", sa.Column("rules", sa.JSON(), nullable=True))
    op.add_column("puzzle", sa.Column("rules_text", sa.String(), nullable=True))
    op.execute(_FORWARD[op.get_bind().dialect.name])
    with op.batch_alter_table("puzzle") as batch:
        batch.alter_column("rules", existing_type=sa.JSON(), nullable=False)
        batch.alter_column("rules_text", existing_type=sa.String(), nullable=False)
        batch.drop_column("stars")
        batch.drop_column("diagonals")
    op.create_index("ix_puzzle_rules_text", "puzzle", ["rules_text"])


def downgrade() -> None:
    op.drop_index("ix_puzzle_rules_text", table_name="puzzle")
    op.add_column("puzzle", sa.Column("stars", sa.Integer(), nullable=True))
    op.add_column("puzzle", sa.Column("diagonals", sa.Boolean(), nullable=True))
    op.execute(_BACK[op.get_bind().dialect.name])
    with op.batch_alter_table("puzzle") as batch:
        batch.alter_column("diagonals", existing_type=sa.Boolean(), nullable=False)
        batch.drop_column("rules")
        batch.drop_column("rules_text")
