"""job.idempotency_key: `enqueue --key KEY` names a job, so that sending the same request again (a
script retrying after a cut connection) finds the job instead of making a second one. Unique; NULL for
jobs made without a key (NULLs never collide, on SQLite or PostgreSQL).

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-02
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("job", sa.Column("idempotency_key", sa.String(200), nullable=True))
    op.create_index("ix_job_idempotency_key", "job", ["idempotency_key"], unique=True)


def downgrade() -> None:
    op.drop_index("ix_job_idempotency_key", table_name="job")
    with op.batch_alter_table("job") as batch:
        batch.drop_column("idempotency_key")
