"""Thin resolvers for assets: read the context, call one service function, convert."""

from __future__ import annotations

import strawberry

from server.api.assets.gate_types import PromptGateSettingsInput
from server.api.assets.types import (
    AddAssetVersionInput,
    Asset,
    AssetKind,
    AssetVersion,
    CreateAssetInput,
)
from server.api.context import Context
from server.api.relay import Connection
from server.assets import service
from server.datasets import versions as dataset_versions
from server.pagination import check_page_size
from server.playground.gate_settings import set_gate_settings
from server.workspaces.roles import Role


@strawberry.type
class AssetQuery:
    @strawberry.field(description="The workspace's assets and the built-ins, newest first.")
    async def assets(
        self,
        info: strawberry.Info[Context],
        kind: AssetKind | None = None,
        first: int | None = None,
        after: str | None = None,
    ) -> Connection[Asset]:
        actor = info.context.require()
        size = check_page_size(first, info.context.settings.max_page_size)
        async with info.context.read() as session:
            page = await service.get_page(
                session=session, workspace_id=actor.workspace_id, kind=kind, first=size, after=after
            )
        info.context.loaders.assets.prime_many({row.id: row for row in page.items})
        return Connection.of(page, Asset.from_row)


@strawberry.type
class AssetMutation:
    @strawberry.mutation
    async def create_asset(self, info: strawberry.Info[Context], input: CreateAssetInput) -> Asset:
        actor = info.context.require(Role.MEMBER)
        async with info.context.write() as session:
            row = await service.create(
                session=session,
                actor=actor,
                kind=input.kind,
                name=input.name,
                description=input.description,
            )
        return Asset.from_row(row)

    @strawberry.mutation(description="Version n+1 of an asset: checked, hashed, sealed for good.")
    async def add_asset_version(
        self, info: strawberry.Info[Context], input: AddAssetVersionInput
    ) -> AssetVersion:
        actor = info.context.require(Role.MEMBER)
        async with info.context.write() as session:
            row = await dataset_versions.add_asset_version(
                session=session, actor=actor, asset_id=input.asset_id, content=input.content
            )
        return AssetVersion.from_row(row)

    @strawberry.mutation(
        description="Set a prompt template's gate settings: the dataset, split, trials, checks "
        "and ship policy the compare form starts from (MEMBER, audited)."
    )
    async def set_prompt_gate_settings(
        self,
        info: strawberry.Info[Context],
        asset_id: strawberry.ID,
        settings: PromptGateSettingsInput,
    ) -> Asset:
        actor = info.context.require(Role.MEMBER)
        async with info.context.write() as session:
            row = await set_gate_settings(
                session=session, actor=actor, asset_id=str(asset_id), spec=settings.to_spec()
            )
        return Asset.from_row(row)
