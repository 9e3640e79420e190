"""traces at ingest speed, on PostgreSQL: the large columns (a span's step and attributes, a
trace's input and output) compressed with lz4, whose pglz default was about a quarter of
the backend's CPU storing a span; the traces' list index carries the columns the list's
count filters on (`step_count`, `status`, `model_key`), so `totalCount` is an index-only scan
rather than a read of every row, and `trace` is vacuumed and analyzed after every 1 % of new
rows rather than 20 %, so the pages spans just filled are soon all-visible (which an
index-only scan needs) and the planner knows the table's size (docs/benchmarks.md, "Trace
ingest"). Values stored before keep their compression and are read either way. A server
built without lz4 keeps pglz; SQLite has none of these settings and its index stays as it is.

Revision ID: 0025_trace_ingest
Revises: 0024_live_comparisons
Create Date: 2026-12-07 12:00:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0025_trace_ingest"
down_revision = "0024_live_comparisons"
branch_labels = None
depends_on = None

COMPRESSED = {"trace_span": ("step", "attributes"), "trace": ("input", "output")}
LIST_INDEX = "ix_trace_workspace_id_started_at_id"
LIST_KEY = ["workspace_id", "started_at", "id"]
COUNTED = ["step_count", "status", "model_key"]
VACUUMED_OFTEN = (
    "autovacuum_vacuum_insert_scale_factor",
    "autovacuum_vacuum_scale_factor",
    "autovacuum_analyze_scale_factor",
)


def upgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    _compress_with("lz4")
    op.drop_index(LIST_INDEX, table_name="trace")
    op.create_index(LIST_INDEX, "trace", LIST_KEY, postgresql_include=COUNTED)
    op.execute(f"ALTER TABLE trace SET ({', '.join(f'{name} = 0.01' for name in VACUUMED_OFTEN)})")


def downgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    _compress_with("pglz")
    op.drop_index(LIST_INDEX, table_name="trace")
    op.create_index(LIST_INDEX, "trace", LIST_KEY)
    op.execute(f"ALTER TABLE trace RESET ({', '.join(VACUUMED_OFTEN)})")


def _compress_with(method: str) -> None:
    supported = op.get_bind().execute(
        sa.text("SELECT enumvals FROM pg_settings WHERE name = 'default_toast_compression'")
    )
    if method not in (supported.scalar() or []):
        return
    for table, columns in COMPRESSED.items():
        changes = ", ".join(f"ALTER COLUMN {c} SET COMPRESSION {method}" for c in columns)
        op.execute(f"ALTER TABLE {table} {changes}")
