"""workspace call limit

Revision ID: 0018_call_limit
Revises: 0017
Create Date: 2026-12-03 19:00:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

import server.db  # noqa: F401

revision = '0018_call_limit'
down_revision = '0018_judge_labels'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('workspace', schema=None) as batch_op:
        batch_op.add_column(sa.Column('max_calls_per_comparison', sa.Integer(), server_default='20000', nullable=False, comment='model calls one comparison may make (QUOTA_EXCEEDED at create)'))


def downgrade() -> None:
    # Not a batch: see 0016 (a batch on SQLite recreates the table).
    op.drop_column('workspace', 'max_calls_per_comparison')
