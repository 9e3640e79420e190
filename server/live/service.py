"""Live comparisons' lifecycle (docs/live.md): create, read, list, cancel.

A live comparison watches one service's traces of a candidate release and its baselines
from the moment it is created: traces that started before are never counted (registered
before the data, like a comparison's ship policy). Grading is `server.live.grading`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any, Final

from sqlalchemy import bindparam, select
from sqlalchemy.ext.asyncio import AsyncSession

from server.audit import service as audit
from server.checks.spec import CheckKind, validate_check_specs
from server.comparisons.resolution import resolve_judge
from server.db import utcnow
from server.decisions import policy as ship_policy_option
from server.errors import Conflict, NotFound, ValidationFailed
from server.ids import new_id
from server.live import feedback_checks
from server.live.models import TERMINAL, LiveComparison, LiveStatus
from server.pagination import Page, keyset_page
from server.workspaces.roles import Actor

MAX_BASELINES: Final = 7
MAX_DAYS: Final = 90
NAME_LENGTH: Final = 200
DEFAULT_CHECKS: Final = ({"kind": CheckKind.CONTAINS.value},)


@dataclass(frozen=True, slots=True)
class LiveSpec:
    """`createLiveComparison`'s input, as the service takes it."""

    service: str
    candidate_release: str
    baseline_releases: Sequence[str]
    label: str | None = None
    checks: Any = None
    judge_sample_rate: float = 0.1
    judge_daily_cap_cents: float | None = None
    ship_policy: ship_policy_option.ShipPolicySpec = field(
        default_factory=ship_policy_option.ShipPolicySpec
    )
    max_days: int = 14


def _name(value: str, where: str) -> str:
    text = value.strip()
    if not text or len(text) > NAME_LENGTH:
        raise ValidationFailed(f"`{where}` must be 1 to {NAME_LENGTH} characters", field=where)
    return text


async def _checks(session: AsyncSession, workspace_id: str, raw: Any) -> list[dict[str, Any]]:
    """The check specs, each judge's rubric and model config resolved in the workspace."""
    specs = validate_check_specs(
        list(DEFAULT_CHECKS) if raw is None else raw,
        also={feedback_checks.KIND: feedback_checks.validate},
    )
    for index, spec in enumerate(specs):
        if spec["kind"] == CheckKind.JUDGE_RUBRIC.value:
            await resolve_judge(
                session=session,
                workspace_id=workspace_id,
                rubric_id=spec["rubricVersionId"],
                config_id=spec["judgeModelConfigVersionId"],
                where=f"checks[{index}]",
            )
    return specs


def _validate(spec: LiveSpec) -> tuple[str, str, list[str]]:
    service = _name(spec.service, "service")
    candidate = _name(spec.candidate_release, "candidateRelease")
    baselines = [_name(b, f"baselineReleases[{i}]") for i, b in enumerate(spec.baseline_releases)]
    if not 1 <= len(baselines) <= MAX_BASELINES:
        raise ValidationFailed(
            f"`baselineReleases` takes 1 to {MAX_BASELINES} releases", field="baselineReleases"
        )
    if candidate in baselines or len(set(baselines)) != len(baselines):
        raise ValidationFailed(
            "`baselineReleases` must differ from each other and from the candidate",
            field="baselineReleases",
        )
    if not (0.0 <= spec.judge_sample_rate <= 1.0):
        raise ValidationFailed("`judgeSampleRate` must lie in [0, 1]", field="judgeSampleRate")
    cap = spec.judge_daily_cap_cents
    if cap is not None and (not math.isfinite(cap) or cap < 0):
        raise ValidationFailed("`judgeDailyCapCents` must be 0 or more", field="judgeDailyCapCents")
    if not 1 <= spec.max_days <= MAX_DAYS:
        raise ValidationFailed(f"`maxDays` must be 1 to {MAX_DAYS}", field="maxDays")
    ship_policy_option.check(spec.ship_policy)
    return service, candidate, baselines


async def create(*, session: AsyncSession, actor: Actor, spec: LiveSpec) -> LiveComparison:
    """A RUNNING live comparison, counting traces that start from now (MEMBER; audited)."""
    service, candidate, baselines = _validate(spec)
    checks = await _checks(session, actor.workspace_id, spec.checks)
    now = utcnow()
    cap = spec.judge_daily_cap_cents
    row = LiveComparison(
        id=new_id("lvc"),
        workspace_id=actor.workspace_id,
        label=spec.label.strip()[:NAME_LENGTH] if spec.label and spec.label.strip() else None,
        service=service,
        candidate_release=candidate,
        baseline_releases=baselines,
        checks=checks,
        judge_sample_rate=spec.judge_sample_rate,
        judge_daily_cap_micros=None if cap is None else round(cap * 10_000),
        ship_policy=ship_policy_option.document(spec.ship_policy, now),
        max_days=spec.max_days,
        status=LiveStatus.RUNNING.value,
        seq=1,
        graded=0,
        arms=[_empty_arm(r) for r in (candidate, *baselines)],
        decision=None,
        sequence=[],
        guardrail_alerted=False,
        created_by_member_id=actor.member_id,
        started_at=now,
        updated_at=now,
    )
    session.add(row)
    await session.flush()
    await audit.record(
        session=session,
        actor=actor,
        action="live_comparison.create",
        target_type="live_comparison",
        target_id=row.id,
        details={"service": service, "candidate": candidate, "baselines": baselines},
    )
    return row


def _empty_arm(release: str) -> dict[str, Any]:
    return {
        "release": release,
        "traces": 0,
        "graded": 0,
        "passRate": None,
        "costPerTrace": None,
        "latencyP95Ms": None,
        "errorRate": None,
    }


async def get(*, session: AsyncSession, workspace_id: str, live_id: str) -> LiveComparison:
    """The live comparison; NOT_FOUND outside the caller's workspace."""
    row = await session.get(LiveComparison, live_id)
    if row is None or row.workspace_id != workspace_id:
        raise NotFound("live comparison not found")
    return row


async def get_page(
    *,
    session: AsyncSession,
    workspace_id: str,
    first: int,
    after: str | None,
    status: str | None = None,
) -> Page[LiveComparison]:
    """The workspace's live comparisons, newest first."""
    stmt = select(LiveComparison).where(LiveComparison.workspace_id == workspace_id)
    if status is not None:
        stmt = stmt.where(LiveComparison.status == status)
    return await keyset_page(
        session, stmt, key=LiveComparison.id, first=first, after=after, descending=True
    )


_WATCHING: Final = (
    select(LiveComparison.id)
    .where(
        LiveComparison.workspace_id == bindparam("workspace_id"),
        LiveComparison.status == LiveStatus.RUNNING.value,
    )
    .limit(1)
)
"""Built once: it runs in every export's storing transaction."""


async def is_watching(*, session: AsyncSession, workspace_id: str) -> bool:
    """Whether any live comparison of the workspace is RUNNING (ingest then queues grading)."""
    return await session.scalar(_WATCHING, {"workspace_id": workspace_id}) is not None


async def running(*, session: AsyncSession, workspace_id: str) -> list[LiveComparison]:
    """The workspace's RUNNING live comparisons (expired ones are closed on the way)."""
    rows = list(
        await session.scalars(
            select(LiveComparison).where(
                LiveComparison.workspace_id == workspace_id,
                LiveComparison.status == LiveStatus.RUNNING.value,
            )
        )
    )
    now = utcnow()
    for row in rows:
        if now - row.started_at > timedelta(days=row.max_days):
            row.status, row.ended_at, row.seq = LiveStatus.EXPIRED.value, now, row.seq + 1
    return [r for r in rows if r.status == LiveStatus.RUNNING.value]


async def cancel(*, session: AsyncSession, actor: Actor, live_id: str) -> LiveComparison:
    """CANCELLED: no more traces graded; its decision so far stays (MEMBER; audited)."""
    row = await get(session=session, workspace_id=actor.workspace_id, live_id=live_id)
    await session.refresh(row, with_for_update=True)
    if row.status in TERMINAL:
        raise Conflict(
            f"the live comparison is already {row.status.lower()}", reason="ALREADY_ENDED"
        )
    now = utcnow()
    row.status, row.ended_at, row.updated_at, row.seq = (
        LiveStatus.CANCELLED.value,
        now,
        now,
        row.seq + 1,
    )
    await audit.record(
        session=session,
        actor=actor,
        action="live_comparison.cancel",
        target_type="live_comparison",
        target_id=row.id,
    )
    return row
