"""GraphQL types of releases and their bindings."""

from __future__ import annotations

from datetime import datetime
from typing import TypeAlias

import strawberry

from server.api.assets.types import AssetVersion
from server.api.context import Context
from server.releases.models import BindingRole as BindingRoleEnum
from server.releases.models import Release as ReleaseRow

strawberry.enum(BindingRoleEnum, name="BindingRole")
BindingRole: TypeAlias = BindingRoleEnum


@strawberry.type
class ReleaseBinding:
    role: BindingRole
    asset_version: AssetVersion


@strawberry.type
class Release:
    id: strawberry.ID
    name: str
    description: str | None
    created_at: datetime

    @strawberry.field(description="Role → asset version, in role order.")
    async def bindings(self, info: strawberry.Info[Context]) -> list[ReleaseBinding]:
        loaded = await info.context.loaders.release_bindings.load(str(self.id))
        return [
            ReleaseBinding(role=b.role, asset_version=AssetVersion.from_row(b.version))
            for b in loaded
        ]

    @classmethod
    def from_row(cls, row: ReleaseRow) -> Release:
        return cls(
            id=strawberry.ID(row.id),
            name=row.name,
            description=row.description,
            created_at=row.created_at,
        )


@strawberry.input
class ReleaseBindingInput:
    role: BindingRole
    asset_version_id: strawberry.ID


@strawberry.input
class CreateReleaseInput:
    name: str
    bindings: list[ReleaseBindingInput]
    description: str | None = None
