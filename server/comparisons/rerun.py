"""A rerun: a new SETUP comparison from an earlier one — the same frozen cases, cohorts
(their frozen bindings), options and cap; the same case order unless stopping changes."""

from __future__ import annotations

from sqlalchemy import func, insert, literal, select
from sqlalchemy.ext.asyncio import AsyncSession

from server.comparisons import service
from server.comparisons import stopping as stopping_option
from server.comparisons.models import (
    Comparison,
    ComparisonCase,
    ComparisonCohort,
    ComparisonStatus,
)
from server.comparisons.stopping import StoppingSpec
from server.datasets.models import DatasetCase
from server.db import utcnow
from server.decisions import policy as ship_policy_option
from server.errors import Conflict
from server.ids import new_id
from server.workspaces.roles import Actor, Role


async def rerun(
    *,
    session: AsyncSession,
    actor: Actor,
    comparison_id: str,
    stopping: StoppingSpec | None = None,
) -> Comparison:
    """A new SETUP comparison of the same cases, cohorts (frozen bindings), options and cap;
    `stopping`, when given, replaces the source's sequential stopping (a new case order)."""
    actor.require(Role.MEMBER)
    stopping_option.check(stopping)
    source = await service.get(
        session=session, workspace_id=actor.workspace_id, comparison_id=comparison_id
    )
    if stopping is None:
        kept_stopping, seed = source.stopping, source.case_order_seed
    else:
        kept_stopping, seed = stopping_option.stored(stopping)
    copy = Comparison(
        id=new_id("cmp"),
        workspace_id=source.workspace_id,
        experiment_id=source.experiment_id,
        dataset_version_id=source.dataset_version_id,
        label=source.label,
        status=ComparisonStatus.SETUP,
        split=source.split,
        trials_per_case=source.trials_per_case,
        checks=source.checks,
        sample=source.sample,
        variables=source.variables,
        missing_field_policy=source.missing_field_policy,
        pairwise=source.pairwise,
        budget_cap_micros=source.budget_cap_micros,
        epsilon_points=source.epsilon_points,
        target_effect_points=source.target_effect_points,
        stopping=kept_stopping,
        case_order_seed=seed,
        ship_policy=ship_policy_option.copied(source.ship_policy, source.created_at, utcnow()),
        case_count=source.case_count,
        total_calls=source.total_calls,
        created_by_member_id=actor.member_id,
        rerun_of_id=source.id,
    )
    session.add(copy)
    cohorts = await session.scalars(
        select(ComparisonCohort).where(ComparisonCohort.comparison_id == source.id)
    )
    session.add_all(
        ComparisonCohort(
            comparison_id=copy.id,
            cohort_index=c.cohort_index,
            kind=c.kind,
            release_id=c.release_id,
            overrides=dict(c.overrides),
            bindings=dict(c.bindings),
            label=c.label,
        )
        for c in cohorts
    )
    await session.flush()
    if stopping is None:  # the same cases in the same order
        await session.execute(
            insert(ComparisonCase).from_select(
                ["comparison_id", "ordinal", "dataset_case_id"],
                select(
                    literal(copy.id), ComparisonCase.ordinal, ComparisonCase.dataset_case_id
                ).where(ComparisonCase.comparison_id == source.id),
            )
        )
    else:  # the same cases, in dataset order or the new seed's
        case_ids = await session.scalars(
            select(ComparisonCase.dataset_case_id)
            .join(DatasetCase, DatasetCase.id == ComparisonCase.dataset_case_id)
            .where(ComparisonCase.comparison_id == source.id)
            .order_by(DatasetCase.ordinal)
        )
        ordered = stopping_option.case_order(list(case_ids), seed)
        await service.insert_cases(session, copy.id, ordered)
    copied = await session.scalar(
        select(func.count())
        .select_from(ComparisonCase)
        .where(ComparisonCase.comparison_id == copy.id)
    )
    if copied != source.case_count:
        raise Conflict(
            "the cases of this comparison were erased: create a new comparison",
            reason="CASES_ERASED",
        )
    await service.record_audit(session, actor, "comparison.rerun", copy, {"rerunOfId": source.id})
    return copy
