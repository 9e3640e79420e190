"""One step shape from three conventions (docs/traces.md): a span as written by the OpenTelemetry
GenAI semantic conventions (current `gen_ai.input.messages`, the older `gen_ai.prompt.N.*` /
`gen_ai.completion.N.*` attributes and `gen_ai.*.message` events), OpenInference
(`openinference.span.kind`, `llm.*`, `tool.*`) or OpenLLMetry (`traceloop.*`), as a `Step`.
Pure: no I/O; the field names are the API's."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from typing import Any

from server.traces.attributes import Attributes
from server.traces.spans import ReceivedEvent, ReceivedSpan

KINDS = ("AGENT", "LLM", "TOOL", "RETRIEVAL", "OTHER")

PriceOf = Callable[[str], tuple[int, int] | None]
"""A model's (input, output) micro-dollars per million tokens, or None when unpriced."""


@dataclass(frozen=True, slots=True)
class ToolCall:
    id: str | None
    name: str
    arguments: Any = None


@dataclass(frozen=True, slots=True)
class Message:
    role: str
    content: str | None = None
    toolCalls: list[ToolCall] = field(default_factory=list)


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
    return Step(**base, model=_text(_first(attrs, "gen_ai.request.model", "llm.model_name")))


def step_document(step: Step) -> dict[str, Any]:
    """The step as stored (JSON): its fields, `startedAt` in ISO 8601."""
    document = asdict(step)
    document["startedAt"] = step.startedAt.isoformat()
    return document


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
    model = _text(_first(attrs, "gen_ai.response.model", "gen_ai.request.model", "llm.model_name"))
    inputs = input_messages(attrs, span.events)
    outputs, reasons = output_messages(attrs, span.events)
    input_tokens = _int(
        _first(
            attrs,
            "gen_ai.usage.input_tokens",
            "gen_ai.usage.prompt_tokens",
            "llm.token_count.prompt",
            "llm.usage.prompt_tokens",
        )
    )
    output_tokens = _int(
        _first(
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
        "provider": _text(
            _first(attrs, "gen_ai.provider.name", "gen_ai.system", "llm.provider", "llm.system")
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
    name = _first(attrs, "gen_ai.tool.name", "tool.name")
    if name is None and "traceloop.span.kind" in attrs:
        name = attrs.get("traceloop.entity.name")
    arguments = _first(
        attrs,
        "gen_ai.tool.call.arguments",
        "tool.parameters",
        "input.value",
        "traceloop.entity.input",
    )
    result = _first(attrs, "gen_ai.tool.call.result", "output.value", "traceloop.entity.output")
    return {
        "toolName": _text(name) or span.name,
        "toolCallId": _text(_first(attrs, "gen_ai.tool.call.id", "tool_call.id", "tool.id")),
        "arguments": _json_value(arguments),
        "result": _json_value(result),
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


# Messages -------------------------------------------------------------------------------


def input_messages(attrs: Attributes, events: tuple[ReceivedEvent, ...] = ()) -> list[Message]:
    """The call's input messages from the first convention that has them."""
    current = _parsed_list(attrs.get("gen_ai.input.messages"))
    if current is not None:
        system = _parsed_list(attrs.get("gen_ai.system_instructions")) or []
        instructions = _parts_text(system)
        head = [Message(role="system", content=instructions)] if instructions else []
        return head + [_message_of_parts(m) for m in current]
    for prefix, reader in (("gen_ai.prompt.", _flat_message), ("llm.input_messages.", _oi_message)):
        indexed = _indexed(attrs, prefix)
        if indexed:
            return [reader(fields) for fields in indexed]
    return [m for m in (_event_message(e) for e in events if e.name != "gen_ai.choice") if m]


def output_messages(
    attrs: Attributes, events: tuple[ReceivedEvent, ...] = ()
) -> tuple[list[Message], list[str]]:
    """The call's output messages and finish reasons from the first convention that has them."""
    current = _parsed_list(attrs.get("gen_ai.output.messages"))
    if current is not None:
        reasons = [str(m["finish_reason"]) for m in current if m.get("finish_reason")]
        return [_message_of_parts(m) for m in current], reasons
    indexed = _indexed(attrs, "gen_ai.completion.")
    if indexed:
        reasons = [str(f["finish_reason"]) for f in indexed if f.get("finish_reason")]
        return [_flat_message(fields, "assistant") for fields in indexed], reasons
    indexed = _indexed(attrs, "llm.output_messages.")
    if indexed:
        return [_oi_message(fields) for fields in indexed], []
    messages: list[Message] = []
    reasons = []
    for event in events:
        if event.name != "gen_ai.choice":
            continue
        message = event.attributes.get("message")
        fields = _as_mapping(message) or {}
        messages.append(
            Message(
                role=str(fields.get("role") or "assistant"),
                content=_text(fields.get("content")),
                toolCalls=_openai_tool_calls(fields.get("tool_calls")),
            )
        )
        if event.attributes.get("finish_reason"):
            reasons.append(str(event.attributes["finish_reason"]))
    return messages, reasons


def _message_of_parts(message: Mapping[str, Any]) -> Message:
    """A GenAI semconv message: `{role, parts: [{type: text|tool_call|tool_call_response}]}`."""
    parts = message.get("parts") or []
    texts: list[str] = []
    calls: list[ToolCall] = []
    for part in parts if isinstance(parts, list) else []:
        if not isinstance(part, Mapping):
            continue
        kind = part.get("type")
        if kind == "tool_call":
            calls.append(
                ToolCall(
                    id=_text(part.get("id")),
                    name=str(part.get("name") or ""),
                    arguments=_json_value(part.get("arguments")),
                )
            )
        elif kind == "tool_call_response":
            texts.append(_as_text(part.get("response")))
        elif part.get("content") is not None:
            texts.append(_as_text(part.get("content")))
    return Message(
        role=str(message.get("role") or "user"),
        content="".join(texts) if texts else None,
        toolCalls=calls,
    )


def _flat_message(fields: Mapping[str, Any], role: str = "user") -> Message:
    """OpenLLMetry's older `gen_ai.prompt.N.{role,content,tool_calls.M.{id,name,arguments}}`."""
    calls = [
        ToolCall(
            id=_text(call.get("id")),
            name=str(call.get("name") or ""),
            arguments=_json_value(call.get("arguments")),
        )
        for call in _indexed(fields, "tool_calls.")
    ]
    return Message(
        role=str(fields.get("role") or role), content=_text(fields.get("content")), toolCalls=calls
    )


def _oi_message(fields: Mapping[str, Any]) -> Message:
    """OpenInference's `llm.input_messages.N.message.{role,content,contents,tool_calls}`."""
    content = _text(fields.get("message.content"))
    if content is None:
        pieces = [
            str(part["message_content.text"])
            for part in _indexed(fields, "message.contents.")
            if part.get("message_content.text") is not None
        ]
        content = "".join(pieces) if pieces else None
    calls = [
        ToolCall(
            id=_text(call.get("tool_call.id")),
            name=str(call.get("tool_call.function.name") or ""),
            arguments=_json_value(call.get("tool_call.function.arguments")),
        )
        for call in _indexed(fields, "message.tool_calls.")
    ]
    return Message(role=str(fields.get("message.role") or "user"), content=content, toolCalls=calls)


_EVENT_ROLES = {
    "gen_ai.system.message": "system",
    "gen_ai.user.message": "user",
    "gen_ai.assistant.message": "assistant",
    "gen_ai.tool.message": "tool",
}


def _event_message(event: ReceivedEvent) -> Message | None:
    """The older semconv's `gen_ai.{system,user,assistant,tool}.message` span events."""
    role = _EVENT_ROLES.get(event.name)
    if role is None:
        return None
    attrs = event.attributes
    return Message(
        role=str(attrs.get("role") or role),
        content=_text(attrs.get("content")),
        toolCalls=_openai_tool_calls(attrs.get("tool_calls")),
    )


def _openai_tool_calls(value: object) -> list[ToolCall]:
    """`[{id, type, function: {name, arguments}}]`, as a list or its JSON text."""
    listed = _parsed_list(value) or []
    calls = []
    for call in listed:
        if not isinstance(call, Mapping):
            continue
        function = _as_mapping(call.get("function")) or {}
        calls.append(
            ToolCall(
                id=_text(call.get("id")),
                name=str(function.get("name") or call.get("name") or ""),
                arguments=_json_value(function.get("arguments", call.get("arguments"))),
            )
        )
    return calls


# Values ---------------------------------------------------------------------------------


def _indexed(attrs: Mapping[str, Any], prefix: str) -> list[dict[str, Any]]:
    """`prefix.N.rest = v` pairs as one dict of `rest → v` per N, in N's order."""
    found: dict[int, dict[str, Any]] = {}
    for key, value in attrs.items():
        if not key.startswith(prefix):
            continue
        index, _, rest = key[len(prefix) :].partition(".")
        if index.isdigit() and rest:
            found.setdefault(int(index), {})[rest] = value
    return [found[i] for i in sorted(found)]


def _first(attrs: Mapping[str, Any], *keys: str) -> Any:
    for key in keys:
        value = attrs.get(key)
        if value is not None and value != "":
            return value
    return None


def _text(value: object) -> str | None:
    if value is None:
        return None
    return value if isinstance(value, str) else _as_text(value)


def _as_text(value: object) -> str:
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, default=str)


def _int(value: object) -> int | None:
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int):
        return value
    try:
        return int(float(str(value)))
    except ValueError:
        return None


def _json_value(value: object) -> Any:
    """JSON text parsed; anything else (or text that is not JSON) as it is."""
    if isinstance(value, str):
        try:
            return json.loads(value)
        except ValueError:
            return value
    return value


def _parsed_list(value: object) -> list[Any] | None:
    parsed = _json_value(value)
    return parsed if isinstance(parsed, list) else None


def _as_mapping(value: object) -> Mapping[str, Any] | None:
    parsed = _json_value(value)
    return parsed if isinstance(parsed, Mapping) else None


def _parts_text(parts: list[Any]) -> str:
    return "".join(
        _as_text(p.get("content")) for p in parts if isinstance(p, Mapping) and p.get("content")
    )
