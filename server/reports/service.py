"""Reports: generating frozen versions, reading them, and signed links to their page."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from sqlalchemy import ColumnElement, func, select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import InstrumentedAttribute

from server.audit import service as audit
from server.audit.models import AuditEvent
from server.comparisons import service as comparison_service
from server.comparisons.models import ComparisonCohort
from server.db import utcnow
from server.errors import Conflict, ValidationFailed
from server.ids import new_id
from server.reports import document, followups, links
from server.reports.models import Report, SignOff
from server.verdicts import service as verdict_service
from server.workspaces.roles import Actor, Role
from server.workspaces.scoped import get_in_workspace

RECENT_LINKS = 10
"""How many of a member's latest links to a report are looked at for one to reuse."""


async def generate(*, session: AsyncSession, actor: Actor, comparison_id: str) -> Report:
    """`generateReport`: freeze version n+1 of a FINALIZED comparison (MEMBER and up). The
    first version also makes the comparison's follow-ups."""
    actor.require(Role.MEMBER)
    comparison = await comparison_service.get_locked(session, actor.workspace_id, comparison_id)
    scorecard = await verdict_service.get_document(session=session, comparison_id=comparison.id)
    if scorecard is None:
        raise Conflict(
            "only a FINALIZED comparison has a report: wait for its verdict (or retry "
            "`finalizeComparison`)",
            reason="NOT_FINALIZED",
        )
    latest = await session.scalar(
        select(func.max(Report.version)).where(Report.comparison_id == comparison.id)
    )
    version = int(latest or 0) + 1
    created = 0
    if latest is None:
        baselines = await session.scalars(
            select(ComparisonCohort.cohort_index).where(
                ComparisonCohort.comparison_id == comparison.id, ComparisonCohort.cohort_index > 0
            )
        )
        created = await followups.create_all(
            session,
            workspace_id=comparison.workspace_id,
            comparison_id=comparison.id,
            baselines=list(baselines),
        )
    now = utcnow()
    report_id = new_id("rep")
    doc = await document.build(
        session,
        report_id=report_id,
        version=version,
        comparison=comparison,
        scorecard=scorecard,
        generated_by={"memberId": actor.member_id, "role": actor.role.value},
        now=now,
    )
    text = document.serialize(doc)
    report = Report(
        id=report_id,
        workspace_id=comparison.workspace_id,
        comparison_id=comparison.id,
        version=version,
        document=text,
        document_sha256=document.sha256(text),
        created_by_member_id=actor.member_id,
        created_at=now,
    )
    session.add(report)
    await session.flush()
    await audit.record(
        session=session,
        actor=actor,
        action="report.generate",
        target_type="report",
        target_id=report.id,
        details={
            "comparisonId": comparison.id,
            "version": version,
            "documentSha256": report.document_sha256,
            "followUpsCreated": created,
        },
    )
    return report


async def get(*, session: AsyncSession, workspace_id: str, report_id: str) -> Report:
    """The workspace's report; another workspace's or an unknown id is NOT_FOUND."""
    return await get_in_workspace(session, Report, report_id, workspace_id, "report")


async def get_for_comparisons(
    *, session: AsyncSession, comparison_ids: Sequence[str]
) -> dict[str, list[Report]]:
    """Each comparison's versions, oldest first (callers have scoped the ids)."""
    found: dict[str, list[Report]] = {c: [] for c in comparison_ids}
    for row in await session.scalars(
        select(Report)
        .where(Report.comparison_id.in_(comparison_ids))
        .order_by(Report.comparison_id, Report.version)
    ):
        found[row.comparison_id].append(row)
    return found


def exists_for(comparison_id: InstrumentedAttribute[str]) -> ColumnElement[bool]:
    """Whether the comparison whose id is `comparison_id` (a correlated column) has a
    report version."""
    return select(Report.id).where(Report.comparison_id == comparison_id).exists()


async def latest_version(session: AsyncSession, comparison_id: str) -> int:
    value = await session.scalar(
        select(func.max(Report.version)).where(Report.comparison_id == comparison_id)
    )
    return int(value or 0)


async def get_sign_offs(*, session: AsyncSession, report_ids: Sequence[str]) -> dict[str, SignOff]:
    rows = await session.scalars(select(SignOff).where(SignOff.report_id.in_(report_ids)))
    return {row.report_id: row for row in rows}


async def link(
    *,
    session: AsyncSession,
    actor: Actor,
    secret: str,
    report_id: str,
    expires_in_hours: int,
    now: datetime | None = None,
) -> links.SignedLink:
    """`reportLink`: a signed page link (MEMBER and up), valid 1 to 720 hours.

    The same member asking again for a link of the same length gets the link made last while
    more than half its time is left: the same URL, and no new `report.link` event, so a page
    that shows the link on every view (the portal's) mints one now and then, not per view.
    """
    actor.require(Role.MEMBER)
    if not 1 <= expires_in_hours <= links.MAX_HOURS:
        raise ValidationFailed(
            f"`expiresInHours` must be 1 to {links.MAX_HOURS}", field="expiresInHours"
        )
    report = await get(session=session, workspace_id=actor.workspace_id, report_id=report_id)
    now = now or utcnow()
    reusable = await _reusable_link_expiry(session, actor, report.id, expires_in_hours, now)
    if reusable is not None:
        return links.sign_until(
            secret=secret,
            workspace_id=report.workspace_id,
            report_id=report.id,
            expires_at=reusable,
        )
    signed = links.sign(
        secret=secret,
        workspace_id=report.workspace_id,
        report_id=report.id,
        hours=expires_in_hours,
        now=now,
    )
    await audit.record(
        session=session,
        actor=actor,
        action="report.link",
        target_type="report",
        target_id=report.id,
        details={"expiresAt": signed.expires_at.isoformat(), "hours": expires_in_hours},
    )
    return signed


async def _reusable_link_expiry(
    session: AsyncSession, actor: Actor, report_id: str, hours: int, now: datetime
) -> datetime | None:
    """The expiry of this member's last link of `hours` to the report (among their last few),
    if more than half of them are left; else None (a new link is made and audited)."""
    recent = await session.scalars(
        select(AuditEvent.details)
        .where(
            AuditEvent.workspace_id == actor.workspace_id,
            AuditEvent.action == "report.link",
            AuditEvent.target_id == report_id,
            AuditEvent.actor_member_id == actor.member_id,
        )
        .order_by(AuditEvent.id.desc())
        .limit(RECENT_LINKS)
    )
    details = next((d for d in recent if d and d.get("hours") == hours), None)
    if details is None:
        return None
    try:
        expires_at = datetime.fromisoformat(str(details["expiresAt"]))
    except (KeyError, ValueError):
        return None
    return expires_at if expires_at - now > timedelta(hours=hours) / 2 else None
