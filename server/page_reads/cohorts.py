"""A comparison's cohorts aggregated in its page's statement, as one JSON array per row."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import JSON, ColumnElement, func, select
from sqlalchemy.dialects.postgresql import aggregate_order_by

from server.comparisons.cohort_rates import pass_rate
from server.comparisons.models import (
    CohortKind,
    CohortState,
    Comparison,
    ComparisonCohort,
    ComparisonStatus,
)

_COLUMNS = (
    ComparisonCohort.cohort_index,
    ComparisonCohort.kind,
    ComparisonCohort.label,
    ComparisonCohort.release_id,
    ComparisonCohort.usable_cases,
    ComparisonCohort.pass_fraction_sum,
    ComparisonCohort.state,
)


def cohorts_column(dialect: str) -> ColumnElement[Any]:
    """The comparison's cohorts, each as the array of `_COLUMNS` (PostgreSQL's `json_agg`,
    SQLite's `json_group_array`; `cohorts_of` puts them in index order)."""
    if dialect == "postgresql":
        element = func.json_build_array(*_COLUMNS)
        aggregate = func.json_agg(aggregate_order_by(element, ComparisonCohort.cohort_index))
        inner = select(aggregate).where(ComparisonCohort.comparison_id == Comparison.id)
        return inner.correlate(Comparison).scalar_subquery().label("cohorts")
    grouped = select(func.json_group_array(func.json_array(*_COLUMNS), type_=JSON))
    inner = grouped.where(ComparisonCohort.comparison_id == Comparison.id)
    return inner.correlate(Comparison).scalar_subquery().label("cohorts")


@dataclass(frozen=True, slots=True)
class CohortRead:
    """A cohort as its comparison's page shows it."""

    cohort_index: int
    kind: CohortKind
    label: str
    release_id: str
    state: CohortState
    pass_rate: float | None
    """Mean over cases of passed ÷ completed trials; None until DONE."""

    @property
    def is_candidate(self) -> bool:
        return self.cohort_index == 0


def cohorts_of(value: Any, status: ComparisonStatus) -> tuple[CohortRead, ...]:
    """The aggregated cohorts of a row (the driver's parsed JSON, or SQLAlchemy's)."""
    done = status == ComparisonStatus.DONE
    return tuple(  # positionally: a list of 20 comparisons builds 60 of them
        CohortRead(
            index,
            CohortKind(kind),
            label,
            release_id,
            CohortState(state),
            pass_rate(usable_cases=usable, pass_fraction_sum=summed) if done else None,
        )
        for index, kind, label, release_id, usable, summed, state in sorted(value or ())
    )
