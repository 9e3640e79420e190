"""traces' large columns compressed with lz4 on PostgreSQL: a span's step and attributes, a
trace's input and output. pglz, the default, was about half of PostgreSQL's time storing a
span (docs/benchmarks.md, "Trace ingest"); values stored before stay as they are, and are
read either way. A server built without lz4 (or before PostgreSQL 14) keeps pglz; SQLite has
no such setting.

Revision ID: 0025_trace_lz4
Revises: 0024_live_comparisons
Create Date: 2026-12-07 12:00:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0025_trace_lz4"
down_revision = "0024_live_comparisons"
branch_labels = None
depends_on = None

COLUMNS = {"trace_span": ("step", "attributes"), "trace": ("input", "output")}


def upgrade() -> None:
    _compress_with("lz4")


def downgrade() -> None:
    _compress_with("pglz")


def _compress_with(method: str) -> None:
    bind = op.get_bind()
    if bind.dialect.name != "postgresql" or not _supported(bind, method):
        return
    for table, columns in COLUMNS.items():
        changes = ", ".join(f"ALTER COLUMN {c} SET COMPRESSION {method}" for c in columns)
        op.execute(f"ALTER TABLE {table} {changes}")


def _supported(bind: sa.Connection, method: str) -> bool:
    found = bind.execute(
        sa.text("SELECT enumvals FROM pg_settings WHERE name = 'default_toast_compression'")
    ).scalar()
    return method in (found or [])
