"""The one writer of the audit log, used by every state-changing mutation."""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Protocol

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from server.audit.models import AuditEvent
from server.pagination import Page, keyset_page


class Acting(Protocol):
    """Who an event names: what audit needs of an `Actor` (`server.workspaces.roles`). Audit
    sits below every aggregate, workspaces included (their changes are audited too)."""

    @property
    def workspace_id(self) -> str: ...

    @property
    def member_id(self) -> str: ...

    @property
    def token_id(self) -> str: ...

    @property
    def role(self) -> StrEnum: ...


SECRET_KEYS = frozenset({"token", "secret", "apiKey", "api_key", "password", "key"})


def _without_secrets(details: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in details.items() if k not in SECRET_KEYS}


async def record(
    *,
    session: AsyncSession,
    actor: Acting | None,
    action: str,
    target_type: str,
    target_id: str | None,
    details: dict[str, Any] | None = None,
    workspace_id: str | None = None,
) -> AuditEvent:
    """Append one event in the caller's transaction, in the actor's workspace; `actor=None`
    (the command line) names the workspace instead."""
    workspace_id = workspace_id or (actor.workspace_id if actor else None)
    if workspace_id is None:
        raise ValueError("an audit event needs a workspace")
    event = AuditEvent(
        workspace_id=workspace_id,
        actor_member_id=actor.member_id if actor else None,
        actor_token_id=actor.token_id if actor else None,
        actor_role=actor.role.value if actor else None,
        action=action,
        target_type=target_type,
        target_id=target_id,
        details=_without_secrets(details or {}),
    )
    session.add(event)
    await session.flush()
    return event


async def get_page(
    *,
    session: AsyncSession,
    workspace_id: str,
    first: int,
    after: str | None,
    action: str | None = None,
    actor_id: str | None = None,
    target_id: str | None = None,
) -> Page[AuditEvent]:
    """The workspace's events, newest first, optionally filtered."""
    stmt = select(AuditEvent).where(AuditEvent.workspace_id == workspace_id)
    if action is not None:
        stmt = stmt.where(AuditEvent.action == action)
    if actor_id is not None:
        stmt = stmt.where(AuditEvent.actor_member_id == actor_id)
    if target_id is not None:
        stmt = stmt.where(AuditEvent.target_id == target_id)
    return await keyset_page(
        session, stmt, key=AuditEvent.id, first=first, after=after, descending=True
    )
