"""live comparisons' grading cursor: where each comparison's batches got to in the traces'
ingest order, and the index that order is read by

Revision ID: 0026_live_grading_cursor
Revises: 0025_trace_ingest
Create Date: 2026-12-07 12:00:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

import server.db

revision = "0026_live_grading_cursor"
down_revision = "0025_trace_ingest"
branch_labels = None
depends_on = None

TIME = server.db.UTCDateTime(timezone=True)


def upgrade() -> None:
    # Null cursors start at the comparison's start (server/live/cursor.py): a comparison
    # running at the upgrade looks at its traces once more, and grades only the ungraded.
    with op.batch_alter_table("live_comparison") as batch:
        batch.add_column(
            sa.Column(
                "scanned_at",
                TIME,
                nullable=True,
                comment="grading's cursor: traces written up to here were looked at",
            )
        )
        batch.add_column(sa.Column("scanned_trace_id", sa.String(length=32), nullable=True))
        batch.add_column(
            sa.Column(
                "settled_at",
                TIME,
                nullable=True,
                comment="traces written up to here were checked again for a late commit",
            )
        )
        batch.add_column(sa.Column("settled_trace_id", sa.String(length=32), nullable=True))
    op.create_index(
        "ix_trace_workspace_id_service_updated_at_id",
        "trace",
        ["workspace_id", "service", "updated_at", "id"],
    )


def downgrade() -> None:
    op.drop_index("ix_trace_workspace_id_service_updated_at_id", table_name="trace")
    # Plain DROP COLUMN (SQLite 3.35+ too): a batch copy of `live_comparison` would break
    # the foreign key of `live_grade` that points at it.
    for column in ("settled_trace_id", "settled_at", "scanned_trace_id", "scanned_at"):
        op.drop_column("live_comparison", column)
