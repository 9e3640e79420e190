"""One step shape on the resolver side (docs/traces.md, "One step shape"): a trace's span as
a step (`TraceStep`) and a run trial's trajectory step (`TrajectoryStep`) are two published
GraphQL shapes of one thing. Both are built from one `StepShape`, read by one builder from
the step's JSON document — the camelCase fields `server/traces/steps.py` stores for a span
and `server/trajectories/steps.py` checks for a trial — so the server has one step shape."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from server.trajectories.steps import started_at


@dataclass(frozen=True, slots=True)
class ToolCallShape:
    id: str | None
    name: str
    arguments: Any = None


@dataclass(frozen=True, slots=True)
class MessageShape:
    role: str
    content: str | None
    tool_calls: tuple[ToolCallShape, ...] = ()


@dataclass(frozen=True, slots=True)
class StepShape:
    """A step's fields, snake_case; absent ones None (or empty)."""

    id: str | None
    kind: str
    name: str
    started_at: datetime | None
    duration_ms: float | None
    status: str
    error_type: str | None = None
    provider: str | None = None
    model: str | None = None
    input_messages: tuple[MessageShape, ...] = ()
    output_messages: tuple[MessageShape, ...] = ()
    finish_reasons: tuple[str, ...] = ()
    input_tokens: int | None = None
    output_tokens: int | None = None
    cost_cents: float | None = None
    tool_name: str | None = None
    tool_call_id: str | None = None
    arguments: Any = None
    result: Any = None
    parent_id: str | None = None
    attributes: dict[str, Any] = field(default_factory=dict)
    """An OTHER span's attributes (a trace's steps only)."""


AS_THEY_ARE = (
    "name",
    "error_type",
    "provider",
    "model",
    "input_tokens",
    "output_tokens",
    "cost_cents",
    "tool_name",
    "tool_call_id",
    "arguments",
    "result",
)
"""The fields both published step types show as the shape holds them."""


def shown_as_they_are(step: StepShape) -> dict[str, Any]:
    """`AS_THEY_ARE` of `step`, and its finish reasons as a list, by field name."""
    return {name: getattr(step, name) for name in AS_THEY_ARE} | {
        "finish_reasons": list(step.finish_reasons)
    }


def step_shape(document: Mapping[str, Any]) -> StepShape:
    """The step of a stored (or checked) JSON document."""
    duration = document.get("durationMs")
    cost = document.get("costCents")
    return StepShape(
        id=_text(document.get("id")),
        kind=str(document["kind"]),
        name=str(document["name"]),
        started_at=started_at(document.get("startedAt")),
        duration_ms=None if duration is None else float(duration),
        status=str(document.get("status") or "OK"),
        error_type=_text(document.get("errorType")),
        provider=_text(document.get("provider")),
        model=_text(document.get("model")),
        input_messages=_messages(document.get("inputMessages")),
        output_messages=_messages(document.get("outputMessages")),
        finish_reasons=tuple(str(r) for r in document.get("finishReasons") or ()),
        input_tokens=document.get("inputTokens"),
        output_tokens=document.get("outputTokens"),
        cost_cents=None if cost is None else float(cost),
        tool_name=_text(document.get("toolName")),
        tool_call_id=_text(document.get("toolCallId")),
        arguments=document.get("arguments"),
        result=document.get("result"),
        parent_id=_text(document.get("parentId")),
        attributes=dict(document.get("attributes") or {}),
    )


def _messages(raw: Any) -> tuple[MessageShape, ...]:
    return tuple(
        MessageShape(
            role=str(message.get("role")),
            content=message.get("content"),
            tool_calls=tuple(
                ToolCallShape(
                    id=_text(call.get("id")),
                    name=str(call.get("name")),
                    arguments=call.get("arguments"),
                )
                for call in message.get("toolCalls") or ()
            ),
        )
        for message in raw or ()
    )


def _text(value: object) -> str | None:
    return None if value is None else str(value)
