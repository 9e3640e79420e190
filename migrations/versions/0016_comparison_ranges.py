"""comparison ranges

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-01 12:00:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

import server.db  # noqa: F401

revision = '0016'
down_revision = '0015'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('comparison_range',
    sa.Column('comparison_id', sa.String(length=40), nullable=False),
    sa.Column('range_index', sa.Integer(), nullable=False),
    sa.Column('first_ordinal', sa.Integer(), nullable=False),
    sa.Column('end_ordinal', sa.Integer(), nullable=False, comment='exclusive'),
    sa.Column('lease_token', sa.BigInteger(), nullable=False),
    sa.Column('lease_owner', sa.String(length=80), nullable=True),
    sa.Column('lease_expires_at', server.db.UTCDateTime(timezone=True), nullable=True),
    sa.Column('finished_at', server.db.UTCDateTime(timezone=True), nullable=True, comment='every trial of the range has its outcome'),
    sa.ForeignKeyConstraint(['comparison_id'], ['comparison.id'], name=op.f('fk_comparison_range_comparison_id_comparison'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('comparison_id', 'range_index', name=op.f('pk_comparison_range'))
    )
    with op.batch_alter_table('comparison', schema=None) as batch_op:
        batch_op.add_column(sa.Column('pending_stop', sa.String(length=40), nullable=True, comment='a stop found at admission (a StopReason, or FAILED): every delivery stops'))


def downgrade() -> None:
    # Not a batch: on SQLite a batch recreates the table, and dropping the old one would
    # cascade to every row referencing a comparison. SQLite ≥ 3.35 drops a plain column.
    op.drop_column('comparison', 'pending_stop')
    op.drop_table('comparison_range')
