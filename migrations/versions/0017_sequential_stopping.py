"""sequential stopping

Revision ID: 0017
Revises: 0016
Create Date: 2026-12-01 18:00:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

import server.db  # noqa: F401

revision = '0017'
down_revision = '0016'
branch_labels = None
depends_on = None

_JSON = sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), 'postgresql')


def upgrade() -> None:
    with op.batch_alter_table('comparison', schema=None) as batch_op:
        batch_op.add_column(sa.Column('stopping', _JSON, nullable=True, comment='sequential stopping {rule, alpha, minCases, lookEveryCases}'))
        batch_op.add_column(sa.Column('case_order_seed', sa.BigInteger(), nullable=True, comment='the seed of the random case order (sequential stopping)'))
        batch_op.add_column(sa.Column('looks', _JSON, nullable=True, comment='sequential looks so far and the decision (dispatch/looks.py)'))


def downgrade() -> None:
    # Not a batch: see 0016 (a batch on SQLite recreates the table).
    op.drop_column('comparison', 'looks')
    op.drop_column('comparison', 'case_order_seed')
    op.drop_column('comparison', 'stopping')
