"""GraphQL types of a run trial's trajectory: its steps (docs/domain.md,
"Trajectories in runs"), as stored with the trial.

Stored steps were checked on the way in (`server.trajectories.steps`); every text here is
the caller's (model output, tool results): untrusted wherever it is shown.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from enum import StrEnum
from typing import Any, TypeAlias

import strawberry
from strawberry.scalars import JSON

from server.api.step_shape import (
    MessageShape,
    StepShape,
    ToolCallShape,
    shown_as_they_are,
    step_shape,
)


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
    def of(cls, call: ToolCallShape) -> TrajectoryToolCall:
        return cls(id=call.id, name=call.name, arguments=call.arguments)


@strawberry.type(description="A message a model was given or answered.")
class TrajectoryMessage:
    role: str
    content: str | None
    tool_calls: list[TrajectoryToolCall]

    @classmethod
    def of(cls, message: MessageShape) -> TrajectoryMessage:
        return cls(
            role=message.role,
            content=message.content,
            tool_calls=[TrajectoryToolCall.of(c) for c in message.tool_calls],
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
    def of(cls, step: StepShape) -> TrajectoryStep:
        return cls(
            id=step.id,
            kind=TrajectoryStepKindEnum(step.kind),
            started_at=step.started_at,
            duration_ms=step.duration_ms,
            status=TrajectoryStepStatusEnum(step.status),
            input_messages=[TrajectoryMessage.of(m) for m in step.input_messages],
            output_messages=[TrajectoryMessage.of(m) for m in step.output_messages],
            parent_id=step.parent_id,
            **shown_as_they_are(step),
        )

    @classmethod
    def from_json(cls, step: Mapping[str, Any]) -> TrajectoryStep:
        """A stored step document (`server.api.step_shape`, the one step shape)."""
        return cls.of(step_shape(step))


def trajectory_of(trial: dict[str, Any]) -> list[TrajectoryStep] | None:
    steps = trial.get("trajectory")
    return None if not isinstance(steps, list) else [TrajectoryStep.from_json(s) for s in steps]
