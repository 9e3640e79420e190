"""What the comparisons page and a comparison's page read of a comparison, and how they show
it as the schema does (`server.api.comparisons.types`): its cohorts aggregated in the statement,
its progress columns, its enum columns by member name."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.dialects.postgresql import aggregate_order_by

from server.comparisons.cohort_rates import pass_rate
from server.comparisons.models import Comparison, ComparisonCohort, ComparisonStatus, StopReason
from server.verdicts.models import VerdictState

COHORTS = (
    select(
        func.json_agg(
            aggregate_order_by(
                func.json_build_array(
                    ComparisonCohort.cohort_index,
                    ComparisonCohort.label,
                    ComparisonCohort.usable_cases,
                    ComparisonCohort.pass_fraction_sum,
                    ComparisonCohort.state,
                ),
                ComparisonCohort.cohort_index,
            )
        )
    )
    .where(ComparisonCohort.comparison_id == Comparison.id)
    .correlate(Comparison)
    .scalar_subquery()
    .label("cohorts")
)
"""Its cohorts in index order, as [index, label, usable cases, pass-fraction sum, state]."""

COUNTED = (
    Comparison.seq,
    Comparison.status,
    Comparison.stop_reason,
    Comparison.done_calls,
    Comparison.total_calls,
    Comparison.failed_calls,
    Comparison.spent_micros,
    Comparison.started_at,
    Comparison.progress_at,
)
"""The columns of a progress snapshot (`Counts`), in its fields' order."""


@dataclass(frozen=True, slots=True)
class Counts:
    """A comparison's progress columns, as `snapshot` reads them (`progress.Counted`)."""

    seq: int
    status: ComparisonStatus
    stop_reason: StopReason | None
    done_calls: int
    total_calls: int
    failed_calls: int
    spent_micros: int
    started_at: datetime | None
    progress_at: datetime | None

    @classmethod
    def of(cls, row: Any) -> Counts:
        return cls(
            seq=row["seq"],
            status=ComparisonStatus(row["status"]),
            stop_reason=StopReason(row["stop_reason"]) if row["stop_reason"] else None,
            done_calls=row["done_calls"],
            total_calls=row["total_calls"],
            failed_calls=row["failed_calls"],
            spent_micros=row["spent_micros"],
            started_at=row["started_at"],
            progress_at=row["progress_at"],
        )


def shown_cohorts(status: ComparisonStatus, cohorts: list[list[Any]]) -> list[dict[str, Any]]:
    """`cohorts { cohortIndex label isCandidate passRate }` (`ComparisonCohort.from_row`)."""
    done = status == ComparisonStatus.DONE
    return [
        {
            "cohortIndex": index,
            "label": label,
            "isCandidate": index == 0,
            "passRate": pass_rate(usable_cases=usable, pass_fraction_sum=summed) if done else None,
        }
        for index, label, usable, summed, _ in cohorts
    ]


def verdict_state_name(state: str | None) -> str:
    return VerdictState(state).name if state else VerdictState.NOT_FINALIZED.name


def member_name(enum: Any, value: str | None) -> str | None:
    """An enum column's value as the schema shows it (its member's name), or null."""
    return enum(value).name if value is not None else None


def iso_or_none(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None
