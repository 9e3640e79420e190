"""live comparisons: a canary's traces graded as they arrive, one grade row per (live
comparison, trace); webhook events long enough for `live_comparison.*`

Revision ID: 0024_live_comparisons
Revises: 0023_datasets_from_traces
Create Date: 2026-12-07 09:00:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

import server.db

revision = "0024_live_comparisons"
down_revision = "0023_datasets_from_traces"
branch_labels = None
depends_on = None

JSON = sa.JSON().with_variant(sa.dialects.postgresql.JSONB(astext_type=sa.Text()), "postgresql")
TIME = server.db.UTCDateTime(timezone=True)
OLD_EVENTS = ("COMPARISON_FINISHED", "COMPARISON_REGRESSED", "RUN_REGRESSED")
NEW_EVENTS = (*OLD_EVENTS, "LIVE_COMPARISON_DECIDED", "LIVE_COMPARISON_GUARDRAIL_VIOLATED")


def upgrade() -> None:
    op.create_table(
        "live_comparison",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("workspace_id", sa.String(length=40), nullable=False),
        sa.Column("label", sa.String(length=200), nullable=True),
        sa.Column("service", sa.String(length=200), nullable=False),
        sa.Column("candidate_release", sa.String(length=200), nullable=False),
        sa.Column("baseline_releases", JSON, nullable=False),
        sa.Column("checks", JSON, nullable=False),
        sa.Column("judge_sample_rate", sa.Float(), nullable=False),
        sa.Column("judge_daily_cap_micros", sa.BigInteger(), nullable=True),
        sa.Column("ship_policy", JSON, nullable=False),
        sa.Column("max_days", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("graded", sa.Integer(), nullable=False, comment="grade rows so far"),
        sa.Column("arms", JSON, nullable=False),
        sa.Column("decision", JSON, nullable=True),
        sa.Column(
            "sequence",
            JSON,
            nullable=False,
            comment="the first baseline's quality sequence, ≤ 500 points",
        ),
        sa.Column("guardrail_alerted", sa.Boolean(), nullable=False),
        sa.Column("created_by_member_id", sa.String(length=40), nullable=True),
        sa.Column("started_at", TIME, nullable=False),
        sa.Column("decided_at", TIME, nullable=True),
        sa.Column("ended_at", TIME, nullable=True),
        sa.Column("updated_at", TIME, nullable=False),
        sa.ForeignKeyConstraint(
            ["workspace_id"],
            ["workspace.id"],
            name="fk_live_comparison_workspace_id_workspace",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name="pk_live_comparison"),
    )
    op.create_index(
        "ix_live_comparison_workspace_id_status", "live_comparison", ["workspace_id", "status"]
    )
    op.create_table(
        "live_grade",
        sa.Column("live_comparison_id", sa.String(length=40), nullable=False),
        sa.Column("trace_id", sa.String(length=32), nullable=False),
        sa.Column(
            "ordinal", sa.Integer(), nullable=False, comment="arrival order within the comparison"
        ),
        sa.Column("release", sa.String(length=200), nullable=False),
        sa.Column(
            "passed",
            sa.Float(),
            nullable=True,
            comment="pass fraction of the checks; null when the trace failed or has no output",
        ),
        sa.Column("failed_or_missing", sa.Boolean(), nullable=False),
        sa.Column("cost_micros", sa.BigInteger(), nullable=False),
        sa.Column("output_tokens", sa.BigInteger(), nullable=False),
        sa.Column("duration_ms", sa.Float(), nullable=False),
        sa.Column("judged", sa.Boolean(), nullable=False, comment="in the judge's sample"),
        sa.Column("judge_cost_micros", sa.BigInteger(), nullable=False),
        sa.Column("trace_started_at", TIME, nullable=False),
        sa.Column("graded_at", TIME, nullable=False),
        sa.ForeignKeyConstraint(
            ["live_comparison_id"],
            ["live_comparison.id"],
            name="fk_live_grade_live_comparison_id_live_comparison",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("live_comparison_id", "trace_id", name="pk_live_grade"),
    )
    op.create_index(
        "ix_live_grade_live_comparison_id_ordinal", "live_grade", ["live_comparison_id", "ordinal"]
    )
    with op.batch_alter_table("webhook_delivery", schema=None) as batch_op:
        batch_op.alter_column(
            "event",
            existing_type=sa.Enum(*OLD_EVENTS, name="webhook_event", native_enum=False, length=32),
            type_=sa.Enum(*NEW_EVENTS, name="webhook_event", native_enum=False, length=64),
            existing_nullable=False,
        )


def downgrade() -> None:
    with op.batch_alter_table("webhook_delivery", schema=None) as batch_op:
        batch_op.alter_column(
            "event",
            existing_type=sa.Enum(*NEW_EVENTS, name="webhook_event", native_enum=False, length=64),
            type_=sa.Enum(*OLD_EVENTS, name="webhook_event", native_enum=False, length=32),
            existing_nullable=False,
        )
    op.drop_index("ix_live_grade_live_comparison_id_ordinal", table_name="live_grade")
    op.drop_table("live_grade")
    op.drop_index("ix_live_comparison_workspace_id_status", table_name="live_comparison")
    op.drop_table("live_comparison")
