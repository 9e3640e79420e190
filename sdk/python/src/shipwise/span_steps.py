"""One finished OpenTelemetry span as a trajectory step (`{kind, name, startedAt, …}`, the
server's docs/domain.md "Trajectories in runs"), read from the three conventions agents are
traced with: the GenAI semantic conventions (`gen_ai.operation.name`, `gen_ai.input.messages`
/ `gen_ai.output.messages`, the older `gen_ai.prompt.N.*` / `gen_ai.completion.N.*`), as the
official `opentelemetry-instrumentation-openai-v2` and Traceloop's
`opentelemetry-instrumentation-openai` write them, and OpenInference
(`openinference.span.kind`, `llm.input_messages.N.message.*`), as Arize's
`openinference-instrumentation-openai` does. Anything else is an `OTHER` step.

Duck-typed on the span (`name`, `attributes`, `start_time`, `end_time`, `status`,
`context.span_id`, `parent`): nothing of OpenTelemetry is imported here.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

MAX_TEXT = 16_384
"""A message's content or a tool's arguments and result, cut to this many characters."""
MAX_NAME = 1_000
MAX_SHORT = 200

_OPENINFERENCE_KINDS = {"LLM": "LLM", "TOOL": "TOOL", "AGENT": "AGENT", "RETRIEVER": "RETRIEVAL"}
_GENAI_OPERATIONS = {
    "chat": "LLM",
    "text_completion": "LLM",
    "generate_content": "LLM",
    "invoke_agent": "AGENT",
    "create_agent": "AGENT",
    "execute_tool": "TOOL",
}
_TRACELOOP_KINDS = {"workflow": "AGENT", "agent": "AGENT", "tool": "TOOL"}


def kind_of(attrs: Mapping[str, Any]) -> str:
    """The step's kind, by the first convention whose attribute the span carries."""
    if "openinference.span.kind" in attrs:
        return _OPENINFERENCE_KINDS.get(str(attrs["openinference.span.kind"]).upper(), "OTHER")
    if "gen_ai.operation.name" in attrs:
        return _GENAI_OPERATIONS.get(str(attrs["gen_ai.operation.name"]), "OTHER")
    if "traceloop.span.kind" in attrs:
        return _TRACELOOP_KINDS.get(str(attrs["traceloop.span.kind"]), "OTHER")
    if attrs.get("llm.request.type") in ("chat", "completion"):
        return "LLM"
    return "OTHER"


def _cut(text: str, limit: int = MAX_TEXT) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _short(value: Any) -> str | None:
    return None if value is None or value == "" else _cut(str(value), MAX_SHORT)


def _json(value: Any) -> Any:
    """A JSON text parsed (as instrumentations write arguments and results), cut if long."""
    if isinstance(value, str):
        try:
            parsed = json.loads(value)
        except ValueError:
            return _cut(value)
        return parsed if len(value) <= MAX_TEXT else _cut(value)
    if isinstance(value, tuple | list):
        return list(value)
    return value


def _first(attrs: Mapping[str, Any], *keys: str) -> Any:
    for key in keys:
        if attrs.get(key) is not None:
            return attrs[key]
    return None


def _count(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


def _iso(nanos: int | None) -> str | None:
    if nanos is None:
        return None
    return datetime.fromtimestamp(nanos / 1e9, tz=UTC).isoformat().replace("+00:00", "Z")


def _call(call_id: Any, name: Any, arguments: Any) -> dict[str, Any] | None:
    if not name:
        return None
    return {
        "id": _short(call_id),
        "name": _cut(str(name), MAX_SHORT),
        "arguments": _json(arguments),
    }


def _message(role: Any, content: Any, calls: list[dict[str, Any] | None]) -> dict[str, Any]:
    if content is not None and not isinstance(content, str):
        content = json.dumps(content)
    text = None if content is None else _cut(content)
    return {
        "role": _short(role) or "unknown",
        "content": text,
        "toolCalls": [c for c in calls if c is not None],
    }


def _semconv_messages(raw: Any) -> list[dict[str, Any]] | None:
    """`gen_ai.input.messages` / `gen_ai.output.messages`: `[{role, parts: [{type, …}]}]`."""
    try:
        messages = json.loads(raw) if isinstance(raw, str) else None
    except ValueError:
        return None
    if not isinstance(messages, list):
        return None
    found = []
    for message in messages:
        if not isinstance(message, dict):
            continue
        texts: list[str] = []
        calls: list[dict[str, Any] | None] = []
        for part in message.get("parts") or ():
            if not isinstance(part, dict):
                continue
            kind = part.get("type")
            if kind == "tool_call":
                calls.append(_call(part.get("id"), part.get("name"), part.get("arguments")))
            elif kind == "tool_call_response":
                response = part.get("response", part.get("result"))
                texts.append(response if isinstance(response, str) else json.dumps(response))
            elif part.get("content") is not None:
                texts.append(str(part["content"]))
        content = "\n".join(texts) if texts else message.get("content")
        found.append(_message(message.get("role"), content, calls))
    return found


def _flattened(attrs: Mapping[str, Any], prefix: str, calls_key: str) -> list[dict[str, Any]]:
    """Messages written one attribute a field: `llm.input_messages.0.message.role` (with
    `message.` between the index and the field) or `gen_ai.prompt.0.role`."""
    by_index: dict[int, dict[str, Any]] = {}
    for key, value in attrs.items():
        if not key.startswith(prefix):
            continue
        number, _, rest = key[len(prefix) :].partition(".")
        if not number.isdigit():
            continue
        by_index.setdefault(int(number), {})[rest.removeprefix("message.")] = value
    found = []
    for index in sorted(by_index):
        fields = by_index[index]
        calls: dict[int, dict[str, Any]] = {}
        for key, value in fields.items():
            if key.startswith(f"{calls_key}."):
                number, _, field = key[len(calls_key) + 1 :].partition(".")
                if number.isdigit():
                    calls.setdefault(int(number), {})[field.removeprefix("tool_call.")] = value
        found.append(
            _message(
                fields.get("role"),
                fields.get("content"),
                [
                    _call(
                        c.get("id"),
                        c.get("function.name", c.get("name")),
                        c.get("function.arguments", c.get("arguments")),
                    )
                    for _, c in sorted(calls.items())
                ],
            )
        )
    return found


def messages(attrs: Mapping[str, Any], side: str) -> list[dict[str, Any]]:
    """The span's input (`side` "input") or output ("output") messages, by any convention."""
    semconv = _semconv_messages(attrs.get(f"gen_ai.{side}.messages"))
    if semconv is not None:
        return semconv
    openinference = _flattened(attrs, f"llm.{side}_messages.", "tool_calls")
    if openinference:
        return openinference
    older = "gen_ai.prompt." if side == "input" else "gen_ai.completion."
    return _flattened(attrs, older, "tool_calls")


def _finish_reasons(attrs: Mapping[str, Any]) -> list[str]:
    reasons = _first(attrs, "gen_ai.response.finish_reasons", "llm.finish_reason")
    if reasons is None:
        return []
    if isinstance(reasons, str):
        return [_cut(reasons, MAX_SHORT)]
    return [_cut(str(r), MAX_SHORT) for r in reasons if r][:20]


PROVIDER = ("gen_ai.provider.name", "gen_ai.system", "llm.provider", "llm.system")
MODEL = ("gen_ai.response.model", "gen_ai.request.model", "llm.model_name")
INPUT_TOKENS = ("gen_ai.usage.input_tokens", "gen_ai.usage.prompt_tokens", "llm.token_count.prompt")
OUTPUT_TOKENS = (
    "gen_ai.usage.output_tokens",
    "gen_ai.usage.completion_tokens",
    "llm.token_count.completion",
)
TOOL_ARGUMENTS = ("gen_ai.tool.call.arguments", "tool.parameters", "input.value")
TOOL_RESULT = ("gen_ai.tool.call.result", "output.value")


def _llm(attrs: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "provider": _short(_first(attrs, *PROVIDER)),
        "model": _short(_first(attrs, *MODEL)),
        "inputMessages": messages(attrs, "input"),
        "outputMessages": messages(attrs, "output"),
        "finishReasons": _finish_reasons(attrs),
        "inputTokens": _count(_first(attrs, *INPUT_TOKENS)),
        "outputTokens": _count(_first(attrs, *OUTPUT_TOKENS)),
    }


def _tool(attrs: Mapping[str, Any], span_name: str) -> dict[str, Any]:
    return {
        "toolName": _short(_first(attrs, "gen_ai.tool.name", "tool.name") or span_name),
        "toolCallId": _short(_first(attrs, "gen_ai.tool.call.id", "tool_call.id")),
        "arguments": _json(_first(attrs, *TOOL_ARGUMENTS)),
        "result": _json(_first(attrs, *TOOL_RESULT)),
    }


def step_of(span: Any, parent_ids: set[int] | frozenset[int] = frozenset()) -> dict[str, Any]:
    """The step of one finished span; its `parentId` only when the parent is in `parent_ids`
    (a span of the same trial)."""
    attrs: Mapping[str, Any] = dict(span.attributes or {})
    kind = kind_of(attrs)
    start, end = span.start_time, span.end_time
    status = getattr(getattr(span.status, "status_code", None), "name", "UNSET")
    parent = span.parent.span_id if span.parent is not None else None
    step: dict[str, Any] = {
        "id": format(span.context.span_id, "016x"),
        "kind": kind,
        "name": _cut(span.name or kind.lower(), MAX_NAME),
        "startedAt": _iso(start),
        "durationMs": None if start is None or end is None else max(0.0, (end - start) / 1e6),
        "status": "ERROR" if status == "ERROR" else "OK",
        "errorType": _short(attrs.get("error.type"))
        or (_short(span.status.description) if status == "ERROR" else None),
        "parentId": format(parent, "016x") if parent in parent_ids else None,
    }
    if kind == "LLM":
        step.update(_llm(attrs))
    elif kind == "TOOL":
        step.update(_tool(attrs, span.name))
    return {key: value for key, value in step.items() if value is not None}
