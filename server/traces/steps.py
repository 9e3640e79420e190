"""One step shape from three conventions (docs/traces.md): a span as written by the OpenTelemetry
GenAI semantic conventions (current `gen_ai.input.messages`, the older `gen_ai.prompt.N.*` /
`gen_ai.completion.N.*` attributes and `gen_ai.*.message` events), OpenInference
(`openinference.span.kind`, `llm.*`, `tool.*`) or OpenLLMetry (`traceloop.*`), as a `Step`.
Pure: no I/O; the field names are the API's."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from server.traces.attributes import Attributes, first_value, int_value, json_value, text_value
from server.traces.messages import Message, ToolCall, input_messages, output_messages
from server.traces.spans import ReceivedSpan

KINDS = ("AGENT", "LLM", "TOOL", "RETRIEVAL", "OTHER")

PriceOf = Callable[[str], tuple[int, int] | None]
"""A model's (input, output) micro-dollars per million tokens, or None when unpriced."""


@dataclass(frozen=True, slots=True)
class Step:
    """A span as a step; `id` is its span id, which children's `parentId` names."""

    id: str
    kind: str
    name: str
    startedAt: datetime  # the API's field names, as docs/traces.md writes them
    durationMs: float
    status: str
    errorType: str | None = None
    provider: str | None = None
    model: str | None = None
    inputMessages: list[Message] = field(default_factory=list)
    outputMessages: list[Message] = field(default_factory=list)
    finishReasons: list[str] = field(default_factory=list)
    inputTokens: int | None = None
    outputTokens: int | None = None
    costCents: float | None = None
    toolName: str | None = None
    toolCallId: str | None = None
    arguments: Any = None
    result: Any = None
    parentId: str | None = None
    attributes: Attributes = field(default_factory=dict)
    """An OTHER step's attributes (the others' are read into the fields above)."""


def step_of(span: ReceivedSpan, price_of: PriceOf | None = None) -> Step:
    """The step a span is, priced by `price_of` when it is an LLM call."""
    attrs = span.attributes
    kind = kind_of(attrs)
    base: dict[str, Any] = {
        "id": span.span_id,
        "kind": kind,
        "name": span.name,
        "startedAt": datetime.fromtimestamp(span.start_unix_nano / 1e9, tz=UTC),
        "durationMs": round((span.end_unix_nano - span.start_unix_nano) / 1e6, 3),
        "status": "ERROR" if span.error else "OK",
        "errorType": _error_type(span),
        "parentId": span.parent_span_id,
    }
    if kind == "LLM":
        return Step(**base, **_llm_fields(span, price_of))
    if kind == "TOOL":
        return Step(**base, **_tool_fields(span))
    if kind == "OTHER":
        return Step(**base, attributes=dict(attrs))
    return Step(
        **base, model=text_value(first_value(attrs, "gen_ai.request.model", "llm.model_name"))
    )


_STEP_FIELDS = tuple(Step.__dataclass_fields__)


def step_document(step: Step) -> dict[str, Any]:
    """The step as stored (JSON): its fields, `startedAt` in ISO 8601. Built field by field,
    not by `asdict`, which deep-copies every attribute and argument (the document is only
    serialized, so sharing them is safe)."""
    document = {name: getattr(step, name) for name in _STEP_FIELDS}
    document["startedAt"] = step.startedAt.isoformat()
    document["inputMessages"] = [_message_document(m) for m in step.inputMessages]
    document["outputMessages"] = [_message_document(m) for m in step.outputMessages]
    document["finishReasons"] = list(step.finishReasons)
    return document


def _message_document(message: Message) -> dict[str, Any]:
    return {
        "role": message.role,
        "content": message.content,
        "toolCalls": [
            {"id": call.id, "name": call.name, "arguments": call.arguments}
            for call in message.toolCalls
        ],
    }


def step_from_document(document: Mapping[str, Any]) -> Step:
    """A stored step back as a `Step`."""
    values = dict(document)
    values["startedAt"] = datetime.fromisoformat(values["startedAt"])
    values["inputMessages"] = [_message_from(m) for m in values.get("inputMessages") or []]
    values["outputMessages"] = [_message_from(m) for m in values.get("outputMessages") or []]
    known = set(Step.__dataclass_fields__)
    return Step(**{k: v for k, v in values.items() if k in known})


def _message_from(document: Mapping[str, Any]) -> Message:
    calls = [ToolCall(**call) for call in document.get("toolCalls") or []]
    return Message(role=document["role"], content=document.get("content"), toolCalls=calls)


_GENAI_OPERATIONS = {
    "chat": "LLM",
    "text_completion": "LLM",
    "generate_content": "LLM",
    "invoke_agent": "AGENT",
    "create_agent": "AGENT",
    "execute_tool": "TOOL",
    "retrieval": "RETRIEVAL",
}
_OPENINFERENCE_KINDS = {
    "LLM": "LLM",
    "AGENT": "AGENT",
    "TOOL": "TOOL",
    "RETRIEVER": "RETRIEVAL",
    "RERANKER": "RETRIEVAL",
}
_TRACELOOP_KINDS = {"agent": "AGENT", "workflow": "AGENT", "tool": "TOOL"}


def kind_of(attrs: Attributes) -> str:
    """`AGENT | LLM | TOOL | RETRIEVAL | OTHER` from whichever convention the span follows."""
    found = _OPENINFERENCE_KINDS.get(str(attrs.get("openinference.span.kind", "")).upper())
    found = found or _GENAI_OPERATIONS.get(str(attrs.get("gen_ai.operation.name", "")))
    found = found or _TRACELOOP_KINDS.get(str(attrs.get("traceloop.span.kind", "")))
    if found is None and str(attrs.get("llm.request.type", "")) in ("chat", "completion"):
        found = "LLM"
    return found or "OTHER"


def _llm_fields(span: ReceivedSpan, price_of: PriceOf | None) -> dict[str, Any]:
    attrs = span.attributes
    model = text_value(
        first_value(attrs, "gen_ai.response.model", "gen_ai.request.model", "llm.model_name")
    )
    inputs = input_messages(attrs, span.events)
    outputs, reasons = output_messages(attrs, span.events)
    input_tokens = int_value(
        first_value(
            attrs,
            "gen_ai.usage.input_tokens",
            "gen_ai.usage.prompt_tokens",
            "llm.token_count.prompt",
            "llm.usage.prompt_tokens",
        )
    )
    output_tokens = int_value(
        first_value(
            attrs,
            "gen_ai.usage.output_tokens",
            "gen_ai.usage.completion_tokens",
            "llm.token_count.completion",
            "llm.usage.completion_tokens",
        )
    )
    listed = attrs.get("gen_ai.response.finish_reasons")
    if isinstance(listed, list) and listed:
        reasons = [str(r) for r in listed]
    cost = None
    prices = price_of(model) if (price_of is not None and model) else None
    if prices is not None:
        micros = ((input_tokens or 0) * prices[0] + (output_tokens or 0) * prices[1]) / 1e6
        cost = round(micros / 10_000, 6)
    return {
        "provider": text_value(
            first_value(
                attrs, "gen_ai.provider.name", "gen_ai.system", "llm.provider", "llm.system"
            )
        ),
        "model": model,
        "inputMessages": inputs,
        "outputMessages": outputs,
        "finishReasons": reasons,
        "inputTokens": input_tokens,
        "outputTokens": output_tokens,
        "costCents": cost,
    }


def _tool_fields(span: ReceivedSpan) -> dict[str, Any]:
    attrs = span.attributes
    name = first_value(attrs, "gen_ai.tool.name", "tool.name")
    if name is None and "traceloop.span.kind" in attrs:
        name = attrs.get("traceloop.entity.name")
    arguments = first_value(
        attrs,
        "gen_ai.tool.call.arguments",
        "tool.parameters",
        "input.value",
        "traceloop.entity.input",
    )
    result = first_value(
        attrs, "gen_ai.tool.call.result", "output.value", "traceloop.entity.output"
    )
    return {
        "toolName": text_value(name) or span.name,
        "toolCallId": text_value(
            first_value(attrs, "gen_ai.tool.call.id", "tool_call.id", "tool.id")
        ),
        "arguments": json_value(arguments),
        "result": json_value(result),
    }


def _error_type(span: ReceivedSpan) -> str | None:
    named = span.attributes.get("error.type")
    if named is not None:
        return str(named)
    for event in span.events:
        if event.name == "exception" and "exception.type" in event.attributes:
            return str(event.attributes["exception.type"])
    if span.error:
        return span.status_message[:200] or "error"
    return None
