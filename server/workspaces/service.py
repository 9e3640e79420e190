"""Workspaces, members, tokens and settings; every change is audited."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from server.audit import service as audit
from server.db import utcnow
from server.decisions import policy as ship_policy_option
from server.decisions.policy import ShipPolicySpec
from server.errors import Conflict, NotFound, ValidationFailed
from server.ids import new_id
from server.pagination import Page, keyset_page
from server.redaction import check_patterns
from server.security import display_prefix, generate_token, hash_token
from server.validation import check_range, clean_name
from server.workspaces.models import (
    CALL_LIMIT_MOST,
    TRACE_RETENTION_MOST,
    AmbiguousOutcomes,
    ApiToken,
    Member,
    Workspace,
)
from server.workspaces.roles import PRIVILEGED_ROLES, Actor, Role, TokenScope
from server.workspaces.scoped import get_in_workspace, page_in_workspace


@dataclass(frozen=True, slots=True)
class IssuedToken:
    """A token row and its plaintext, which is shown once and never stored."""

    token: ApiToken
    secret: str


async def create_workspace(
    *, session: AsyncSession, name: str, owner_name: str = "owner"
) -> tuple[Workspace, IssuedToken]:
    """A workspace with one OWNER member and that owner's first token."""
    workspace = Workspace(id=new_id("ws"), name=clean_name(name))
    session.add(workspace)
    await session.flush()
    owner = Member(
        id=new_id("mem"), workspace_id=workspace.id, name=clean_name(owner_name), role=Role.OWNER
    )
    session.add(owner)
    await session.flush()
    issued = _issue_token(workspace_id=workspace.id, member_id=owner.id, name="owner")
    session.add(issued.token)
    await audit.record(
        session=session,
        workspace_id=workspace.id,
        actor=None,
        action="workspace.create",
        target_type="workspace",
        target_id=workspace.id,
        details={"name": workspace.name, "ownerId": owner.id},
    )
    return workspace, issued


async def get(*, session: AsyncSession, workspace_id: str) -> Workspace:
    workspace = await session.get(Workspace, workspace_id)
    if workspace is None:
        raise NotFound("workspace not found")
    return workspace


async def get_member(*, session: AsyncSession, workspace_id: str, member_id: str) -> Member:
    member = await session.get(Member, member_id)
    if member is None or member.workspace_id != workspace_id or member.removed_at is not None:
        raise NotFound("member not found")
    return member


async def get_members_page(
    *, session: AsyncSession, workspace_id: str, first: int, after: str | None
) -> Page[Member]:
    stmt = select(Member).where(Member.workspace_id == workspace_id, Member.removed_at.is_(None))
    return await keyset_page(session, stmt, key=Member.id, first=first, after=after)


async def get_tokens_page(
    *, session: AsyncSession, workspace_id: str, first: int, after: str | None
) -> Page[ApiToken]:
    return await page_in_workspace(session, ApiToken, workspace_id, first=first, after=after)


def _require_owner_for(actor: Actor, *roles: Role) -> None:
    """Granting, changing or removing ADMIN/OWNER needs an OWNER (docs/domain.md)."""
    if any(role in PRIVILEGED_ROLES for role in roles):
        actor.require(Role.OWNER)


async def add_member(
    *, session: AsyncSession, actor: Actor, name: str, email: str | None, role: Role
) -> Member:
    actor.require(Role.ADMIN)
    _require_owner_for(actor, role)
    if email is not None and ("@" not in email or len(email) > 320):
        raise ValidationFailed("`email` is not an email address", field="email")
    member = Member(
        id=new_id("mem"),
        workspace_id=actor.workspace_id,
        name=clean_name(name),
        email=email,
        role=role,
    )
    session.add(member)
    await session.flush()
    await _audit(session, actor, "member.add", member.id, {"role": role.value, "name": member.name})
    return member


async def _count_owners(session: AsyncSession, workspace_id: str) -> int:
    return (
        await session.execute(
            select(func.count())
            .select_from(Member)
            .where(
                Member.workspace_id == workspace_id,
                Member.role == Role.OWNER,
                Member.removed_at.is_(None),
            )
        )
    ).scalar_one()


async def set_member_role(
    *, session: AsyncSession, actor: Actor, member_id: str, role: Role
) -> Member:
    actor.require(Role.ADMIN)
    member = await get_member(session=session, workspace_id=actor.workspace_id, member_id=member_id)
    _require_owner_for(actor, member.role, role)
    if member.role == Role.OWNER and role != Role.OWNER:
        if await _count_owners(session, actor.workspace_id) <= 1:
            raise Conflict("the workspace must keep at least one OWNER")
    previous = member.role
    member.role = role
    await _audit(
        session, actor, "member.set_role", member.id, {"from": previous.value, "to": role.value}
    )
    return member


async def remove_member(*, session: AsyncSession, actor: Actor, member_id: str) -> Member:
    actor.require(Role.ADMIN)
    member = await get_member(session=session, workspace_id=actor.workspace_id, member_id=member_id)
    _require_owner_for(actor, member.role)
    if member.role == Role.OWNER and await _count_owners(session, actor.workspace_id) <= 1:
        raise Conflict("the workspace must keep at least one OWNER")
    member.removed_at = utcnow()
    await _audit(session, actor, "member.remove", member.id, {"role": member.role.value})
    return member


def _issue_token(
    *, workspace_id: str, member_id: str, name: str, scope: TokenScope = TokenScope.FULL
) -> IssuedToken:
    secret = generate_token()
    token = ApiToken(
        id=new_id("tok"),
        workspace_id=workspace_id,
        member_id=member_id,
        name=name,
        prefix=display_prefix(secret),
        token_hash=hash_token(secret),
        scope=scope,
    )
    return IssuedToken(token=token, secret=secret)


async def create_token(
    *,
    session: AsyncSession,
    actor: Actor,
    name: str,
    member_id: str | None,
    scope: TokenScope = TokenScope.FULL,
) -> IssuedToken:
    """A new token for the caller or another member; the plaintext is returned once."""
    actor.require(Role.ADMIN)
    member_id = member_id or actor.member_id
    member = await get_member(session=session, workspace_id=actor.workspace_id, member_id=member_id)
    if member.id != actor.member_id:
        _require_owner_for(actor, member.role)
    issued = _issue_token(
        workspace_id=actor.workspace_id, member_id=member.id, name=clean_name(name), scope=scope
    )
    session.add(issued.token)
    await session.flush()
    await _audit(
        session,
        actor,
        "token.create",
        issued.token.id,
        {"memberId": member.id, "name": name, "scope": scope.value},
    )
    return issued


async def revoke_token(*, session: AsyncSession, actor: Actor, token_id: str) -> ApiToken:
    actor.require(Role.ADMIN)
    token = await get_in_workspace(session, ApiToken, token_id, actor.workspace_id, "token")
    if token.member_id != actor.member_id:
        owner = await session.get(Member, token.member_id)
        if owner is not None:
            _require_owner_for(actor, owner.role)
    if token.revoked_at is not None:
        raise Conflict("the token is already revoked")
    token.revoked_at = utcnow()
    await _audit(session, actor, "token.revoke", token.id, {"memberId": token.member_id})
    return token


async def update_settings(
    *,
    session: AsyncSession,
    actor: Actor,
    allow_hosted_runs: bool | None = None,
    allow_self_sign_off: bool | None = None,
    max_running_comparisons: int | None = None,
    requests_per_minute_per_token: int | None = None,
    ambiguous_outcomes: AmbiguousOutcomes | None = None,
    default_ship_policy: ShipPolicySpec | None = None,
    max_calls_per_comparison: int | None = None,
    trace_retention_days: int | None = None,
    redaction_patterns: list[str] | None = None,
) -> Workspace:
    actor.require(Role.ADMIN)
    if default_ship_policy is not None:
        ship_policy_option.check(default_ship_policy, where="defaultShipPolicy")
    workspace = await get(session=session, workspace_id=actor.workspace_id)
    changes: dict[str, object] = {}
    if allow_hosted_runs is not None:
        workspace.allow_hosted_runs = changes["allowHostedRuns"] = allow_hosted_runs
    if allow_self_sign_off is not None:
        workspace.allow_self_sign_off = changes["allowSelfSignOff"] = allow_self_sign_off
    if max_running_comparisons is not None:
        workspace.max_running_comparisons = changes["maxRunningComparisons"] = check_range(
            max_running_comparisons, field="maxRunningComparisons", low=1, high=100
        )
    if requests_per_minute_per_token is not None:
        workspace.requests_per_minute_per_token = changes["requestsPerMinutePerToken"] = (
            check_range(
                requests_per_minute_per_token,
                field="requestsPerMinutePerToken",
                low=1,
                high=100_000,
            )
        )
    if ambiguous_outcomes is not None:
        workspace.ambiguous_outcomes = ambiguous_outcomes
        changes["ambiguousOutcomes"] = ambiguous_outcomes.value
    if default_ship_policy is not None:
        workspace.default_ship_policy = ship_policy_option.document(default_ship_policy)
        changes["defaultShipPolicy"] = workspace.default_ship_policy
    if max_calls_per_comparison is not None:
        workspace.max_calls_per_comparison = changes["maxCallsPerComparison"] = check_range(
            max_calls_per_comparison, field="maxCallsPerComparison", low=1, high=CALL_LIMIT_MOST
        )
    if trace_retention_days is not None:
        workspace.trace_retention_days = changes["traceRetentionDays"] = check_range(
            trace_retention_days, field="traceRetentionDays", low=1, high=TRACE_RETENTION_MOST
        )
    if redaction_patterns is not None:
        check_patterns(redaction_patterns, field="redactionPatterns")
        workspace.redaction_patterns = changes["redactionPatterns"] = list(redaction_patterns)
    await _audit(session, actor, "workspace.update_settings", workspace.id, changes, "workspace")
    return workspace


async def _audit(
    session: AsyncSession,
    actor: Actor,
    action: str,
    target_id: str,
    details: dict[str, object],
    target_type: str | None = None,
) -> None:
    await audit.record(
        session=session,
        actor=actor,
        action=action,
        target_type=target_type or action.split(".", 1)[0],
        target_id=target_id,
        details=dict(details),
    )
