"""trace_span keeps one index, its primary key: (workspace, trace, span) finds a trace's
spans as (workspace, trace, start) did, and every span stored kept both up to date (about a
sixth of PostgreSQL's CPU for a `COPY` of the ingest bench's spans, docs/benchmarks.md)

Revision ID: 0027_trace_span_one_index
Revises: 0026_live_grading_cursor
Create Date: 2026-12-07 15:00:00.000000
"""

from __future__ import annotations

from alembic import op

revision = "0027_trace_span_one_index"
down_revision = "0026_live_grading_cursor"
branch_labels = None
depends_on = None

INDEX = "ix_trace_span_workspace_id_trace_id_started_at"


def upgrade() -> None:
    op.drop_index(INDEX, table_name="trace_span")


def downgrade() -> None:
    op.create_index(INDEX, "trace_span", ["workspace_id", "trace_id", "started_at"])
