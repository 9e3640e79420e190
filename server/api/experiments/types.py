"""GraphQL types of experiments."""

from __future__ import annotations

from datetime import datetime

import strawberry

from server.experiments.models import Experiment as ExperimentRow
from server.money import optional_micros_to_cents
from server.page_reads.comparison_page import ExperimentRef


@strawberry.type
class Experiment:
    id: strawberry.ID
    name: str
    daily_budget_cents: float | None = strawberry.field(
        description="Spend allowed per day across the experiment's comparisons, if capped."
    )
    created_at: datetime

    @classmethod
    def from_read(cls, read: ExperimentRef) -> Experiment:
        """As a comparison's read shows it (`server.page_reads.comparison_page`)."""
        return cls(
            id=strawberry.ID(read.id),
            name=read.name,
            daily_budget_cents=read.daily_budget_cents,
            created_at=read.created_at,
        )

    @classmethod
    def from_row(cls, row: ExperimentRow) -> Experiment:
        return cls(
            id=strawberry.ID(row.id),
            name=row.name,
            daily_budget_cents=optional_micros_to_cents(row.daily_budget_micros),
            created_at=row.created_at,
        )


@strawberry.input
class CreateExperimentInput:
    name: str
    daily_budget_cents: float | None = None
