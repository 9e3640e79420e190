"""GraphQL types of traces: a trace, its steps (the step shape of docs/traces.md), feedback,
stats and model prices."""

from __future__ import annotations

from datetime import UTC, datetime
from enum import Enum
from typing import cast

import strawberry
from strawberry.scalars import JSON

from server.api.context import Context
from server.api.step_shape import (
    MessageShape,
    StepShape,
    ToolCallShape,
    shown_as_they_are,
    step_shape,
)
from server.money import micros_to_cents
from server.traces import reads
from server.traces.models import ModelPrice as ModelPriceRow
from server.traces.models import Trace as TraceRow
from server.traces.reads import FeedbackRead, TraceRead, TraceStatsRow
from server.traces.steps import step_document

_EPOCH = datetime.fromtimestamp(0, tz=UTC)


@strawberry.enum(description="What a step did: `OTHER` for a span no convention names.")
class TraceStepKind(Enum):
    AGENT = "AGENT"
    LLM = "LLM"
    TOOL = "TOOL"
    RETRIEVAL = "RETRIEVAL"
    OTHER = "OTHER"


@strawberry.enum(description="A span's or a trace's status (ERROR: any step failed).")
class TraceStatus(Enum):
    OK = "OK"
    ERROR = "ERROR"


@strawberry.enum
class TraceGroupBy(Enum):
    RELEASE = "RELEASE"
    MODEL = "MODEL"
    SERVICE = "SERVICE"


@strawberry.type
class TraceToolCall:
    id: str | None
    name: str
    arguments: JSON | None = strawberry.field(description="As the model wrote them (parsed).")

    @classmethod
    def of(cls, call: ToolCallShape) -> TraceToolCall:
        return cls(id=call.id, name=call.name, arguments=call.arguments)


@strawberry.type(description="A message in or out of a model call: untrusted text.")
class TraceMessage:
    role: str
    content: str | None
    tool_calls: list[TraceToolCall]

    @classmethod
    def of(cls, message: MessageShape) -> TraceMessage:
        return cls(
            role=message.role,
            content=message.content,
            tool_calls=[TraceToolCall.of(c) for c in message.tool_calls],
        )


@strawberry.type(description="A span as a step: the LLM and TOOL fields when it is one.")
class TraceStep:
    id: strawberry.ID = strawberry.field(description="The span id (hex).")
    kind: TraceStepKind
    name: str
    started_at: datetime
    duration_ms: float
    status: TraceStatus
    error_type: str | None
    provider: str | None
    model: str | None
    input_messages: list[TraceMessage]
    output_messages: list[TraceMessage]
    finish_reasons: list[str]
    input_tokens: int | None
    output_tokens: int | None
    cost_cents: float | None
    tool_name: str | None
    tool_call_id: str | None
    arguments: JSON | None
    result: JSON | None
    parent_id: strawberry.ID | None = strawberry.field(description="The parent step's id.")
    attributes: JSON = strawberry.field(description="An OTHER step's span attributes.")

    @classmethod
    def of(cls, step: StepShape) -> TraceStep:
        """A stored span's step (its `startedAt` and `durationMs` are always there)."""
        return cls(
            id=strawberry.ID(step.id or ""),
            kind=TraceStepKind(step.kind),
            started_at=step.started_at or _EPOCH,
            duration_ms=step.duration_ms or 0.0,
            status=TraceStatus(step.status),
            input_messages=[TraceMessage.of(m) for m in step.input_messages],
            output_messages=[TraceMessage.of(m) for m in step.output_messages],
            **shown_as_they_are(step),
            parent_id=strawberry.ID(step.parent_id) if step.parent_id else None,
            attributes=cast(JSON, step.attributes),
        )


@strawberry.type
class TraceFeedback:
    name: str
    value: float
    comment: str | None
    source: str = strawberry.field(
        description="API (scoreTrace) or SPAN (a `shipwise.feedback.<name>` span attribute)."
    )
    created_at: datetime | None

    @classmethod
    def of(cls, feedback: FeedbackRead) -> TraceFeedback:
        return cls(
            name=feedback.name,
            value=feedback.value,
            comment=feedback.comment,
            source=feedback.source,
            created_at=feedback.created_at,
        )


@strawberry.type(description="An ingested OpenTelemetry trace; its texts are untrusted.")
class Trace:
    id: strawberry.ID = strawberry.field(description="The hex trace id.")
    service: str | None
    release: str | None = strawberry.field(
        description="The `shipwise.release` attribute, else `service.version`."
    )
    started_at: datetime
    duration_ms: float
    status: TraceStatus
    root_name: str | None
    input: str | None = strawberry.field(description="The first user message.")
    output: str | None = strawberry.field(description="The last assistant text.")
    models: list[str]
    step_count: int
    llm_calls: int
    tool_calls: int
    input_tokens: int
    output_tokens: int
    cost_cents: float
    case_id: str | None = strawberry.field(description="The `shipwise.case_id` attribute.")
    expected: str | None = strawberry.field(description="The `shipwise.expected` attribute.")
    has_feedback: bool
    read: strawberry.Private[TraceRead | None] = None

    @strawberry.field(description="The span tree in start order, each with its `parentId`.")
    async def steps(self, info: strawberry.Info[Context]) -> list[TraceStep]:
        found = await self._read(info)
        return [TraceStep.of(step_shape(step_document(step))) for step in found.steps]

    @strawberry.field
    async def feedback(self, info: strawberry.Info[Context]) -> list[TraceFeedback]:
        found = await self._read(info)
        return [TraceFeedback.of(f) for f in found.feedback]

    async def _read(self, info: strawberry.Info[Context]) -> TraceRead:
        if self.read is None:
            actor = info.context.require()
            async with info.context.read() as session:
                self.read = await reads.get_trace(
                    session=session, workspace_id=actor.workspace_id, trace_id=str(self.id)
                )
        return self.read

    @classmethod
    def from_row(cls, row: TraceRow, read: TraceRead | None = None) -> Trace:
        return cls(
            id=strawberry.ID(row.id),
            service=row.service,
            release=row.release,
            started_at=row.started_at,
            duration_ms=row.duration_ms,
            status=TraceStatus(row.status),
            root_name=row.root_name,
            input=row.input,
            output=row.output,
            models=list(row.models or []),
            step_count=row.step_count,
            llm_calls=row.llm_calls,
            tool_calls=row.tool_calls,
            input_tokens=row.input_tokens,
            output_tokens=row.output_tokens,
            cost_cents=micros_to_cents(row.cost_micros),
            case_id=row.case_id,
            expected=row.expected,
            has_feedback=row.has_feedback,
            read=read,
        )

    @classmethod
    def from_read(cls, read: TraceRead) -> Trace:
        return cls.from_row(read.row, read)


@strawberry.type(description="Traces' figures for one release, model or service.")
class TraceStats:
    key: str | None
    traces: int
    error_rate: float
    latency_p50_ms: float
    latency_p95_ms: float
    input_tokens: int
    output_tokens: int
    cost_cents: float

    @classmethod
    def of(cls, row: TraceStatsRow) -> TraceStats:
        return cls(
            key=row.key,
            traces=row.traces,
            error_rate=row.error_rate,
            latency_p50_ms=row.latency_p50_ms,
            latency_p95_ms=row.latency_p95_ms,
            input_tokens=row.input_tokens,
            output_tokens=row.output_tokens,
            cost_cents=micros_to_cents(row.cost_micros),
        )


@strawberry.type(description="A model's price for traces' cost, as connections price.")
class ModelPrice:
    model: str
    input_cents_per_million_tokens: float
    output_cents_per_million_tokens: float

    @classmethod
    def from_row(cls, row: ModelPriceRow) -> ModelPrice:
        return cls(
            model=row.model,
            input_cents_per_million_tokens=micros_to_cents(row.input_micros_per_million_tokens),
            output_cents_per_million_tokens=micros_to_cents(row.output_micros_per_million_tokens),
        )
