"""Thin resolvers for tenancy: read the context, call one service function, convert."""

from __future__ import annotations

import strawberry

from server.api.context import Context
from server.api.listing import workspace_connection
from server.api.relay import Connection
from server.api.workspaces.types import (
    ApiToken,
    CreatedToken,
    Me,
    Member,
    Role,
    TokenScope,
    Workspace,
    WorkspaceSettingsInput,
)
from server.workspaces import service
from server.workspaces.roles import Role as RoleEnum
from server.workspaces.roles import TokenScope as TokenScopeEnum


@strawberry.type
class WorkspaceQuery:
    @strawberry.field
    async def me(self, info: strawberry.Info[Context]) -> Me:
        actor = info.context.require()
        return Me(role=actor.role, token_id=strawberry.ID(actor.token_id), actor=actor)

    @strawberry.field
    async def workspace(self, info: strawberry.Info[Context]) -> Workspace:
        actor = info.context.require()
        async with info.context.read() as session:
            row = await service.get(session=session, workspace_id=actor.workspace_id)
        return Workspace.from_row(row)

    @strawberry.field
    async def members(
        self, info: strawberry.Info[Context], first: int | None = None, after: str | None = None
    ) -> Connection[Member]:
        return await workspace_connection(
            info.context,
            first=first,
            after=after,
            fetch=service.get_members_page,
            convert=Member.from_row,
        )


@strawberry.type
class WorkspaceMutation:
    @strawberry.mutation
    async def add_member(
        self,
        info: strawberry.Info[Context],
        name: str,
        role: Role,
        email: str | None = None,
    ) -> Member:
        actor = info.context.require(RoleEnum.ADMIN)
        async with info.context.write() as session:
            row = await service.add_member(
                session=session, actor=actor, name=name, email=email, role=role
            )
        return Member.from_row(row)

    @strawberry.mutation
    async def set_member_role(
        self,
        info: strawberry.Info[Context],
        member_id: strawberry.ID,
        role: Role,
    ) -> Member:
        actor = info.context.require(RoleEnum.ADMIN)
        async with info.context.write() as session:
            row = await service.set_member_role(
                session=session, actor=actor, member_id=member_id, role=role
            )
        info.context.app.tokens.forget(lambda cached: cached.member_id == str(member_id))
        return Member.from_row(row)

    @strawberry.mutation
    async def remove_member(
        self, info: strawberry.Info[Context], member_id: strawberry.ID
    ) -> Member:
        actor = info.context.require(RoleEnum.ADMIN)
        async with info.context.write() as session:
            row = await service.remove_member(session=session, actor=actor, member_id=member_id)
        info.context.app.tokens.forget(lambda cached: cached.member_id == str(member_id))
        return Member.from_row(row)

    @strawberry.mutation(description="A new API token; its secret is shown in this answer only.")
    async def create_token(
        self,
        info: strawberry.Info[Context],
        name: str,
        member_id: strawberry.ID | None = None,
        scope: TokenScope = TokenScopeEnum.FULL,
    ) -> CreatedToken:
        actor = info.context.require(RoleEnum.ADMIN)
        async with info.context.write() as session:
            issued = await service.create_token(
                session=session, actor=actor, name=name, member_id=member_id, scope=scope
            )
        return CreatedToken(token=ApiToken.from_row(issued.token), secret=issued.secret)

    @strawberry.mutation
    async def revoke_token(self, info: strawberry.Info[Context], id: strawberry.ID) -> ApiToken:
        actor = info.context.require(RoleEnum.ADMIN)
        async with info.context.write() as session:
            row = await service.revoke_token(session=session, actor=actor, token_id=id)
        info.context.app.tokens.forget(lambda cached: cached.token_id == str(id))
        return ApiToken.from_row(row)

    @strawberry.mutation
    async def update_workspace_settings(
        self, info: strawberry.Info[Context], input: WorkspaceSettingsInput
    ) -> Workspace:
        actor = info.context.require(RoleEnum.ADMIN)
        async with info.context.write() as session:
            row = await service.update_settings(
                session=session,
                actor=actor,
                allow_hosted_runs=input.allow_hosted_runs,
                allow_self_sign_off=input.allow_self_sign_off,
                max_running_comparisons=input.max_running_comparisons,
                requests_per_minute_per_token=input.requests_per_minute_per_token,
                ambiguous_outcomes=input.ambiguous_outcomes,
                default_ship_policy=(
                    input.default_ship_policy.to_spec() if input.default_ship_policy else None
                ),
                max_calls_per_comparison=input.max_calls_per_comparison,
                trace_retention_days=input.trace_retention_days,
            )
        info.context.app.tokens.forget(lambda cached: cached.workspace_id == actor.workspace_id)
        return Workspace.from_row(row)
