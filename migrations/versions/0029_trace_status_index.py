"""the traces' list filtered by status (the portal's "errors only", the ingest bench's filtered
page) read in its index's order: (workspace, status, start, id), carrying `step_count` and
`model_key` so the filtered `totalCount` is an index-only scan of the matching traces alone.
With 250,000 traces, one in ten failed, the filtered first page walked the list's index past
45,072 rows to find 51 (617 ms), and its count read all 250,000 index entries (569 ms)
(docs/benchmarks.md, "Trace ingest"). SQLite gets the index without the carried columns.

Revision ID: 0029_trace_status_index
Revises: 0028_trace_span_json
Create Date: 2026-12-07 17:40:00.000000
"""

from __future__ import annotations

from alembic import op

revision = "0029_trace_status_index"
down_revision = "0028_trace_span_json"
branch_labels = None
depends_on = None

INDEX = "ix_trace_workspace_id_status_started_at_id"


def upgrade() -> None:
    op.create_index(
        INDEX,
        "trace",
        ["workspace_id", "status", "started_at", "id"],
        postgresql_include=["step_count", "model_key"],
    )


def downgrade() -> None:
    op.drop_index(INDEX, table_name="trace")
