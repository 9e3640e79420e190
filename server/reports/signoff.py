"""`signOff`: the audited decision on a report version (docs/domain.md), every rule in one place.

Rules, in the order they are checked: ADMIN and up; the report exists in the workspace; an
override needs a justification; the latest version only; one sign-off per version; not the
member who started (or created) the comparison unless `allowSelfSignOff`; APPROVE with open
follow-ups needs an override; so does APPROVE of a report whose ship decision is not SHIP
(the rule: `server/decisions/approval.py`; docs/decision.md; the audit event records the
decision overridden). It writes the comparison's verdict (`verdict_rows`), the follow-up
states at signing and an audit event — and never touches a release.
"""

from __future__ import annotations

from typing import Any, Final

from sqlalchemy import func, insert, literal, select
from sqlalchemy.ext.asyncio import AsyncSession

from server.audit import service as audit
from server.comparisons import service as comparison_service
from server.db import utcnow
from server.decisions import approval
from server.errors import Conflict, Forbidden, ValidationFailed
from server.ids import new_id
from server.reports import followups, verdict_rows
from server.reports import service as report_service
from server.reports.models import Decision, FollowUp, FollowUpState, SignOff, SignOffFollowUp
from server.verdicts import service as verdict_service
from server.verdicts.models import SignOffVerdict
from server.workspaces.models import Workspace
from server.workspaces.roles import Actor, Role

JUSTIFICATION_MAX: Final = 2000
OPEN_ITEMS_SHOWN: Final = 100

VERDICTS: Final = {
    Decision.APPROVE: SignOffVerdict.PROMOTE,
    Decision.HOLD: SignOffVerdict.HOLD,
    Decision.REQUEST_CHANGES: SignOffVerdict.INCONCLUSIVE,
}


def _justification(override: bool, text: str | None) -> str | None:
    cleaned = (text or "").strip()
    if not override:
        if cleaned:
            raise ValidationFailed(
                "`overrideJustification` is only for `override: true`",
                field="overrideJustification",
            )
        return None
    if not 1 <= len(cleaned) <= JUSTIFICATION_MAX:
        raise ValidationFailed(
            f"an override needs `overrideJustification`: 1 to {JUSTIFICATION_MAX:,} characters",
            field="overrideJustification",
        )
    return cleaned


async def _open_count(session: AsyncSession, comparison_id: str) -> tuple[int, int]:
    counts = {
        str(state): int(count)
        for state, count in await session.execute(
            select(FollowUp.state, func.count())
            .where(FollowUp.comparison_id == comparison_id)
            .group_by(FollowUp.state)
        )
    }
    return counts.get(FollowUpState.OPEN, 0), counts.get(FollowUpState.RESOLVED, 0)


async def sign_off(
    *,
    session: AsyncSession,
    actor: Actor,
    report_id: str,
    decision: Decision,
    override: bool,
    override_justification: str | None,
) -> SignOff:
    actor.require(Role.ADMIN)
    report = await report_service.get(
        session=session, workspace_id=actor.workspace_id, report_id=report_id
    )
    justification = _justification(override, override_justification)
    comparison = await comparison_service.get_locked(
        session, actor.workspace_id, report.comparison_id
    )
    latest = await report_service.latest_version(session, comparison.id)
    if report.version != latest:
        raise Conflict(
            f"only the latest version can be signed off: this is version {report.version} "
            f"of {latest}",
            reason="NOT_LATEST_VERSION",
            latestVersion=latest,
        )
    existing = await session.scalar(select(SignOff.id).where(SignOff.report_id == report.id))
    if existing is not None:
        raise Conflict("this report version is already signed off", reason="ALREADY_SIGNED")
    workspace = await session.get(Workspace, actor.workspace_id)
    own = {comparison.started_by_member_id, comparison.created_by_member_id} - {None}
    if actor.member_id in own and not (workspace and workspace.allow_self_sign_off):
        raise Forbidden(
            "the member who started this comparison cannot sign it off; another ADMIN or "
            "OWNER can, or an admin can turn on `allowSelfSignOff`",
            reason="SELF_SIGN_OFF",
        )
    open_count, resolved_count = await _open_count(session, comparison.id)
    if decision == Decision.APPROVE and open_count and not override:
        items = await followups.open_items(session, comparison.id, OPEN_ITEMS_SHOWN)
        raise Conflict(
            f"{open_count} follow-up(s) are open: resolve them, or approve with `override: "
            "true` and a justification",
            reason="OPEN_FOLLOW_UPS",
            openCount=open_count,
            openItems=[
                {
                    "id": item.id,
                    "baselineCohortIndex": item.baseline_cohort_index,
                    "datasetItemId": item.dataset_item_id,
                }
                for item in items
            ],
        )
    overridden = None
    if decision == Decision.APPROVE:
        shipped = await _ship_decision(session, comparison.id)
        overridden = approval.approval_overrides(shipped, override=override)
    verdict = VERDICTS[decision]
    row = SignOff(
        id=new_id("so"),
        workspace_id=actor.workspace_id,
        comparison_id=comparison.id,
        report_id=report.id,
        decision=decision,
        verdict=verdict.value,
        override=override,
        override_justification=justification,
        open_follow_ups=open_count,
        resolved_follow_ups=resolved_count,
        signer_member_id=actor.member_id,
        signer_role=actor.role.value,
        created_at=utcnow(),
    )
    session.add(row)
    await session.flush()
    await session.execute(
        insert(SignOffFollowUp).from_select(
            ["sign_off_id", "follow_up_id", "state", "resolved_at"],
            select(literal(row.id), FollowUp.id, FollowUp.state, FollowUp.resolved_at).where(
                FollowUp.comparison_id == comparison.id
            ),
        )
    )
    await verdict_rows.set_verdict(session=session, comparison_id=comparison.id, verdict=verdict)
    await audit.record(
        session=session,
        actor=actor,
        action="report.sign_off",
        target_type="report",
        target_id=report.id,
        details={
            "comparisonId": comparison.id,
            "version": report.version,
            "decision": decision.value,
            "verdict": verdict.value,
            "override": override,
            "overrideJustification": justification,
            "openFollowUps": open_count,
            "resolvedFollowUps": resolved_count,
            "overriddenDecision": overridden,
        },
    )
    return row


async def _ship_decision(session: AsyncSession, comparison_id: str) -> dict[str, Any]:
    """The finalized comparison's ship decision, as `extensions` and the audit show it:
    {outcome, reason, sentence, casesNeeded} (empty when it has none)."""
    scorecard = await verdict_service.get_document(session=session, comparison_id=comparison_id)
    return approval.shown((scorecard or {}).get("decision"))
