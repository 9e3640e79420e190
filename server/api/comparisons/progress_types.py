"""A comparison's state as GraphQL shows it: its status enums and the live progress snapshot
the subscription sends (`subscription.py`) and `Comparison.progress` answers."""

from __future__ import annotations

from datetime import datetime
from typing import ClassVar, TypeAlias

import strawberry

from server.comparisons.models import CohortState as CohortStateEnum
from server.comparisons.models import ComparisonStatus as ComparisonStatusEnum
from server.comparisons.models import StopReason as StopReasonEnum
from server.comparisons.progress import Progress
from server.page_reads.comparison_page import RowProgress

strawberry.enum(ComparisonStatusEnum, name="ComparisonStatus")
ComparisonStatus: TypeAlias = ComparisonStatusEnum
strawberry.enum(StopReasonEnum, name="StopReason")
StopReason: TypeAlias = StopReasonEnum
strawberry.enum(CohortStateEnum, name="CohortState")
CohortState: TypeAlias = CohortStateEnum


@strawberry.type
class CohortProgress:
    cohort_index: int
    state: CohortState


@strawberry.type(description="A snapshot derived from the comparison row; `seq` orders them.")
class ComparisonProgress:
    SHARED_EVENT: ClassVar[bool] = True
    """Plain values: one execution serves every subscriber (`server.api.http.shared_events`)."""

    seq: int
    status: ComparisonStatus
    stop_reason: StopReason | None
    done_calls: int
    total_calls: int
    failed_calls: int
    percent: float
    eta_seconds: float | None
    spent_cents_so_far: float
    cohorts: list[CohortProgress]
    updated_at: datetime | None = strawberry.field(
        description="When the comparison reached this `seq`."
    )

    @classmethod
    def of(cls, progress: RowProgress | Progress) -> ComparisonProgress:
        """As a snapshot carries it off the event bus (its enums as values, its time as
        text); a comparison's read shows its `RowProgress` as it is (the same attributes)."""
        updated = progress.updated_at
        return cls(
            seq=progress.seq,
            status=ComparisonStatusEnum(progress.status),
            stop_reason=StopReasonEnum(progress.stop_reason) if progress.stop_reason else None,
            done_calls=progress.done_calls,
            total_calls=progress.total_calls,
            failed_calls=progress.failed_calls,
            percent=progress.percent,
            eta_seconds=progress.eta_seconds,
            spent_cents_so_far=progress.spent_cents_so_far,
            cohorts=[
                CohortProgress(cohort_index=c.cohort_index, state=CohortStateEnum(c.state))
                for c in progress.cohorts
            ],
            updated_at=datetime.fromisoformat(updated) if isinstance(updated, str) else updated,
        )
