"""Thin resolvers for releases: read the context, call one service function, convert."""

from __future__ import annotations

import strawberry

from server.api.context import Context
from server.api.listing import workspace_connection
from server.api.relay import Connection
from server.api.releases.types import CreateReleaseInput, Release
from server.releases import service
from server.workspaces.roles import Role


@strawberry.type
class ReleaseQuery:
    @strawberry.field(description="The workspace's releases, newest first.")
    async def releases(
        self, info: strawberry.Info[Context], first: int | None = None, after: str | None = None
    ) -> Connection[Release]:
        return await workspace_connection(
            info.context, first=first, after=after, fetch=service.get_page, convert=Release.from_row
        )


@strawberry.type
class ReleaseMutation:
    @strawberry.mutation
    async def create_release(
        self, info: strawberry.Info[Context], input: CreateReleaseInput
    ) -> Release:
        actor = info.context.require(Role.MEMBER)
        async with info.context.write() as session:
            row = await service.create(
                session=session,
                actor=actor,
                name=input.name,
                description=input.description,
                bindings=[(b.role, str(b.asset_version_id)) for b in input.bindings],
            )
        return Release.from_row(row)
