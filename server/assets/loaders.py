"""Per-request DataLoaders of assets and their versions, kept in `info.context.loaders`."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import cast

from strawberry.dataloader import DataLoader

from server.assets import service
from server.assets.models import Asset, AssetVersion
from server.context import Context

ASSET_BY_ID = "assets.by_id"
SEALED_VERSIONS_BY_ASSET = "assets.sealed_versions"


def asset_by_id(context: Context) -> DataLoader[str, Asset | None]:
    """Visible assets by id (None for an id the caller cannot see)."""
    loader = context.loaders.get(ASSET_BY_ID)
    if loader is None:
        workspace_id = context.require().workspace_id

        async def load(keys: list[str]) -> list[Asset | None]:
            async with context.read() as session:
                rows = await service.get_many(
                    session=session, workspace_id=workspace_id, asset_ids=keys
                )
            found = {row.id: row for row in rows}
            return [found.get(key) for key in keys]

        loader = context.loaders[ASSET_BY_ID] = DataLoader(load_fn=load)
    return cast(DataLoader[str, Asset | None], loader)


def prime_assets(context: Context, rows: Iterable[Asset]) -> None:
    """Remember rows another query already read, so `AssetVersion.asset` costs no statement."""
    asset_by_id(context).prime_many({row.id: row for row in rows})


def sealed_versions_by_asset(context: Context) -> DataLoader[str, list[AssetVersion]]:
    """Each asset's sealed versions, oldest first, for many assets in one statement."""
    loader = context.loaders.get(SEALED_VERSIONS_BY_ASSET)
    if loader is None:
        workspace_id = context.require().workspace_id

        async def load(keys: list[str]) -> list[list[AssetVersion]]:
            async with context.read() as session:
                rows = await service.get_sealed_versions(
                    session=session, workspace_id=workspace_id, asset_ids=keys
                )
            by_asset: dict[str, list[AssetVersion]] = defaultdict(list)
            for row in rows:
                by_asset[row.asset_id].append(row)
            return [by_asset.get(key, []) for key in keys]

        loader = context.loaders[SEALED_VERSIONS_BY_ASSET] = DataLoader(load_fn=load)
    return cast(DataLoader[str, list[AssetVersion]], loader)
