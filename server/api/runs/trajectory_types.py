"""GraphQL types of a run trial's trajectory: its steps (docs/domain.md,
"Trajectories in runs"), as stored with the trial.

Stored steps were checked on the way in (`server.trajectories.steps`); every text here is
the caller's (model output, tool results): untrusted wherever it is shown.
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any, TypeAlias

import strawberry
from strawberry.scalars import JSON

from server.trajectories.steps import started_at


class TrajectoryStepKindEnum(StrEnum):
    AGENT = "AGENT"
    LLM = "LLM"
    TOOL = "TOOL"
    RETRIEVAL = "RETRIEVAL"
    OTHER = "OTHER"


class TrajectoryStepStatusEnum(StrEnum):
    OK = "OK"
    ERROR = "ERROR"


strawberry.enum(TrajectoryStepKindEnum, name="TrajectoryStepKind")
TrajectoryStepKind: TypeAlias = TrajectoryStepKindEnum
strawberry.enum(TrajectoryStepStatusEnum, name="TrajectoryStepStatus")
TrajectoryStepStatus: TypeAlias = TrajectoryStepStatusEnum


@strawberry.type(description="A tool call a model asked for.")
class TrajectoryToolCall:
    id: str | None
    name: str
    arguments: JSON | None

    @classmethod
    def from_json(cls, call: dict[str, Any]) -> TrajectoryToolCall:
        return cls(id=call.get("id"), name=str(call.get("name")), arguments=call.get("arguments"))


@strawberry.type(description="A message a model was given or answered.")
class TrajectoryMessage:
    role: str
    content: str | None
    tool_calls: list[TrajectoryToolCall]

    @classmethod
    def from_json(cls, message: dict[str, Any]) -> TrajectoryMessage:
        return cls(
            role=str(message.get("role")),
            content=message.get("content"),
            tool_calls=[TrajectoryToolCall.from_json(c) for c in message.get("toolCalls") or ()],
        )


@strawberry.type(
    description="One step an agent took (docs/domain.md): an LLM call's fields for `LLM`, a "
    "tool's for `TOOL`."
)
class TrajectoryStep:
    id: str | None
    kind: TrajectoryStepKind
    name: str
    started_at: datetime | None
    duration_ms: float | None
    status: TrajectoryStepStatus
    error_type: str | None
    provider: str | None
    model: str | None
    input_messages: list[TrajectoryMessage]
    output_messages: list[TrajectoryMessage]
    finish_reasons: list[str]
    input_tokens: int | None
    output_tokens: int | None
    cost_cents: float | None
    tool_name: str | None
    tool_call_id: str | None
    arguments: JSON | None
    result: JSON | None
    parent_id: str | None

    @classmethod
    def from_json(cls, step: dict[str, Any]) -> TrajectoryStep:
        return cls(
            id=step.get("id"),
            kind=TrajectoryStepKindEnum(step["kind"]),
            name=str(step["name"]),
            started_at=started_at(step.get("startedAt")),
            duration_ms=step.get("durationMs"),
            status=TrajectoryStepStatusEnum(step.get("status") or "OK"),
            error_type=step.get("errorType"),
            provider=step.get("provider"),
            model=step.get("model"),
            input_messages=_messages(step.get("inputMessages")),
            output_messages=_messages(step.get("outputMessages")),
            finish_reasons=list(step.get("finishReasons") or ()),
            input_tokens=step.get("inputTokens"),
            output_tokens=step.get("outputTokens"),
            cost_cents=step.get("costCents"),
            tool_name=step.get("toolName"),
            tool_call_id=step.get("toolCallId"),
            arguments=step.get("arguments"),
            result=step.get("result"),
            parent_id=step.get("parentId"),
        )


def _messages(raw: Any) -> list[TrajectoryMessage]:
    return [TrajectoryMessage.from_json(m) for m in raw or ()]


def trajectory_of(trial: dict[str, Any]) -> list[TrajectoryStep] | None:
    steps = trial.get("trajectory")
    return None if not isinstance(steps, list) else [TrajectoryStep.from_json(s) for s in steps]
