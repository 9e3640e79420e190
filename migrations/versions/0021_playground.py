"""playground: a prompt's gate settings, and the Playground's calls counted as spend

Revision ID: 0021_playground
Revises: 0020_run_judge_spend
Create Date: 2026-12-07 05:30:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

import server.db

revision = "0021_playground"
down_revision = "0020_run_judge_spend"
branch_labels = None
depends_on = None

_JSON = sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql")


def upgrade() -> None:
    with op.batch_alter_table("asset", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column(
                "gate_settings",
                _JSON,
                nullable=True,
                comment="a prompt's gate settings: "
                "{datasetId, split, trialsPerCase, checks, shipPolicy}",
            )
        )
    op.create_table(
        "playground_call",
        sa.Column(
            "id",
            sa.BigInteger().with_variant(sa.Integer(), "sqlite"),
            autoincrement=True,
            nullable=False,
        ),
        sa.Column("workspace_id", sa.String(length=40), nullable=False),
        sa.Column(
            "run_id",
            sa.String(length=40),
            nullable=False,
            comment="the playgroundRun it belonged to",
        ),
        sa.Column("connection_id", sa.String(length=40), nullable=False),
        sa.Column("member_id", sa.String(length=40), nullable=True),
        sa.Column("input_tokens", sa.Integer(), nullable=False),
        sa.Column("output_tokens", sa.Integer(), nullable=False),
        sa.Column("cost_micros", sa.BigInteger(), nullable=False),
        sa.Column("recorded_at", server.db.UTCDateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["workspace_id"],
            ["workspace.id"],
            name=op.f("fk_playground_call_workspace_id_workspace"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_playground_call")),
    )
    op.create_index(
        "ix_playground_call_connection_id_recorded_at",
        "playground_call",
        ["connection_id", "recorded_at"],
        unique=False,
    )
    op.create_index(
        "ix_playground_call_workspace_id_recorded_at",
        "playground_call",
        ["workspace_id", "recorded_at"],
        unique=False,
    )


def downgrade() -> None:
    op.drop_table("playground_call")
    # Not a batch: see 0016 (a batch on SQLite recreates the table).
    op.drop_column("asset", "gate_settings")
