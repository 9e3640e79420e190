"""What a re-run would run and cost: the preview of the comparison's own input, read back
from its row (cohorts with their overrides, dataset version, split, trials, checks, sample,
variables, pairwise judge and cap), so "Re-run" can say its cost bound before it spends."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from server.comparisons import service
from server.comparisons.inputs import CohortSpec, ComparisonSpec, PairwiseSpec, SampleSpec
from server.comparisons.models import Comparison, ComparisonCohort
from server.comparisons.preview import Preview
from server.comparisons.service import MonthSpend
from server.datasets.models import Split
from server.money import micros_to_cents
from server.prompting.variables import MissingFieldPolicy
from server.releases.models import BindingRole
from server.settings import Settings
from server.workspaces.roles import Actor


def _cohort(row: ComparisonCohort) -> CohortSpec:
    overrides = tuple((BindingRole(role), vid) for role, vid in sorted(row.overrides.items()))
    if overrides:
        return CohortSpec(
            kind=row.kind, base_release_id=row.release_id, overrides=overrides, label=row.label
        )
    return CohortSpec(kind=row.kind, release_id=row.release_id, label=row.label)


def spec_of(comparison: Comparison, cohorts: list[ComparisonCohort]) -> ComparisonSpec:
    """The input that made `comparison` (its experiment, options and frozen choices)."""
    sample = comparison.sample
    pairwise = comparison.pairwise
    cap = comparison.budget_cap_micros
    return ComparisonSpec(
        cohorts=tuple(_cohort(c) for c in sorted(cohorts, key=lambda c: c.cohort_index)),
        experiment_id=comparison.experiment_id,
        dataset_version_id=comparison.dataset_version_id,
        split=Split(comparison.split),
        trials_per_case=comparison.trials_per_case,
        checks=comparison.checks,
        sample=None if sample is None else SampleSpec(size=sample["size"], seed=sample["seed"]),
        variables=tuple(sorted(comparison.variables.items())),
        missing_field_policy=MissingFieldPolicy(comparison.missing_field_policy),
        budget_cap_cents=None if cap is None else micros_to_cents(cap),
        pairwise=None
        if pairwise is None
        else PairwiseSpec(
            rubric_version_id=pairwise["rubricVersionId"],
            judge_model_config_version_id=pairwise["judgeModelConfigVersionId"],
        ),
        label=comparison.label,
        epsilon_points=comparison.epsilon_points,
        target_effect_points=comparison.target_effect_points,
    )


async def preview(
    *,
    session: AsyncSession,
    actor: Actor,
    settings: Settings,
    comparison_id: str,
    month_spend: MonthSpend,
) -> Preview:
    """The preview of a re-run of the comparison: its calls, cost bound, warnings, blockers."""
    comparison = await service.get(
        session=session, workspace_id=actor.workspace_id, comparison_id=comparison_id
    )
    cohorts = list(
        await session.scalars(
            select(ComparisonCohort).where(ComparisonCohort.comparison_id == comparison.id)
        )
    )
    return await service.preview(
        session=session,
        actor=actor,
        settings=settings,
        spec=spec_of(comparison, cohorts),
        month_spend=month_spend,
    )
