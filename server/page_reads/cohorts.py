"""A comparison's cohorts aggregated in its page's statement, as one JSON array per row."""

from __future__ import annotations

from typing import Any, NamedTuple

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
from server.page_reads.fields import made, members

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


class CohortRead(NamedTuple):
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
    return tuple(  # made in C: a list of 20 comparisons makes 60 of them
        _new_cohort(
            (
                index,
                _KINDS[kind],
                label,
                release_id,
                _STATES[state],
                pass_rate(usable_cases=usable, pass_fraction_sum=summed) if done else None,
            )
        )
        for index, kind, label, release_id, usable, summed, state in sorted(value or ())
    )


_new_cohort = made(CohortRead)
_KINDS = members(CohortKind)
_STATES = members(CohortState)
