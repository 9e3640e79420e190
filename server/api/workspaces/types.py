"""GraphQL types of workspaces, members and tokens."""

from __future__ import annotations

from datetime import datetime
from typing import TypeAlias

import strawberry

from server.api.context import Context
from server.api.listing import workspace_connection
from server.api.relay import Connection
from server.api.ship_policy_types import ShipPolicy, ShipPolicyInput
from server.decisions import policy as ship_policy_option
from server.workspaces import service
from server.workspaces.models import AmbiguousOutcomes as AmbiguousOutcomesEnum
from server.workspaces.models import ApiToken as ApiTokenRow
from server.workspaces.models import Member as MemberRow
from server.workspaces.models import Workspace as WorkspaceRow
from server.workspaces.roles import Actor
from server.workspaces.roles import Role as RoleEnum
from server.workspaces.roles import TokenScope as TokenScopeEnum

strawberry.enum(RoleEnum, name="Role")
Role: TypeAlias = RoleEnum
strawberry.enum(
    TokenScopeEnum,
    name="TokenScope",
    description="FULL: what the member's role allows; INGEST: only `POST /v1/traces`.",
)
TokenScope: TypeAlias = TokenScopeEnum
strawberry.enum(
    AmbiguousOutcomesEnum,
    name="AmbiguousOutcomes",
    description="What a crash's admitted calls without a recorded outcome do to their run.",
)
AmbiguousOutcomes: TypeAlias = AmbiguousOutcomesEnum


@strawberry.type
class WorkspaceSettings:
    allow_hosted_runs: bool
    allow_self_sign_off: bool
    max_running_comparisons: int
    requests_per_minute_per_token: int
    ambiguous_outcomes: AmbiguousOutcomes
    default_ship_policy: ShipPolicy = strawberry.field(
        description="The ship policy of comparisons created without one (docs/decision.md)."
    )
    max_calls_per_comparison: int = strawberry.field(
        description="Model calls one comparison may make, judge calls included: a larger "
        "one is refused at create (QUOTA_EXCEEDED) and the preview shows it as a blocker."
    )
    trace_retention_days: int = strawberry.field(
        default=30, description="Ingested traces are kept this many days (30 by default)."
    )


@strawberry.type
class Member:
    id: strawberry.ID
    name: str
    email: str | None
    role: Role
    created_at: datetime

    @classmethod
    def from_row(cls, row: MemberRow) -> Member:
        return cls(
            id=strawberry.ID(row.id),
            name=row.name,
            email=row.email,
            role=row.role,
            created_at=row.created_at,
        )


@strawberry.type
class ApiToken:
    id: strawberry.ID
    name: str
    prefix: str = strawberry.field(description="The first characters, to recognise the token.")
    member_id: strawberry.ID
    created_at: datetime
    revoked_at: datetime | None
    scope: TokenScope = strawberry.field(default=TokenScopeEnum.FULL)

    @classmethod
    def from_row(cls, row: ApiTokenRow) -> ApiToken:
        return cls(
            id=strawberry.ID(row.id),
            name=row.name,
            prefix=row.prefix,
            member_id=strawberry.ID(row.member_id),
            created_at=row.created_at,
            revoked_at=row.revoked_at,
            scope=row.scope,
        )


@strawberry.type
class CreatedToken:
    token: ApiToken
    secret: str = strawberry.field(description="The token itself, shown this once only.")


@strawberry.type
class Workspace:
    id: strawberry.ID
    name: str
    created_at: datetime
    settings: WorkspaceSettings

    @strawberry.field
    async def tokens(
        self, info: strawberry.Info[Context], first: int | None = None, after: str | None = None
    ) -> Connection[ApiToken]:
        return await workspace_connection(
            info.context,
            first=first,
            after=after,
            fetch=service.get_tokens_page,
            convert=ApiToken.from_row,
        )

    @classmethod
    def from_row(cls, row: WorkspaceRow) -> Workspace:
        return cls(
            id=strawberry.ID(row.id),
            name=row.name,
            created_at=row.created_at,
            settings=WorkspaceSettings(
                allow_hosted_runs=row.allow_hosted_runs,
                allow_self_sign_off=row.allow_self_sign_off,
                max_running_comparisons=row.max_running_comparisons,
                requests_per_minute_per_token=row.requests_per_minute_per_token,
                ambiguous_outcomes=row.ambiguous_outcomes,
                default_ship_policy=ShipPolicy.from_document(
                    ship_policy_option.document(
                        ship_policy_option.from_document(row.default_ship_policy)
                    )
                ),
                max_calls_per_comparison=row.max_calls_per_comparison,
                trace_retention_days=row.trace_retention_days,
            ),
        )


@strawberry.type
class Me:
    """The caller: `role` and `tokenId` cost nothing; `member` and `workspace` a read each."""

    role: Role
    token_id: strawberry.ID
    actor: strawberry.Private[Actor]

    @strawberry.field
    async def member(self, info: strawberry.Info[Context]) -> Member:
        async with info.context.read() as session:
            row = await service.get_member(
                session=session,
                workspace_id=self.actor.workspace_id,
                member_id=self.actor.member_id,
            )
        return Member.from_row(row)

    @strawberry.field
    async def workspace(self, info: strawberry.Info[Context]) -> Workspace:
        async with info.context.read() as session:
            row = await service.get(session=session, workspace_id=self.actor.workspace_id)
        return Workspace.from_row(row)


@strawberry.input
class WorkspaceSettingsInput:
    allow_hosted_runs: bool | None = None
    allow_self_sign_off: bool | None = None
    max_running_comparisons: int | None = None
    requests_per_minute_per_token: int | None = None
    ambiguous_outcomes: AmbiguousOutcomes | None = None
    default_ship_policy: ShipPolicyInput | None = strawberry.field(
        default=None, description="Replaces the whole default policy."
    )
    max_calls_per_comparison: int | None = strawberry.field(
        default=None, description="1 to 2,000,000 (ADMIN); 20,000 for a new workspace."
    )
    trace_retention_days: int | None = strawberry.field(
        default=None, description="1 to 3,650 days (ADMIN); 30 for a new workspace."
    )
