"""trace_span's `step` and `attributes` as `json` on PostgreSQL, not `jsonb`: every span
stored had PostgreSQL parse its ~3 KB of JSON into JSONB's binary form, which nothing needs —
the spans are read whole (a trace's steps, a trace summarized again) and the few reads inside
them (datasets from traces: `->`, `#>>`) work on `json` as they did. PostgreSQL backend CPU for
a binary `COPY` of the trace-ingest bench's spans: 38.8–52.5 µs a span into `jsonb`, 22.5–27.5
into `json` (docs/benchmarks.md, "Trace ingest"). The columns keep lz4 (0025). Rewrites the
table once; SQLite stores JSON as text either way.

Revision ID: 0028_trace_span_json
Revises: 0027_trace_span_one_index
Create Date: 2026-12-07 17:30:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0028_trace_span_json"
down_revision = "0027_trace_span_one_index"
branch_labels = None
depends_on = None

COLUMNS = ("step", "attributes")


def upgrade() -> None:
    _retype("json")


def downgrade() -> None:
    _retype("jsonb")


def _retype(kind: str) -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    changes = [f"ALTER COLUMN {c} TYPE {kind} USING {c}::{kind}" for c in COLUMNS]
    supported = op.get_bind().execute(
        sa.text("SELECT enumvals FROM pg_settings WHERE name = 'default_toast_compression'")
    )
    if "lz4" in (supported.scalar() or []):
        changes += [f"ALTER COLUMN {c} SET COMPRESSION lz4" for c in COLUMNS]
    op.execute(f"ALTER TABLE trace_span {', '.join(changes)}")
