"""A trace's summary from its spans as steps (docs/traces.md): what the list shows and filters on.
Pure: no I/O."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from server.traces.steps import Step

FEEDBACK_PREFIX = "shipwise.feedback."
LIST_TEXT_CHARS = 4_000
"""The list's input and output are cut to this many characters (the trace keeps its steps)."""


@dataclass(slots=True)
class StoredSpan:
    """A stored span as the summary reads it: its step and its attributes. Not `frozen`, as
    `ReceivedSpan` (server/traces/spans.py) is not: one is built a span."""

    step: Step
    service: str | None
    attributes: Mapping[str, Any]
    resource: Mapping[str, Any]


@dataclass(slots=True)
class TraceSummary:
    """Made once a trace, read once into its row's columns (`summary_columns`)."""

    service: str | None
    release: str | None
    started_at: datetime
    duration_ms: float
    status: str
    root_name: str | None
    input: str | None
    output: str | None
    models: list[str]
    step_count: int
    llm_calls: int
    tool_calls: int
    input_tokens: int
    output_tokens: int
    cost_micros: int
    case_id: str | None
    expected: str | None
    span_feedback: list[dict[str, Any]] = field(default_factory=list)


def summarize(spans: Sequence[StoredSpan]) -> TraceSummary:
    """The summary of a trace's spans (at least one)."""
    ordered = sorted(spans, key=lambda s: (s.step.startedAt, s.step.id))
    steps = [s.step for s in ordered]
    ids = {s.id for s in steps}
    roots = [s for s in ordered if s.step.parentId is None or s.step.parentId not in ids]
    first = roots[0] if roots else ordered[0]
    start = steps[0].startedAt
    end = max(s.startedAt + timedelta(milliseconds=s.durationMs) for s in steps)
    llm = [s for s in steps if s.kind == "LLM"]
    return TraceSummary(
        service=first.service or next((s.service for s in ordered if s.service), None),
        release=_release(first, ordered),
        started_at=start,
        duration_ms=round((end - start) / timedelta(milliseconds=1), 3),
        status="ERROR" if any(s.status == "ERROR" for s in steps) else "OK",
        root_name=first.step.name,
        input=_cut(_first_user_text(llm) or _text_attr(first.attributes, "input.value")),
        output=_cut(_last_assistant_text(llm) or _text_attr(first.attributes, "output.value")),
        models=list(dict.fromkeys(s.model for s in llm if s.model)),
        step_count=len(steps),
        llm_calls=len(llm),
        tool_calls=_tool_call_count(steps),
        input_tokens=sum(s.inputTokens or 0 for s in llm),
        output_tokens=sum(s.outputTokens or 0 for s in llm),
        cost_micros=round(sum(s.costCents or 0.0 for s in llm) * 10_000),
        case_id=_attr_of_any(ordered, "shipwise.case_id"),
        expected=_attr_of_any(ordered, "shipwise.expected"),
        span_feedback=_span_feedback(ordered),
    )


SUMMARY_FIELDS = tuple(TraceSummary.__dataclass_fields__)


def summary_columns(spans: Sequence[StoredSpan]) -> dict[str, Any]:
    """The `trace` row's summary columns of these spans: the summary's fields (taken as they
    are, not through `asdict`'s deep copy), the models as one key and whether any span scored."""
    summary = summarize(spans)
    columns = {name: getattr(summary, name) for name in SUMMARY_FIELDS}
    columns["model_key"] = "|".join(summary.models)[:500] or None
    columns["has_feedback"] = bool(summary.span_feedback)
    return columns


def _release(first: StoredSpan, ordered: Sequence[StoredSpan]) -> str | None:
    return _attr_of_any([first, *ordered], "shipwise.release") or _text_attr(
        first.resource, "service.version"
    )


def _attr_of_any(spans: Sequence[StoredSpan], key: str) -> str | None:
    for span in spans:
        found = _text_attr(span.attributes, key) or _text_attr(span.resource, key)
        if found:
            return found
    return None


def _text_attr(attrs: Mapping[str, Any], key: str) -> str | None:
    value = attrs.get(key)
    if value is None or value == "":
        return None
    return value if isinstance(value, str) else str(value)


def _first_user_text(llm: Sequence[Step]) -> str | None:
    for step in llm:
        for message in step.inputMessages:
            if message.role == "user" and message.content:
                return message.content
    return None


def _last_assistant_text(llm: Sequence[Step]) -> str | None:
    for step in reversed(llm):
        for message in reversed(step.outputMessages):
            if message.content:
                return message.content
    return None


def _tool_call_count(steps: Sequence[Step]) -> int:
    """TOOL steps, plus the calls models asked for that no TOOL step answers (an app that
    instruments only its model client still shows its tool calls). A TOOL step without a
    call id (OpenLLMetry's) answers one asked call of its tool's name."""
    tools = [s for s in steps if s.kind == "TOOL"]
    asked = {
        call.id or f"{step.id}:{n}": call.name
        for step in steps
        if step.kind == "LLM"
        for message in step.outputMessages
        for n, call in enumerate(message.toolCalls)
    }
    for tool in tools:
        if tool.toolCallId in asked:
            del asked[tool.toolCallId]
        elif tool.toolCallId is None:
            same = next((k for k, name in asked.items() if name == tool.toolName), None)
            if same is not None:
                del asked[same]
    return len(tools) + len(asked)


def _span_feedback(spans: Sequence[StoredSpan]) -> list[dict[str, Any]]:
    found = []
    for span in spans:
        for key, value in span.attributes.items():
            if not key.startswith(FEEDBACK_PREFIX) or isinstance(value, bool):
                continue
            if isinstance(value, int | float):
                name = key[len(FEEDBACK_PREFIX) :]
                found.append({"name": name, "value": float(value), "spanId": span.step.id})
    return found


def _cut(text: str | None) -> str | None:
    if text is None or len(text) <= LIST_TEXT_CHARS:
        return text
    return text[:LIST_TEXT_CHARS] + "…"
