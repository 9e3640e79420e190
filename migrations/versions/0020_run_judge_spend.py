"""run judge spend: an imported run's judge calls counted, priced and capped

Revision ID: 0020_run_judge_spend
Revises: 0018_call_limit
Create Date: 2026-12-03 23:00:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

import server.db

revision = "0020_run_judge_spend"
down_revision = "0018_call_limit"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("run", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column(
                "budget_cap_micros",
                sa.BigInteger(),
                nullable=True,
                comment="imported runs: the cap on what its judge calls may spend",
            )
        )
        batch_op.add_column(
            sa.Column(
                "judge_spent_micros",
                sa.BigInteger(),
                server_default="0",
                nullable=False,
                comment="imported runs: its judge calls' cost",
            )
        )
        batch_op.add_column(
            sa.Column(
                "judge_call_count",
                sa.Integer(),
                server_default="0",
                nullable=False,
                comment="imported runs: judge calls made",
            )
        )
        batch_op.add_column(
            sa.Column(
                "stop_reason",
                sa.String(length=32),
                nullable=True,
                comment="imported runs: the spend limit that stopped its judge calls",
            )
        )
    op.create_table(
        "run_judge_spend",
        sa.Column(
            "id",
            sa.BigInteger().with_variant(sa.Integer(), "sqlite"),
            autoincrement=True,
            nullable=False,
        ),
        sa.Column("run_id", sa.String(length=40), nullable=False),
        sa.Column("experiment_id", sa.String(length=40), nullable=False),
        sa.Column("connection_id", sa.String(length=40), nullable=False),
        sa.Column("calls", sa.Integer(), nullable=False),
        sa.Column("spent_micros", sa.BigInteger(), nullable=False),
        sa.Column("recorded_at", server.db.UTCDateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["run_id"],
            ["run.id"],
            name=op.f("fk_run_judge_spend_run_id_run"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_run_judge_spend")),
    )
    op.create_index(
        "ix_run_judge_spend_connection_id_recorded_at",
        "run_judge_spend",
        ["connection_id", "recorded_at"],
        unique=False,
    )
    op.create_index(
        "ix_run_judge_spend_experiment_id_recorded_at",
        "run_judge_spend",
        ["experiment_id", "recorded_at"],
        unique=False,
    )
    op.create_index(
        op.f("ix_run_judge_spend_run_id"), "run_judge_spend", ["run_id"], unique=False
    )


def downgrade() -> None:
    op.drop_table("run_judge_spend")
    # Not a batch: see 0016 (a batch on SQLite recreates the table).
    op.drop_column("run", "stop_reason")
    op.drop_column("run", "judge_call_count")
    op.drop_column("run", "judge_spent_micros")
    op.drop_column("run", "budget_cap_micros")
