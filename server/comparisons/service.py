"""Comparisons: preview, create (frozen cases and bindings), and reading them.

Starting and cancelling are in `lifecycle`, a rerun in `rerun`. Every state change is audited.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from typing import Any

from sqlalchemy import BindParameter, Select, bindparam, func, insert, select
from sqlalchemy.ext.asyncio import AsyncSession

from server.assets.models import Asset
from server.audit import service as audit
from server.comparisons import inputs, resolution
from server.comparisons import preview as planning
from server.comparisons import stopping as stopping_option
from server.comparisons.inputs import ComparisonSpec, ResolvedInput
from server.comparisons.models import (
    Comparison,
    ComparisonCase,
    ComparisonCohort,
    ComparisonStatus,
)
from server.comparisons.preview import Preview
from server.comparisons.selection import Selection, select_for
from server.datasets.models import Split
from server.db import utcnow
from server.decisions import policy as ship_policy_option
from server.errors import NotFound, QuotaExceeded, ValidationFailed
from server.experiments import service as experiment_service
from server.experiments.models import Experiment
from server.ids import new_id
from server.settings import Settings
from server.workspaces.models import Workspace
from server.workspaces.roles import Actor, Role
from server.workspaces.scoped import get_in_workspace

CASE_INSERT_BATCH = 5000

MonthSpend = Callable[[AsyncSession, Iterable[str]], Awaitable[Mapping[str, int]]]
"""Each connection's spend this UTC month, in micro-dollars: `server.spend.service`'s, which
the caller passes (spend sums the comparisons' rows, so comparisons do not import spend)."""


async def preview(
    *,
    session: AsyncSession,
    actor: Actor,
    settings: Settings,
    spec: ComparisonSpec,
    month_spend: MonthSpend,
) -> Preview:
    """Every figure, warning and blocker of the comparison `spec` describes; writes nothing."""
    resolved = await resolution.resolve(session=session, actor=actor, spec=spec)
    selection = await select_for(session, resolved)
    counts = planning.count_calls(resolved, len(selection.kept))
    workspace = await session.get(Workspace, actor.workspace_id)
    assert workspace is not None
    spent = await month_spend(session, resolved.connections)
    looks = 0
    if resolved.split == Split.HOLDOUT:
        version_id = resolved.dataset_version.id
        found = await holdout_looks(session=session, version_ids=[version_id])
        looks = found.get(version_id, 0)
    total = sum(c.calls for c in counts)
    bound = planning.cost_bound(resolved, selection.kept)
    notes = planning.warnings(resolved=resolved, selection=selection, holdout_looks=looks)
    if resolved.stopping is not None and resolved.stopping.sequential:
        note = stopping_option.preview_note(
            resolved.stopping,
            baselines=len(resolved.cohorts) - 1,
            total_calls=total,
            bound=planning.dollars(sum(bound)),
        )
        notes.append(planning.Note(planning.WarningCode.MAY_STOP_EARLY, note))
    return Preview(
        resolved=resolved,
        selection=selection,
        cohorts=counts,
        cost_micros=bound,
        connections=[
            planning.ConnectionSpend(connection, spent[connection.id])
            for connection in resolved.connections.values()
        ],
        warnings=notes,
        blockers=planning.blockers(
            can_run=actor.role.at_least(Role.MEMBER),
            workspace=workspace,
            resolved=resolved,
            selection=selection,
            total_calls=total,
            call_limit=call_limit(workspace, settings),
        ),
        call_limit=call_limit(workspace, settings),
    )


def call_limit(workspace: Workspace, settings: Settings) -> int:
    """The workspace's `maxCallsPerComparison`, within the deployment's ceiling."""
    return min(workspace.max_calls_per_comparison, settings.max_calls_per_comparison)


async def create(
    *, session: AsyncSession, actor: Actor, settings: Settings, spec: ComparisonSpec
) -> Comparison:
    """A SETUP comparison with its frozen cases and bindings; nothing is dispatched."""
    actor.require(Role.MEMBER)
    resolved = await resolution.resolve(session=session, actor=actor, spec=spec)
    pair = planning.same_configuration([(c.index, c.bindings) for c in resolved.cohorts])
    if pair is not None:
        note = planning.same_configuration_note(pair)
        raise ValidationFailed(note.message, field="cohorts", reason=note.code)
    selection = await select_for(session, resolved)
    _check_selection(resolved, selection)
    total = sum(c.calls for c in planning.count_calls(resolved, len(selection.kept)))
    workspace = await session.get(Workspace, actor.workspace_id)
    assert workspace is not None
    limit = call_limit(workspace, settings)
    if total > limit:
        note = planning.over_limit_note(total, limit)
        raise QuotaExceeded(note.message, calls=total, limit=limit)
    experiment = resolved.experiment or await _experiment_for(session, actor, resolved)
    stopping, seed = stopping_option.stored(resolved.stopping)
    comparison = Comparison(
        id=new_id("cmp"),
        workspace_id=actor.workspace_id,
        experiment_id=experiment.id,
        dataset_version_id=resolved.dataset_version.id,
        label=resolved.label or _default_label([c.label for c in resolved.cohorts]),
        status=ComparisonStatus.SETUP,
        split=resolved.split.value,
        trials_per_case=resolved.trials_per_case,
        checks=resolved.checks,
        sample=_sample_json(resolved),
        variables=resolved.variables,
        missing_field_policy=resolved.missing_field_policy.value,
        pairwise=_pairwise_json(resolved),
        budget_cap_micros=resolved.budget_cap_micros,
        epsilon_points=resolved.epsilon_points,
        target_effect_points=resolved.target_effect_points,
        stopping=stopping,
        case_order_seed=seed,
        ship_policy=ship_policy_option.document(resolved.ship_policy, registered_at=utcnow()),
        case_count=len(selection.kept),
        total_calls=total,
        created_by_member_id=actor.member_id,
    )
    session.add(comparison)
    session.add_all(
        ComparisonCohort(
            comparison_id=comparison.id,
            cohort_index=c.index,
            kind=c.kind,
            release_id=c.release_id,
            overrides=c.overrides,
            bindings=c.bindings,
            label=c.label,
        )
        for c in resolved.cohorts
    )
    await session.flush()
    order = stopping_option.case_order([case.id for case in selection.kept], seed)
    await insert_cases(session, comparison.id, order)
    await record_audit(
        session, actor, "comparison.create", comparison, _facts(comparison, resolved)
    )
    return comparison


def _check_selection(resolved: ResolvedInput, selection: Selection) -> None:
    if selection.refused:
        first = selection.missing[0]
        raise ValidationFailed(
            planning.missing_fields_note(selection).message,
            field="variables",
            variable=first.variable,
            datasetItemId=first.dataset_item_id,
        )
    if not selection.kept:
        raise ValidationFailed(
            planning.empty_selection_note(resolved, selection).message, field="split"
        )


async def _experiment_for(
    session: AsyncSession, actor: Actor, resolved: ResolvedInput
) -> Experiment:
    """The experiment named after the dataset, created on demand."""
    dataset = await session.get(Asset, resolved.dataset_version.asset_id)
    assert dataset is not None
    return await experiment_service.get_or_create_by_name(
        session=session, actor=actor, name=dataset.name
    )


def _default_label(labels: Sequence[str]) -> str:
    label = f"{labels[0]} vs {', '.join(labels[1:])}"
    return label if len(label) <= inputs.MAX_LABEL else label[: inputs.MAX_LABEL - 1] + "…"


def _sample_json(resolved: ResolvedInput) -> dict[str, int] | None:
    sample = resolved.sample
    return None if sample is None else {"size": sample.size, "seed": sample.seed}


def _pairwise_json(resolved: ResolvedInput) -> dict[str, str] | None:
    judge = resolved.pairwise
    if judge is None:
        return None
    return {"rubricVersionId": judge.rubric.id, "judgeModelConfigVersionId": judge.config.id}


async def insert_cases(session: AsyncSession, comparison_id: str, case_ids: list[int]) -> None:
    """The frozen selection in case-major order, with Core executemany (tens of thousands)."""
    rows = [
        {"comparison_id": comparison_id, "ordinal": ordinal, "dataset_case_id": case_id}
        for ordinal, case_id in enumerate(case_ids)
    ]
    for low in range(0, len(rows), CASE_INSERT_BATCH):
        await session.execute(insert(ComparisonCase), rows[low : low + CASE_INSERT_BATCH])


def _facts(comparison: Comparison, resolved: ResolvedInput) -> dict[str, Any]:
    return {
        "experimentId": comparison.experiment_id,
        "datasetVersionId": comparison.dataset_version_id,
        "split": comparison.split,
        "trialsPerCase": comparison.trials_per_case,
        "caseCount": comparison.case_count,
        "totalCalls": comparison.total_calls,
        "budgetCapMicros": comparison.budget_cap_micros,
        "stopping": comparison.stopping,
        "caseOrderSeed": comparison.case_order_seed,
        "shipPolicy": comparison.ship_policy,
        "cohorts": [
            {"index": c.index, "kind": c.kind.value, "releaseId": c.release_id,
             "bindings": c.bindings}
            for c in resolved.cohorts
        ],
    }  # fmt: skip


async def get(*, session: AsyncSession, workspace_id: str, comparison_id: str) -> Comparison:
    """The workspace's comparison; another workspace's or an unknown id is NOT_FOUND."""
    return await get_in_workspace(
        session, Comparison, comparison_id, workspace_id, "comparison", fresh=True
    )


async def get_locked(session: AsyncSession, workspace_id: str, comparison_id: str) -> Comparison:
    row = (
        await session.execute(
            select(Comparison)
            .where(Comparison.id == comparison_id, Comparison.workspace_id == workspace_id)
            .with_for_update()
            .execution_options(populate_existing=True)
        )
    ).scalar_one_or_none()
    if row is None:
        raise NotFound("comparison not found")
    return row


def _cohorts_statement() -> Select[ComparisonCohort]:
    ids: BindParameter[list[str]] = bindparam("comparison_ids", expanding=True)
    return (
        select(ComparisonCohort)
        .where(ComparisonCohort.comparison_id.in_(ids))
        .order_by(ComparisonCohort.comparison_id, ComparisonCohort.cohort_index)
    )


_COHORTS = _cohorts_statement()
"""Cohorts of the bound `comparison_ids`, built once: pages and loaders read them on every
request."""


async def get_cohorts(
    *, session: AsyncSession, comparison_ids: Sequence[str]
) -> dict[str, list[ComparisonCohort]]:
    """Each comparison's cohorts in index order (callers have scoped the ids)."""
    rows = await session.scalars(_COHORTS, {"comparison_ids": list(comparison_ids)})
    found: dict[str, list[ComparisonCohort]] = defaultdict(list)
    for row in rows:
        found[row.comparison_id].append(row)
    return found


async def get_experiments(
    *, session: AsyncSession, workspace_id: str, experiment_ids: Sequence[str]
) -> dict[str, Experiment]:
    """The workspace's experiments among `experiment_ids`, by id."""
    rows = await session.scalars(
        select(Experiment).where(
            Experiment.id.in_(experiment_ids), Experiment.workspace_id == workspace_id
        )
    )
    return {row.id: row for row in rows}


async def record_audit(
    session: AsyncSession,
    actor: Actor,
    action: str,
    comparison: Comparison,
    details: dict[str, Any],
) -> None:
    await audit.record(
        session=session,
        actor=actor,
        action=action,
        target_type="comparison",
        target_id=comparison.id,
        details=details,
    )


async def holdout_looks(
    *,
    session: AsyncSession,
    version_ids: Sequence[str],
) -> dict[str, int]:
    """Finalized comparisons on each version's holdout split.

    A comparison counts once however often it is finalized: `finalized_at` is set by its
    first finalization only (later ones are no-ops).
    """
    found = dict.fromkeys(version_ids, 0)
    if not version_ids:
        return found
    rows = await session.execute(
        select(Comparison.dataset_version_id, func.count())
        .where(
            Comparison.dataset_version_id.in_(list(version_ids)),
            Comparison.split == Split.HOLDOUT.value,
            Comparison.finalized_at.is_not(None),
        )
        .group_by(Comparison.dataset_version_id)
    )
    for version_id, count in rows:
        found[str(version_id)] = int(count)
    return found
