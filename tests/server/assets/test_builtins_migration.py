"""Migration 0003 inserts the built-in assets, and its downgrade removes them again."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from alembic import command
from sqlalchemy import select

from server.assets.builtins import BUILTINS
from server.assets.models import Asset, AssetVersion
from server.assets.versioning import content_hash
from server.db import create_engine, create_sessionmaker
from server.migrate import alembic_config, upgrade


async def _builtins(url: str) -> tuple[list[Any], list[AssetVersion]]:
    """The assets' columns 0003 knows (later migrations add others) and the versions."""
    engine = create_engine(url)
    try:
        async with create_sessionmaker(engine)() as session:
            columns = (Asset.id, Asset.kind, Asset.name, Asset.workspace_id)
            assets = (await session.execute(select(*columns).order_by(Asset.id))).all()
            versions = (
                (await session.execute(select(AssetVersion).order_by(AssetVersion.asset_id)))
                .scalars()
                .all()
            )
    finally:
        await engine.dispose()
    return [tuple(a) for a in assets], list(versions)


async def test_builtins_come_with_the_migration_and_go_with_its_downgrade(
    tmp_path: Path,
) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'builtins.db'}"
    await asyncio.to_thread(upgrade, url, "0003")
    assets, versions = await _builtins(url)
    expected = sorted(BUILTINS, key=lambda b: b.id)
    assert assets == [(b.id, b.kind, b.name, None) for b in expected]
    assert [(v.id, v.number, v.state.value, v.content, v.content_hash) for v in versions] == [
        (b.version_id, 1, "SEALED", b.content, content_hash(b.content)) for b in expected
    ]
    assert all(v.sealed_at is not None and v.workspace_id is None for v in versions)

    await asyncio.to_thread(command.downgrade, alembic_config(url), "0002")
    assert await _builtins(url) == ([], [])
    await asyncio.to_thread(upgrade, url, "0003")
    assert len((await _builtins(url))[0]) == len(BUILTINS)
