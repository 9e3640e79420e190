"""run checks: the checks the server grades an imported run's trials with

Revision ID: 0019_run_checks
Revises: 0018_connection_kinds
Create Date: 2026-12-03 19:40:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

import server.db  # noqa: F401

revision = "0019_run_checks"
down_revision = "0018_connection_kinds"
branch_labels = None
depends_on = None

_JSON = sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql")


def upgrade() -> None:
    with op.batch_alter_table("run", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column(
                "checks",
                _JSON,
                nullable=True,
                comment="imported runs: the checks the server grades each trial with",
            )
        )


def downgrade() -> None:
    # Not a batch: see 0016 (a batch on SQLite recreates the table).
    op.drop_column("run", "checks")
