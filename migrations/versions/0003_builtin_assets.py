"""built-in assets

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01
"""

from __future__ import annotations

from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

from server.assets import builtins
from server.db import PortableJSON, UTCDateTime

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

# Lightweight tables: only the columns inserted here, independent of later model changes.
asset = sa.table(
    "asset",
    sa.column("id", sa.String),
    sa.column("workspace_id", sa.String),
    sa.column("kind", sa.String),
    sa.column("name", sa.String),
    sa.column("description", sa.String),
    sa.column("created_at", UTCDateTime()),
    sa.column("created_by_member_id", sa.String),
)

asset_version = sa.table(
    "asset_version",
    sa.column("id", sa.String),
    sa.column("asset_id", sa.String),
    sa.column("workspace_id", sa.String),
    sa.column("kind", sa.String),
    sa.column("number", sa.Integer),
    sa.column("state", sa.String),
    sa.column("content", PortableJSON),
    sa.column("content_hash", sa.String),
    sa.column("variables", PortableJSON),
    sa.column("case_count", sa.Integer),
    sa.column("dev_case_count", sa.Integer),
    sa.column("holdout_case_count", sa.Integer),
    sa.column("created_at", UTCDateTime()),
    sa.column("sealed_at", UTCDateTime()),
    sa.column("created_by_member_id", sa.String),
)


def upgrade() -> None:
    # Dated when this database gets them, not on a fixed day (server/assets/builtins.py).
    installed = datetime.now(UTC)
    op.bulk_insert(asset, builtins.asset_rows(installed))
    op.bulk_insert(asset_version, builtins.version_rows(installed))


def downgrade() -> None:
    # A release still bound to a built-in version makes this fail on its foreign key, on
    # purpose: downgrading must not silently unbind releases.
    ids = sorted(builtins.BUILTIN_ASSET_IDS)
    op.execute(asset_version.delete().where(asset_version.c.asset_id.in_(ids)))
    op.execute(asset.delete().where(asset.c.id.in_(ids)))
