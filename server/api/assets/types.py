"""GraphQL types of assets and their versions."""

from __future__ import annotations

from datetime import datetime
from typing import TypeAlias, cast

import strawberry
from strawberry.scalars import JSON

from server.api.assets.gate_types import PromptGateSettings
from server.api.context import Context
from server.assets.models import Asset as AssetRow
from server.assets.models import AssetKind as AssetKindEnum
from server.assets.models import AssetVersion as AssetVersionRow
from server.errors import NotFound

strawberry.enum(AssetKindEnum, name="AssetKind")
AssetKind: TypeAlias = AssetKindEnum


@strawberry.type
class AssetVersion:
    id: strawberry.ID
    number: int
    kind: AssetKind
    content_hash: str | None = strawberry.field(
        description="sha256 of the canonical JSON of the content (of the cases for a dataset)."
    )
    content: JSON = strawberry.field(description="The kind's shape; {} for a dataset version.")
    variables: list[str] = strawberry.field(
        description="A prompt template's variables, found by parsing it; [] for other kinds."
    )
    case_count: int
    created_at: datetime
    asset_id: strawberry.Private[str]

    @strawberry.field
    async def asset(self, info: strawberry.Info[Context]) -> Asset:
        row = await info.context.loaders.assets.load(self.asset_id)
        if row is None:
            raise NotFound("asset not found")
        return Asset.from_row(row)

    @classmethod
    def from_row(cls, row: AssetVersionRow) -> AssetVersion:
        return cls(
            id=strawberry.ID(row.id),
            number=row.number,
            kind=row.kind,
            content_hash=row.content_hash,
            content=cast(JSON, row.content),
            variables=list(row.variables),
            case_count=row.case_count,
            created_at=row.created_at,
            asset_id=row.asset_id,
        )


@strawberry.type
class Asset:
    id: strawberry.ID
    kind: AssetKind
    name: str
    description: str | None
    built_in: bool = strawberry.field(description="Shared by every workspace; never changes.")
    created_at: datetime
    gate_settings: PromptGateSettings | None = strawberry.field(
        description="A prompt template's gate settings (`setPromptGateSettings`); null: none."
    )

    @strawberry.field(description="The sealed versions, oldest first.")
    async def versions(self, info: strawberry.Info[Context]) -> list[AssetVersion]:
        rows = await info.context.loaders.sealed_versions.load(str(self.id))
        return [AssetVersion.from_row(row) for row in rows]

    @classmethod
    def from_row(cls, row: AssetRow) -> Asset:
        return cls(
            id=strawberry.ID(row.id),
            kind=row.kind,
            name=row.name,
            description=row.description,
            built_in=row.workspace_id is None,
            created_at=row.created_at,
            gate_settings=(
                PromptGateSettings.from_document(row.gate_settings) if row.gate_settings else None
            ),
        )


@strawberry.input
class CreateAssetInput:
    kind: AssetKind
    name: str
    description: str | None = None


@strawberry.input
class AddAssetVersionInput:
    asset_id: strawberry.ID
    content: JSON = strawberry.field(description="The kind's shape (docs/domain.md), checked.")
