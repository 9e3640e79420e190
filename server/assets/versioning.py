"""What every asset version shares: its number, its content hash, and the asset's row lock."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from server.assets.models import Asset, AssetVersion


def canonical_json(value: Any) -> bytes:
    """Sorted keys, no spaces, UTF-8: equal content gives equal bytes."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def content_hash(value: Any) -> str:
    """sha256 hex of the canonical JSON of `value`."""
    return hashlib.sha256(canonical_json(value)).hexdigest()


async def lock_asset(session: AsyncSession, asset_id: str) -> Asset | None:
    """The asset row, locked for this transaction so version numbers are handed out in turn.

    PostgreSQL takes a row lock; SQLite transactions already start with BEGIN IMMEDIATE.
    """
    return (
        await session.execute(select(Asset).where(Asset.id == asset_id).with_for_update())
    ).scalar_one_or_none()


async def next_version_number(session: AsyncSession, asset_id: str) -> int:
    """1 + the highest number of the asset's versions (call with the asset locked)."""
    highest = (
        await session.execute(
            select(func.max(AssetVersion.number)).where(AssetVersion.asset_id == asset_id)
        )
    ).scalar_one()
    return (highest or 0) + 1
