"""Who is calling: a bearer token resolved to its member, role and workspace (an `Actor`)."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from server.errors import Forbidden, Unauthenticated
from server.security import TOKEN_PREFIX, hash_token
from server.workspaces.models import ApiToken, Member, Workspace
from server.workspaces.roles import Actor, TokenScope

MAX_TOKEN_LENGTH = 200


def bearer_token(header_value: str | None) -> str | None:
    """The token of an `Authorization: Bearer <token>` header, if well formed."""
    if not header_value:
        return None
    scheme, _, token = header_value.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()


async def authenticate(
    session: AsyncSession, token: str | None, *, ingest: bool = False
) -> Actor:
    """Resolve a token, or raise UNAUTHENTICATED for a missing, unknown or revoked one; an
    `INGEST` token is FORBIDDEN unless `ingest` (only `POST /v1/traces` passes it)."""
    if not token or not token.startswith(TOKEN_PREFIX) or len(token) > MAX_TOKEN_LENGTH:
        raise Unauthenticated("a valid API token is required")
    row = (
        await session.execute(
            select(
                ApiToken.id,
                Member.id,
                Member.role,
                Workspace.id,
                Workspace.requests_per_minute_per_token,
                ApiToken.scope,
            )
            .join(Member, Member.id == ApiToken.member_id)
            .join(Workspace, Workspace.id == ApiToken.workspace_id)
            .where(
                ApiToken.token_hash == hash_token(token),
                ApiToken.revoked_at.is_(None),
                Member.removed_at.is_(None),
            )
        )
    ).one_or_none()
    if row is None:
        raise Unauthenticated("a valid API token is required")
    token_id, member_id, role, workspace_id, rpm, scope = row
    if scope == TokenScope.INGEST and not ingest:
        raise Forbidden("this token can only write traces (POST /v1/traces)")
    return Actor(
        workspace_id=workspace_id,
        member_id=member_id,
        token_id=token_id,
        role=role,
        requests_per_minute=rpm,
        scope=scope,
    )
