"""DataLoaders of releases' bindings, built per request into `server.api.loaders.Loaders`."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from strawberry.dataloader import DataLoader

from server.assets.models import Asset, AssetVersion
from server.reading import SharedReader
from server.releases import service
from server.releases.models import BindingRole

_ROLE_ORDER = {role: index for index, role in enumerate(BindingRole)}


@dataclass(frozen=True, slots=True)
class LoadedBinding:
    role: BindingRole
    version: AssetVersion


def bindings_by_release(
    reader: SharedReader, workspace_id: str, assets: DataLoader[str, Asset | None]
) -> DataLoader[str, list[LoadedBinding]]:
    """Each release's bindings in role order, with versions and assets, in one statement.

    The bound assets are primed into `assets`, so `assetVersion { asset }` below a binding
    issues no statement of its own.
    """

    async def load(keys: list[str]) -> list[list[LoadedBinding]]:
        async with reader.session() as session:
            rows = await service.get_bindings(
                session=session, workspace_id=workspace_id, release_ids=keys
            )
        assets.prime_many({asset.id: asset for _, _, asset in rows})
        by_release: dict[str, list[LoadedBinding]] = defaultdict(list)
        for binding, version, _ in sorted(rows, key=lambda r: _ROLE_ORDER[r[0].role]):
            by_release[binding.release_id].append(LoadedBinding(binding.role, version))
        return [by_release.get(key, []) for key in keys]

    return DataLoader(load_fn=load)


def name_by_release(reader: SharedReader, workspace_id: str) -> DataLoader[str, str | None]:
    """Each release's name (None for another workspace's or a removed one), one statement
    per batch: what names a hosted run by the release it ran."""

    async def load(keys: list[str]) -> list[str | None]:
        async with reader.session() as session:
            names = await service.names_of(
                session=session, workspace_id=workspace_id, release_ids=keys
            )
        return [names.get(key) for key in keys]

    return DataLoader(load_fn=load)
