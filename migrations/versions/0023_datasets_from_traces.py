"""datasets from traces: a case's `metadata` (its source trace) and the workspace's redaction
patterns

Revision ID: 0023_datasets_from_traces
Revises: 0022_traces
Create Date: 2026-12-07 08:50:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0023_datasets_from_traces"
down_revision = "0022_traces"
branch_labels = None
depends_on = None

JSON = sa.JSON().with_variant(sa.dialects.postgresql.JSONB(astext_type=sa.Text()), "postgresql")


def upgrade() -> None:
    with op.batch_alter_table("dataset_case", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column(
                "meta",
                JSON,
                nullable=True,
                comment="where the case came from, e.g. {sourceTraceId}; not in the hash",
            )
        )
    with op.batch_alter_table("workspace", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column(
                "redaction_patterns",
                JSON,
                nullable=True,
                comment="regular expressions redacted from datasets made from traces",
            )
        )


def downgrade() -> None:
    # Plain DROP COLUMN (SQLite 3.35+ too): a batch copy of `workspace` would break the
    # foreign keys that point at it.
    op.drop_column("workspace", "redaction_patterns")
    op.drop_column("dataset_case", "meta")
