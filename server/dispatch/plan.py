"""The dispatch plan: a comparison's cohorts, cases and judges, loaded once per delivery.

A plan is read at lease acquisition; `DispatchPlan.pending` lists, case-major, a range's
trials that no row records yet (its recorded trials are read with its claim,
`server/dispatch/ranges.py:trials_in`: a plan holds no row per trial, which near the end
of a 900,000-call run was the largest thing a delivery read).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from server.assets.models import AssetVersion
from server.checks.spec import TRAJECTORY_KINDS
from server.comparisons.models import Comparison, ComparisonCase, ComparisonCohort
from server.connections.models import ModelConnection
from server.datasets.models import DatasetCase
from server.judges.rubric_grade import RubricJudge, load_judges


@dataclass(frozen=True, slots=True)
class CohortPlan:
    index: int
    connection: ModelConnection
    prompt_version_id: str
    messages: list[dict[str, Any]]
    variables: list[str]
    model: str
    temperature: float | None
    max_output_tokens: int
    params: dict[str, Any]
    tools: list[dict[str, Any]] | None


@dataclass(frozen=True, slots=True)
class CasePlan:
    ordinal: int
    dataset_item_id: str
    input: Any
    expected: Any


@dataclass(frozen=True, slots=True)
class WorkItem:
    """One trial to run, identified as in the X-Shipwise-Trial header."""

    case_ordinal: int
    cohort_index: int
    trial_index: int


@dataclass(frozen=True, slots=True)
class DispatchPlan:
    comparison: Comparison
    cohorts: Mapping[int, CohortPlan]
    cases: Mapping[int, CasePlan]
    """By ordinal, in case-major order."""
    judges: Mapping[tuple[str, str], RubricJudge] = field(default_factory=dict)
    reads_trajectory: bool = False
    """Whether a check grades a trial's trajectory (only then is one built per trial)."""

    def pending(
        self, first: int, end: int, recorded: frozenset[tuple[int, int, int]]
    ) -> list[WorkItem]:
        """Case-major: for each case, every cohort's trials, so a stop leaves a paired set;
        only cases `first` ≤ ordinal < `end` (a range), less the `recorded` ones."""
        trials = self.comparison.trials_per_case
        # By ordinal, the range's cases only: a range's claim costs its own cases, not a
        # walk over every case of the comparison (quadratic over a 100,000-case run).
        return [
            WorkItem(ordinal, cohort.index, trial)
            for ordinal in range(first, end)
            if ordinal in self.cases
            for cohort in self.cohorts.values()
            for trial in range(trials)
            if (ordinal, cohort.index, trial) not in recorded
        ]


async def load_plan(session: AsyncSession, comparison_id: str) -> DispatchPlan:
    comparison = await session.get(Comparison, comparison_id)
    assert comparison is not None
    cohort_rows = (
        await session.execute(
            select(ComparisonCohort)
            .where(ComparisonCohort.comparison_id == comparison_id)
            .order_by(ComparisonCohort.cohort_index)
        )
    ).scalars()
    cohorts = {row.cohort_index: await _cohort_plan(session, row) for row in cohort_rows}
    case_rows = await session.execute(
        select(
            ComparisonCase.ordinal,
            DatasetCase.dataset_item_id,
            DatasetCase.input,
            DatasetCase.expected,
        )
        .join(DatasetCase, DatasetCase.id == ComparisonCase.dataset_case_id)
        .where(ComparisonCase.comparison_id == comparison_id)
        .order_by(ComparisonCase.ordinal)
    )
    cases = {int(row[0]): CasePlan(*row) for row in case_rows}
    judges = await load_judges(session, comparison.checks)
    return DispatchPlan(
        comparison=comparison,
        cohorts=cohorts,
        cases=cases,
        judges=judges,
        reads_trajectory=any(spec.get("kind") in TRAJECTORY_KINDS for spec in comparison.checks),
    )


async def _cohort_plan(session: AsyncSession, cohort: ComparisonCohort) -> CohortPlan:
    versions = {
        row.id: row
        for row in (
            await session.execute(
                select(AssetVersion).where(AssetVersion.id.in_(list(cohort.bindings.values())))
            )
        ).scalars()
    }
    prompt = versions[cohort.bindings["prompt_template"]]
    config = versions[cohort.bindings["model_config"]].content
    tools_id = cohort.bindings.get("tools")
    connection = await session.get(ModelConnection, config["connectionId"])
    assert connection is not None
    return CohortPlan(
        index=cohort.cohort_index,
        connection=connection,
        prompt_version_id=prompt.id,
        messages=list(prompt.content["messages"]),
        variables=list(prompt.variables or []),
        model=str(config["model"]),
        temperature=config.get("temperature"),
        max_output_tokens=int(config["maxOutputTokens"]),
        params=dict(config.get("params") or {}),
        tools=list(versions[tools_id].content["tools"]) if tools_id else None,
    )
