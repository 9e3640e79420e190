"""What finalization reads: a DONE comparison's cases and trial rows, as plain values.

`load` reads the comparison, its cohorts and its cases; `trial_chunks` then streams the
trial rows a slice of cases at a time (`slice_cases`), so no whole-comparison list of trials
is ever held: memory follows the cases, not the trials (docs/benchmarks.md, "Finalization").
`FinalizeInput` crosses into the executor, so it holds no ORM objects.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass, replace
from typing import Any, NamedTuple

from sqlalchemy import null, select
from sqlalchemy.ext.asyncio import AsyncSession

from server.assets.models import AssetVersion
from server.checks import CheckKind
from server.comparisons.models import (
    Comparison,
    ComparisonCase,
    ComparisonCohort,
    ComparisonStatus,
)
from server.datasets.models import DatasetCase
from server.decisions import policy as ship_policy_option
from server.verdicts import bulk
from server.verdicts import sequential as sequential_verdict

SCORE_0_1 = "SCORE_0_1"
SLICE_ROWS = 45_000
"""Trial rows per slice read at most (whole cases): 3 × 5,000 × 3 is one slice."""


def slice_cases(cohorts: int, trials_per_case: int) -> int:
    """Cases per slice: as many as `SLICE_ROWS` trial rows allow, at least one."""
    return max(1, SLICE_ROWS // max(1, cohorts * trials_per_case))


@dataclass(frozen=True, slots=True)
class CaseInfo:
    ordinal: int
    dataset_case_id: int
    dataset_item_id: str
    input: Any


@dataclass(frozen=True, slots=True)
class CohortInfo:
    index: int
    label: str
    release_id: str


class TrialInfo(NamedTuple):
    """One trial row; `completed` is False for an ERRORED (or never closed) trial.

    A named tuple, not a frozen dataclass: 45,000 of them are built per finalization and a
    frozen dataclass's `__init__` (one `object.__setattr__` per field) took 0.2 s of it.
    """

    case_ordinal: int
    cohort_index: int
    trial_index: int
    completed: bool
    passed: bool | None
    score: float | None
    check_passed: tuple[bool | None, ...]
    """Each check's result in the comparison's check order (None: no result)."""
    check_scores: tuple[float | None, ...]
    output: str | None
    tool_calls: int
    """How many tool calls the answer made."""
    input_tokens: int
    output_tokens: int
    cost_micros: int
    latency_ms: int
    error_code: str | None


@dataclass(frozen=True, slots=True)
class FinalizeInput:
    comparison_id: str
    workspace_id: str
    experiment_id: str
    dataset_version_id: str
    split: str
    stop_reason: str | None
    trials_per_case: int
    checks: list[dict[str, Any]]
    score_rubrics: frozenset[str]
    """Rubric version ids of JUDGE_RUBRIC checks on the SCORE_0_1 scale."""
    epsilon_points: float
    target_effect_points: float
    started_by_member_id: str | None
    cohorts: list[CohortInfo]
    cases: list[CaseInfo]
    """Without their inputs: `trial_chunks` reads those a slice at a time when asked."""
    sequential: dict[str, Any] | None = None
    """Sequential stopping's stop and looks (`server.verdicts.sequential`)."""
    ship_policy: dict[str, Any] | None = None
    """The policy frozen at creation (`server.comparisons.ship_policy`); None: the defaults."""


async def load(session: AsyncSession, comparison_id: str) -> FinalizeInput | None:
    """The comparison's finalization input (no trial rows: `trial_chunks` streams them), or
    None unless it is DONE."""
    comparison = await session.get(Comparison, comparison_id, populate_existing=True)
    if comparison is None or comparison.status != ComparisonStatus.DONE:
        return None
    cohorts = await session.scalars(
        select(ComparisonCohort)
        .where(ComparisonCohort.comparison_id == comparison_id)
        .order_by(ComparisonCohort.cohort_index)
    )
    case_rows = await session.execute(
        select(
            ComparisonCase.ordinal,
            DatasetCase.id,
            DatasetCase.dataset_item_id,
            null(),
        )
        .join(DatasetCase, DatasetCase.id == ComparisonCase.dataset_case_id)
        .where(ComparisonCase.comparison_id == comparison_id)
        .order_by(ComparisonCase.ordinal)
    )
    return FinalizeInput(
        comparison_id=comparison.id,
        workspace_id=comparison.workspace_id,
        experiment_id=comparison.experiment_id,
        dataset_version_id=comparison.dataset_version_id,
        split=comparison.split,
        stop_reason=comparison.stop_reason.value if comparison.stop_reason else None,
        trials_per_case=comparison.trials_per_case,
        checks=list(comparison.checks),
        score_rubrics=await _score_rubrics(session, comparison.checks),
        epsilon_points=float(comparison.epsilon_points),
        target_effect_points=float(comparison.target_effect_points),
        started_by_member_id=comparison.started_by_member_id,
        cohorts=[CohortInfo(c.cohort_index, c.label, c.release_id) for c in cohorts],
        cases=[CaseInfo(int(o), int(i), str(d), inp) for o, i, d, inp in case_rows],
        sequential=sequential_verdict.describe(comparison),
        ship_policy=ship_policy_option.frozen(comparison.ship_policy, comparison.created_at),
    )


async def trial_chunks(
    session: AsyncSession, data: FinalizeInput, *, documents: bool = False
) -> AsyncIterator[tuple[list[CaseInfo], list[TrialInfo]]]:
    """(a slice of `data.cases`, their trial rows in case-major order), `slice_cases` cases
    at a time. With `documents` the cases carry their inputs and the trials their outputs
    (the hosted runs' items in Python need them; the verdict does not)."""
    checks = len(data.checks)
    size = slice_cases(len(data.cohorts), data.trials_per_case)
    for low in range(0, len(data.cases), size):
        cases = data.cases[low : low + size]
        # The first and last slices are open-ended: every trial row is read, so one that
        # names no case of the comparison still breaks finalization (it is not ignored).
        first = cases[0].ordinal if low else -(2**31)
        end = cases[-1].ordinal + 1 if low + size < len(data.cases) else 2**31 - 1
        rows = await bulk.fetch_trials(
            session, data.comparison_id, checks, outputs=documents, first=first, end=end
        )
        if documents:
            found = await session.execute(
                select(ComparisonCase.ordinal, DatasetCase.input)
                .join(DatasetCase, DatasetCase.id == ComparisonCase.dataset_case_id)
                .where(
                    ComparisonCase.comparison_id == data.comparison_id,
                    ComparisonCase.ordinal >= first,
                    ComparisonCase.ordinal < end,
                )
            )
            inputs = {int(ordinal): value for ordinal, value in found}
            cases = [replace(case, input=inputs.get(case.ordinal)) for case in cases]
        yield cases, list(map(TrialInfo._make, rows))


async def _score_rubrics(session: AsyncSession, checks: list[dict[str, Any]]) -> frozenset[str]:
    ids = [
        str(spec["rubricVersionId"])
        for spec in checks
        if spec.get("kind") == CheckKind.JUDGE_RUBRIC.value
    ]
    if not ids:
        return frozenset()
    rows = await session.scalars(select(AssetVersion).where(AssetVersion.id.in_(ids)))
    return frozenset(row.id for row in rows if row.content.get("scale") == SCORE_0_1)
