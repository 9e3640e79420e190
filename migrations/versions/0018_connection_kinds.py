"""connection kinds: ANTHROPIC, extra headers, the check's reason

Revision ID: 0018_connection_kinds
Revises: 0017
Create Date: 2026-12-03 19:00:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

import server.db  # noqa: F401

revision = "0018_connection_kinds"
down_revision = "0017"
branch_labels = None
depends_on = None

_JSON = sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql")


def upgrade() -> None:
    # `kind` is a VARCHAR(24) without a CHECK constraint: ANTHROPIC needs no change to it.
    with op.batch_alter_table("model_connection", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column(
                "headers_encrypted",
                sa.Text(),
                nullable=True,
                comment="Fernet token of the extra request headers (a JSON object); never returned",
            )
        )
        batch_op.add_column(
            sa.Column(
                "header_names",
                _JSON,
                nullable=True,
                comment="The extra headers' names, in the order given (values write-only)",
            )
        )
        batch_op.add_column(
            sa.Column(
                "check_reason",
                sa.String(length=32),
                nullable=True,
                comment="why the last check gave its status (connections/checks.py)",
            )
        )
        batch_op.add_column(
            sa.Column(
                "check_http_status",
                sa.Integer(),
                nullable=True,
                comment="the HTTP status the last check got, if any",
            )
        )


def downgrade() -> None:
    # Not a batch: see 0016 (a batch on SQLite recreates the table).
    op.drop_column("model_connection", "check_http_status")
    op.drop_column("model_connection", "check_reason")
    op.drop_column("model_connection", "header_names")
    op.drop_column("model_connection", "headers_encrypted")
