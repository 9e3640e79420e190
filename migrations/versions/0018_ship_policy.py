"""ship policy

Revision ID: 0018
Revises: 0019_run_checks
Create Date: 2026-12-03 19:00:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

import server.db  # noqa: F401

revision = '0018'
down_revision = '0019_run_checks'
branch_labels = None
depends_on = None

_JSON = sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), 'postgresql')


def upgrade() -> None:
    with op.batch_alter_table('comparison', schema=None) as batch_op:
        batch_op.add_column(sa.Column('ship_policy', _JSON, nullable=True, comment='the ship policy frozen at creation, with registeredAt (docs/decision.md)'))
    with op.batch_alter_table('workspace', schema=None) as batch_op:
        batch_op.add_column(sa.Column('default_ship_policy', _JSON, nullable=True, comment="the ship policy of comparisons created without one (null: the defaults)"))


def downgrade() -> None:
    # Not a batch: see 0016 (a batch on SQLite recreates the table).
    op.drop_column('workspace', 'default_ship_policy')
    op.drop_column('comparison', 'ship_policy')
