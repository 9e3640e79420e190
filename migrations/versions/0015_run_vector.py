"""run vector

Revision ID: 0015
Revises: 0009
Create Date: 2026-12-01 10:35:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

import server.db  # noqa: F401
from sqlalchemy import Text
from sqlalchemy.dialects import postgresql

revision = '0015'
down_revision = '0013'
branch_labels = None
depends_on = None


def _array(item: sa.types.TypeEngine, dimensions: int = 1) -> sa.types.TypeEngine:
    return sa.JSON().with_variant(postgresql.ARRAY(item, dimensions=dimensions), 'postgresql')


def upgrade() -> None:
    op.create_table('run_vector',
    sa.Column('run_id', sa.String(length=40), nullable=False),
    sa.Column('keyed_by', sa.String(length=16), nullable=False),
    sa.Column('keys', _array(Text()), nullable=True),
    sa.Column('positions', _array(sa.Integer()), nullable=False),
    sa.Column('passed', _array(sa.Integer()), nullable=False),
    sa.Column('graded', _array(sa.Integer()), nullable=False),
    sa.Column('evaluators', _array(Text()), nullable=False),
    sa.Column('means', _array(sa.Float(), 2), nullable=True),
    sa.ForeignKeyConstraint(['run_id'], ['run.id'], name=op.f('fk_run_vector_run_id_run'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('run_id', name=op.f('pk_run_vector'))
    )


def downgrade() -> None:
    op.drop_table('run_vector')
