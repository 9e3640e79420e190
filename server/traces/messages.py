"""A model call's input and output messages as the three conventions write them
(docs/traces.md): the current GenAI `gen_ai.input.messages` / `gen_ai.output.messages`, the
older indexed `gen_ai.prompt.N.*` / `gen_ai.completion.N.*` attributes and `gen_ai.*.message`
events, OpenInference's `llm.input_messages.N.*`. Pure: no I/O; the field names are the
API's (`server.traces.steps` makes a step's messages with these). The values read are parsed
JSON or OTLP values, so a mapping among them is a `dict` (checked as one: `isinstance` against
the `Mapping` ABC cost ~1 µs a part)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from server.traces.attributes import Attributes, as_text, json_value, text_value
from server.traces.spans import ReceivedEvent


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
                content=text_value(fields.get("content")),
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
        if not isinstance(part, dict):
            continue
        kind = part.get("type")
        if kind == "tool_call":
            calls.append(
                ToolCall(
                    id=text_value(part.get("id")),
                    name=str(part.get("name") or ""),
                    arguments=json_value(part.get("arguments")),
                )
            )
        elif kind == "tool_call_response":
            texts.append(as_text(part.get("response")))
        elif part.get("content") is not None:
            texts.append(as_text(part.get("content")))
    return Message(
        role=str(message.get("role") or "user"),
        content="".join(texts) if texts else None,
        toolCalls=calls,
    )


def _flat_message(fields: Mapping[str, Any], role: str = "user") -> Message:
    """OpenLLMetry's older `gen_ai.prompt.N.{role,content,tool_calls.M.{id,name,arguments}}`."""
    calls = [
        ToolCall(
            id=text_value(call.get("id")),
            name=str(call.get("name") or ""),
            arguments=json_value(call.get("arguments")),
        )
        for call in _indexed(fields, "tool_calls.")
    ]
    return Message(
        role=str(fields.get("role") or role),
        content=text_value(fields.get("content")),
        toolCalls=calls,
    )


def _oi_message(fields: Mapping[str, Any]) -> Message:
    """OpenInference's `llm.input_messages.N.message.{role,content,contents,tool_calls}`."""
    content = text_value(fields.get("message.content"))
    if content is None:
        pieces = [
            str(part["message_content.text"])
            for part in _indexed(fields, "message.contents.")
            if part.get("message_content.text") is not None
        ]
        content = "".join(pieces) if pieces else None
    calls = [
        ToolCall(
            id=text_value(call.get("tool_call.id")),
            name=str(call.get("tool_call.function.name") or ""),
            arguments=json_value(call.get("tool_call.function.arguments")),
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
        content=text_value(attrs.get("content")),
        toolCalls=_openai_tool_calls(attrs.get("tool_calls")),
    )


def _openai_tool_calls(value: object) -> list[ToolCall]:
    """`[{id, type, function: {name, arguments}}]`, as a list or its JSON text."""
    listed = _parsed_list(value) or []
    calls = []
    for call in listed:
        if not isinstance(call, dict):
            continue
        function = _as_mapping(call.get("function")) or {}
        calls.append(
            ToolCall(
                id=text_value(call.get("id")),
                name=str(function.get("name") or call.get("name") or ""),
                arguments=json_value(function.get("arguments", call.get("arguments"))),
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


def _parsed_list(value: object) -> list[Any] | None:
    parsed = json_value(value)
    return parsed if isinstance(parsed, list) else None


def _as_mapping(value: object) -> Mapping[str, Any] | None:
    parsed = json_value(value)
    return parsed if isinstance(parsed, dict) else None


def _parts_text(parts: list[Any]) -> str:
    return "".join(
        as_text(p.get("content")) for p in parts if isinstance(p, dict) and p.get("content")
    )
