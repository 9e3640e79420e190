"""traces: ingested OTLP spans, trace summaries, feedback, model prices; INGEST tokens and
the workspace's trace retention

Revision ID: 0022_traces
Revises: 0021_playground
Create Date: 2026-12-07 05:30:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

import server.db

revision = "0022_traces"
down_revision = "0021_playground"
branch_labels = None
depends_on = None

JSON = sa.JSON().with_variant(sa.dialects.postgresql.JSONB(astext_type=sa.Text()), "postgresql")
TIME = server.db.UTCDateTime(timezone=True)


def _workspace_fk(table: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(
        ["workspace_id"],
        ["workspace.id"],
        name=f"fk_{table}_workspace_id_workspace",
        ondelete="CASCADE",
    )


def upgrade() -> None:
    with op.batch_alter_table("api_token", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column(
                "scope",
                sa.Enum("FULL", "INGEST", name="token_scope", native_enum=False, length=16),
                server_default="FULL",
                nullable=False,
            )
        )
    with op.batch_alter_table("workspace", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column(
                "trace_retention_days",
                sa.Integer(),
                server_default="30",
                nullable=False,
                comment="ingested traces older than this are deleted (docs/traces.md)",
            )
        )
    op.create_table(
        "trace_span",
        sa.Column("workspace_id", sa.String(length=40), nullable=False),
        sa.Column("trace_id", sa.String(length=32), nullable=False, comment="hex"),
        sa.Column("span_id", sa.String(length=16), nullable=False, comment="hex"),
        sa.Column("parent_span_id", sa.String(length=16), nullable=True),
        sa.Column("started_at", TIME, nullable=False),
        sa.Column("service", sa.String(length=200), nullable=True),
        sa.Column(
            "step",
            JSON,
            nullable=False,
            comment="the span as a step (server/traces/steps.py), camelCase keys",
        ),
        sa.Column(
            "attributes",
            JSON,
            nullable=False,
            comment="resource, span and event attributes (secrets redacted, long cut)",
        ),
        sa.Column("received_at", TIME, nullable=False),
        _workspace_fk("trace_span"),
        sa.PrimaryKeyConstraint("workspace_id", "trace_id", "span_id", name="pk_trace_span"),
    )
    op.create_index(
        "ix_trace_span_workspace_id_trace_id_started_at",
        "trace_span",
        ["workspace_id", "trace_id", "started_at"],
    )
    op.create_table(
        "trace",
        sa.Column("workspace_id", sa.String(length=40), nullable=False),
        sa.Column("id", sa.String(length=32), nullable=False, comment="hex trace id"),
        sa.Column("service", sa.String(length=200), nullable=True),
        sa.Column("release", sa.String(length=200), nullable=True),
        sa.Column("started_at", TIME, nullable=False),
        sa.Column("duration_ms", sa.Float(), nullable=False),
        sa.Column("status", sa.String(length=8), nullable=False),
        sa.Column("root_name", sa.String(length=500), nullable=True),
        sa.Column("input", sa.Text(), nullable=True, comment="the first user message"),
        sa.Column("output", sa.Text(), nullable=True, comment="the last assistant text"),
        sa.Column("models", JSON, nullable=False),
        sa.Column(
            "model_key",
            sa.String(length=500),
            nullable=True,
            comment="the models joined by '|', for filtering and grouping",
        ),
        sa.Column("step_count", sa.Integer(), nullable=False),
        sa.Column("llm_calls", sa.Integer(), nullable=False),
        sa.Column("tool_calls", sa.Integer(), nullable=False),
        sa.Column("input_tokens", sa.BigInteger(), nullable=False),
        sa.Column("output_tokens", sa.BigInteger(), nullable=False),
        sa.Column("cost_micros", sa.BigInteger(), nullable=False),
        sa.Column("case_id", sa.String(length=200), nullable=True),
        sa.Column("expected", sa.Text(), nullable=True),
        sa.Column(
            "span_feedback",
            JSON,
            nullable=False,
            comment="shipwise.feedback.<name> span attributes",
        ),
        sa.Column("has_feedback", sa.Boolean(), nullable=False),
        sa.Column("updated_at", TIME, nullable=False),
        _workspace_fk("trace"),
        sa.PrimaryKeyConstraint("workspace_id", "id", name="pk_trace"),
    )
    op.create_index(
        "ix_trace_workspace_id_started_at_id", "trace", ["workspace_id", "started_at", "id"]
    )
    op.create_table(
        "trace_feedback",
        sa.Column(
            "id",
            sa.BigInteger().with_variant(sa.Integer(), "sqlite"),
            autoincrement=True,
            nullable=False,
        ),
        sa.Column("workspace_id", sa.String(length=40), nullable=False),
        sa.Column("trace_id", sa.String(length=32), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("value", sa.Float(), nullable=False),
        sa.Column("comment", sa.Text(), nullable=True),
        sa.Column("member_id", sa.String(length=40), nullable=True),
        sa.Column("created_at", TIME, nullable=False),
        _workspace_fk("trace_feedback"),
        sa.PrimaryKeyConstraint("id", name="pk_trace_feedback"),
    )
    op.create_index(
        "ix_trace_feedback_workspace_id_trace_id",
        "trace_feedback",
        ["workspace_id", "trace_id"],
    )
    op.create_table(
        "model_price",
        sa.Column("workspace_id", sa.String(length=40), nullable=False),
        sa.Column("model", sa.String(length=200), nullable=False),
        sa.Column("input_micros_per_million_tokens", sa.BigInteger(), nullable=False),
        sa.Column("output_micros_per_million_tokens", sa.BigInteger(), nullable=False),
        sa.Column("updated_at", TIME, nullable=False),
        _workspace_fk("model_price"),
        sa.PrimaryKeyConstraint("workspace_id", "model", name="pk_model_price"),
    )


def downgrade() -> None:
    op.drop_table("model_price")
    op.drop_table("trace_feedback")
    op.drop_table("trace")
    op.drop_table("trace_span")
    op.drop_column("workspace", "trace_retention_days")
    op.drop_column("api_token", "scope")
