"""DataLoaders of assets and their versions, built per request into `server.api.loaders.Loaders`."""

from __future__ import annotations

from collections import defaultdict

from strawberry.dataloader import DataLoader

from server.assets import service
from server.assets.models import Asset, AssetVersion
from server.reading import SharedReader


def asset_by_id(reader: SharedReader, workspace_id: str) -> DataLoader[str, Asset | None]:
    """Visible assets by id (None for an id the caller cannot see)."""

    async def load(keys: list[str]) -> list[Asset | None]:
        async with reader.session() as session:
            rows = await service.get_many(
                session=session, workspace_id=workspace_id, asset_ids=keys
            )
        found = {row.id: row for row in rows}
        return [found.get(key) for key in keys]

    return DataLoader(load_fn=load)


def sealed_versions_by_asset(
    reader: SharedReader, workspace_id: str
) -> DataLoader[str, list[AssetVersion]]:
    """Each asset's sealed versions, oldest first, for many assets in one statement."""

    async def load(keys: list[str]) -> list[list[AssetVersion]]:
        async with reader.session() as session:
            rows = await service.get_sealed_versions(
                session=session, workspace_id=workspace_id, asset_ids=keys
            )
        by_asset: dict[str, list[AssetVersion]] = defaultdict(list)
        for row in rows:
            by_asset[row.asset_id].append(row)
        return [by_asset.get(key, []) for key in keys]

    return DataLoader(load_fn=load)
