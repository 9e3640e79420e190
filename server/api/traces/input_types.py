"""GraphQL inputs of traces: the list's filter and model prices."""

from __future__ import annotations

from datetime import datetime

import strawberry

from server.api.traces.types import TraceStatus
from server.traces.prices import PriceInput
from server.traces.reads import TraceFilter as TraceFilterValue


@strawberry.input(description="Every field given must hold (AND).")
class TraceFilter:
    service: str | None = None
    release: str | None = None
    model: str | None = strawberry.field(default=None, description="One of the models called.")
    status: TraceStatus | None = None
    case_id: str | None = None
    search: str | None = strawberry.field(
        default=None, description="Text in the input, output or root name; or a trace id."
    )
    started_after: datetime | None = None
    started_before: datetime | None = None
    has_feedback: bool | None = None
    min_duration_ms: float | None = None

    def to_value(self) -> TraceFilterValue:
        return TraceFilterValue(
            service=self.service,
            release=self.release,
            model=self.model,
            status=self.status.value if self.status is not None else None,
            case_id=self.case_id,
            search=self.search,
            started_after=self.started_after,
            started_before=self.started_before,
            has_feedback=self.has_feedback,
            min_duration_ms=self.min_duration_ms,
        )


@strawberry.input
class ModelPriceInput:
    model: str
    input_cents_per_million_tokens: float
    output_cents_per_million_tokens: float

    def to_value(self) -> PriceInput:
        return PriceInput(
            model=self.model,
            input_cents_per_million_tokens=self.input_cents_per_million_tokens,
            output_cents_per_million_tokens=self.output_cents_per_million_tokens,
        )
