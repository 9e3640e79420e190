"""Test data made through the services (the same code the API runs)."""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.auth import Actor
from server.workspaces import service
from server.workspaces.roles import Role


@dataclass
class WorkspaceFixture:
    """A workspace with one member and token per role."""

    id: str
    tokens: dict[Role, str] = field(default_factory=dict)
    member_ids: dict[Role, str] = field(default_factory=dict)

    @property
    def owner(self) -> str:
        return self.tokens[Role.OWNER]


async def make_workspace(
    sessionmaker: async_sessionmaker[AsyncSession], *, name: str = "acme"
) -> WorkspaceFixture:
    async with sessionmaker() as session, session.begin():
        workspace, issued = await service.create_workspace(session=session, name=name)
        fixture = WorkspaceFixture(id=workspace.id)
        fixture.tokens[Role.OWNER] = issued.secret
        fixture.member_ids[Role.OWNER] = issued.token.member_id
        owner = Actor(
            workspace_id=workspace.id,
            member_id=issued.token.member_id,
            token_id=issued.token.id,
            role=Role.OWNER,
            requests_per_minute=600,
        )
        for role in (Role.ADMIN, Role.MEMBER, Role.VIEWER):
            member = await service.add_member(
                session=session, actor=owner, name=role.value.lower(), email=None, role=role
            )
            token = await service.create_token(
                session=session,
                actor=owner,
                name=f"{role.value.lower()}-token",
                member_id=member.id,
            )
            fixture.tokens[role] = token.secret
            fixture.member_ids[role] = member.id
    return fixture
