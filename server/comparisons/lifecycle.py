"""Starting and cancelling comparisons: state changes under row locks, then a progress
snapshot published after the commit (the row stays the truth) and, on start, the dispatch
job queued by name.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.assets.models import AssetVersion
from server.checks import CheckKind
from server.comparisons import counters, service
from server.comparisons import hooks as comparison_hooks
from server.comparisons import preview as planning
from server.comparisons import progress as progress_events
from server.comparisons.models import (
    TERMINAL_STATUSES,
    Comparison,
    ComparisonCohort,
    ComparisonStatus,
)
from server.comparisons.progress import Progress
from server.connections.models import ModelConnection
from server.db import utcnow
from server.errors import Conflict, QuotaExceeded
from server.runtime.interfaces import EventBus, JobQueue
from server.workspaces.models import Workspace
from server.workspaces.roles import Actor, Role

logger = logging.getLogger("shipwise.comparisons")

FOREGROUND_POLL_SECONDS = 0.2
FOREGROUND_TIMEOUT_SECONDS = 600.0


def start_job_id(comparison_id: str) -> str:
    """The first dispatch's job id, as `server.dispatch.joins.dispatch_job_id` spells it."""
    # Spelled out here: server/ does not import jobs/ (the job is queued by name).
    return f"dispatch:{comparison_id}:start"


async def connections_of(session: AsyncSession, comparison: Comparison) -> list[ModelConnection]:
    """Every connection the comparison calls: its cohorts' and its judges'."""
    cohorts = await session.scalars(
        select(ComparisonCohort).where(ComparisonCohort.comparison_id == comparison.id)
    )
    config_ids = {c.bindings["model_config"] for c in cohorts}
    for spec in comparison.checks:
        if spec.get("kind") == CheckKind.JUDGE_RUBRIC.value:
            config_ids.add(spec["judgeModelConfigVersionId"])
    if comparison.pairwise:
        config_ids.add(comparison.pairwise["judgeModelConfigVersionId"])
    configs = await session.scalars(select(AssetVersion).where(AssetVersion.id.in_(config_ids)))
    connection_ids = {str(config.content["connectionId"]) for config in configs}
    rows = await session.scalars(
        select(ModelConnection)
        .where(ModelConnection.id.in_(connection_ids))
        .order_by(ModelConnection.id)
    )
    return list(rows)


async def _begin_start(session: AsyncSession, actor: Actor, comparison_id: str) -> Progress:
    """SETUP → RUNNING under the workspace's row lock, so two starts count each other."""
    actor.require(Role.MEMBER)
    workspace = (
        await session.execute(
            select(Workspace).where(Workspace.id == actor.workspace_id).with_for_update()
        )
    ).scalar_one()
    comparison = await service.get_locked(session, actor.workspace_id, comparison_id)
    if comparison.status != ComparisonStatus.SETUP:
        raise Conflict(
            f"only a SETUP comparison can start; this one is {comparison.status.value}",
            reason="NOT_SETUP",
        )
    hosted = planning.hosted_runs_note(workspace)
    if hosted is not None:
        raise Conflict(hosted.message, reason=hosted.code)
    not_ready = planning.connection_notes(await connections_of(session, comparison))
    if not_ready:
        raise Conflict(not_ready[0].message, reason=not_ready[0].code)
    running = await session.scalar(
        select(func.count())
        .select_from(Comparison)
        .where(
            Comparison.workspace_id == actor.workspace_id,
            Comparison.status == ComparisonStatus.RUNNING,
        )
    )
    if (running or 0) >= workspace.max_running_comparisons:
        raise QuotaExceeded(
            f"this workspace runs at most {workspace.max_running_comparisons} comparisons at "
            f"once, and {running} are running: wait for one to end or cancel one",
            limit=workspace.max_running_comparisons,
        )
    comparison.total_calls = await _planned_total(session, comparison)
    comparison.status = ComparisonStatus.RUNNING
    comparison.started_at = utcnow()
    comparison.started_by_member_id = actor.member_id
    snapshot = await counters.recompute(session, comparison)
    await service.record_audit(
        session, actor, "comparison.start", comparison, {"totalCalls": snapshot.total_calls}
    )
    return snapshot


async def _planned_total(session: AsyncSession, comparison: Comparison) -> int:
    """The calls a comparison plans, judge calls included, from its frozen options."""
    cohort_count = await session.scalar(
        select(func.count())
        .select_from(ComparisonCohort)
        .where(ComparisonCohort.comparison_id == comparison.id)
    )
    judge_checks = [c for c in comparison.checks if c.get("kind") == CheckKind.JUDGE_RUBRIC.value]
    planned = planning.planned_calls(
        case_count=comparison.case_count,
        trials=comparison.trials_per_case,
        cohorts=int(cohort_count or 0),
        judge_checks=len(judge_checks),
        pairwise=comparison.pairwise is not None,
    )
    return sum(cohort.calls for cohort in planned)


async def start(
    *,
    sessionmaker: async_sessionmaker[AsyncSession],
    events: EventBus,
    queue: JobQueue,
    actor: Actor,
    comparison_id: str,
    background: bool = True,
    timeout: float = FOREGROUND_TIMEOUT_SECONDS,
    caller_gone: Callable[[], Awaitable[bool]] | None = None,
) -> Comparison:
    """Start a SETUP comparison and queue its dispatch; in the foreground, wait until it ends,
    `timeout` passes or `caller_gone()` says nobody is waiting for the answer any more."""
    async with sessionmaker() as session, session.begin():
        snapshot = await _begin_start(session, actor, comparison_id)
    await _publish(events, comparison_id, snapshot)
    try:
        await queue.enqueue(
            "dispatch_comparison", comparison_id, job_id=start_job_id(comparison_id)
        )
    except Exception as exc:  # the sweeper finds a RUNNING comparison nobody works on
        logger.warning(
            "dispatch not queued; the sweeper will",
            extra={"comparison_id": comparison_id, "error_type": type(exc).__name__},
        )
    deadline = time.monotonic() + (0 if background else timeout)
    while True:
        async with sessionmaker() as session:
            row = await service.get(
                session=session, workspace_id=actor.workspace_id, comparison_id=comparison_id
            )
        if row.status in TERMINAL_STATUSES or time.monotonic() >= deadline:
            return row
        # A disconnected client must not hold the request (and the server's shutdown) open.
        if caller_gone is not None and await caller_gone():
            return row
        await asyncio.sleep(FOREGROUND_POLL_SECONDS)


async def cancel(
    *,
    sessionmaker: async_sessionmaker[AsyncSession],
    events: EventBus,
    queue: JobQueue,
    actor: Actor,
    comparison_id: str,
) -> Comparison:
    """SETUP or RUNNING → CANCELLED; the dispatcher sees it before its next admission."""
    actor.require(Role.MEMBER)
    async with sessionmaker() as session, session.begin():
        comparison = await service.get_locked(session, actor.workspace_id, comparison_id)
        if comparison.status not in (ComparisonStatus.SETUP, ComparisonStatus.RUNNING):
            raise Conflict(
                f"only a SETUP or RUNNING comparison can be cancelled; this one is "
                f"{comparison.status.value}",
                reason="NOT_CANCELLABLE",
            )
        previous = comparison.status
        comparison.status = ComparisonStatus.CANCELLED
        comparison.ended_at = utcnow()
        snapshot = await counters.recompute(session, comparison)
        await service.record_audit(
            session, actor, "comparison.cancel", comparison, {"from": previous.value}
        )
    await _publish(events, comparison_id, snapshot)
    await comparison_hooks.comparison_finished(
        sessionmaker=sessionmaker, queue=queue, comparison_id=comparison_id
    )
    return comparison


async def _publish(events: EventBus, comparison_id: str, snapshot: Progress) -> None:
    try:
        await progress_events.publish(events, comparison_id, snapshot)
    except Exception as exc:  # events are best effort; the row stays the truth
        logger.warning(
            "progress event not published",
            extra={"comparison_id": comparison_id, "error_type": type(exc).__name__},
        )
