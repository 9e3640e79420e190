"""Per-request DataLoaders of releases' bindings, kept in `info.context.loaders`."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import cast

from strawberry.dataloader import DataLoader

from server.assets.loaders import prime_assets
from server.assets.models import AssetVersion
from server.context import Context
from server.releases import service
from server.releases.models import BindingRole

BINDINGS_BY_RELEASE = "releases.bindings"
_ROLE_ORDER = {role: index for index, role in enumerate(BindingRole)}


@dataclass(frozen=True, slots=True)
class LoadedBinding:
    role: BindingRole
    version: AssetVersion


def bindings_by_release(context: Context) -> DataLoader[str, list[LoadedBinding]]:
    """Each release's bindings in role order, with versions and assets, in one statement.

    The bound assets are primed into the asset loader, so `assetVersion { asset }` below a
    binding issues no statement of its own.
    """
    loader = context.loaders.get(BINDINGS_BY_RELEASE)
    if loader is None:
        workspace_id = context.require().workspace_id

        async def load(keys: list[str]) -> list[list[LoadedBinding]]:
            async with context.read() as session:
                rows = await service.get_bindings(
                    session=session, workspace_id=workspace_id, release_ids=keys
                )
            prime_assets(context, (asset for _, _, asset in rows))
            by_release: dict[str, list[LoadedBinding]] = defaultdict(list)
            for binding, version, _ in sorted(rows, key=lambda r: _ROLE_ORDER[r[0].role]):
                by_release[binding.release_id].append(LoadedBinding(binding.role, version))
            return [by_release.get(key, []) for key in keys]

        loader = context.loaders[BINDINGS_BY_RELEASE] = DataLoader(load_fn=load)
    return cast(DataLoader[str, list[LoadedBinding]], loader)
