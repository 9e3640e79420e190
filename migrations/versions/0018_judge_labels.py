"""human labels on trials, review queues, an imported run's judge evaluator

Revision ID: 0018_judge_labels
Revises: 0018
Create Date: 2026-12-03 19:20:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

import server.db

revision = '0018_judge_labels'
down_revision = '0018'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'trial_label',
        sa.Column('id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), autoincrement=True, nullable=False),
        sa.Column('workspace_id', sa.String(length=40), nullable=False),
        sa.Column('target', sa.Enum('COMPARISON', 'RUN', name='label_target', native_enum=False, length=16), nullable=False),
        sa.Column('target_id', sa.String(length=40), nullable=False, comment="the comparison's or run's id"),
        sa.Column('cohort_index', sa.Integer(), nullable=False),
        sa.Column('position', sa.Integer(), nullable=False, comment='the case ordinal (comparison) or item position (run)'),
        sa.Column('dataset_item_id', sa.String(length=200), nullable=False),
        sa.Column('trial_index', sa.Integer(), nullable=False),
        sa.Column('labeller_member_id', sa.String(length=40), nullable=False),
        sa.Column('passed', sa.Boolean(), nullable=False),
        sa.Column('note', sa.Text(), nullable=True),
        sa.Column('created_at', server.db.UTCDateTime(timezone=True), nullable=False, comment='when this labeller last labelled the trial'),
        sa.ForeignKeyConstraint(['workspace_id'], ['workspace.id'], name=op.f('fk_trial_label_workspace_id_workspace'), ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_trial_label')),
        sa.UniqueConstraint('target_id', 'cohort_index', 'position', 'trial_index', 'labeller_member_id', name='uq_trial_label_trial_labeller'),
    )
    op.create_index('ix_trial_label_workspace_id_target_id', 'trial_label', ['workspace_id', 'target_id'], unique=False)
    op.create_table(
        'review_queue',
        sa.Column('comparison_id', sa.String(length=40), nullable=False),
        sa.Column('seed', sa.BigInteger(), nullable=False),
        sa.Column('issued_through', sa.Integer(), nullable=False, comment='the furthest queue position handed out; -1: none'),
        sa.Column('created_at', server.db.UTCDateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['comparison_id'], ['comparison.id'], name=op.f('fk_review_queue_comparison_id_comparison'), ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('comparison_id', name=op.f('pk_review_queue')),
    )
    with op.batch_alter_table('run', schema=None) as batch_op:
        batch_op.add_column(sa.Column('judge_evaluator', sa.String(length=200), nullable=True, comment="imported runs: the evaluator that is an LLM judge's grade"))


def downgrade() -> None:
    op.drop_column('run', 'judge_evaluator')
    op.drop_table('review_queue')
    op.drop_index('ix_trial_label_workspace_id_target_id', table_name='trial_label')
    op.drop_table('trial_label')
