"""The OPENAI_COMPATIBLE provider: `POST {base_url}/chat/completions` (`server.providers.http`
does the session, the retries and the bounded faults)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from server.connections.endpoints import openai_headers
from server.providers.base import ModelCall
from server.providers.http import (
    DEFAULT_TIMEOUT,
    Completion,
    HttpProvider,
    Malformed,
    ProviderTimeout,
    Sleep,
    backoff_delay,
    client_timeout,
    joined_text,
    parse_retry_after,
    provider_timeout,
    token_count,
    trial_headers,
)

__all__ = [
    "DEFAULT_TIMEOUT",
    "OpenAICompatibleProvider",
    "ProviderTimeout",
    "Sleep",
    "backoff_delay",
    "client_timeout",
    "completion_of",
    "parse_retry_after",
    "provider_timeout",
    "request_body",
    "trial_headers",
]

RESERVED_PARAMS = frozenset(
    {"model", "messages", "max_tokens", "max_completion_tokens", "tools", "stream", "n"}
)
"""`params` cannot change what is asked, the output bound the cost estimate relies on, or the
response shape we parse (a stream, several choices)."""


def request_body(call: ModelCall) -> dict[str, Any]:
    """The chat-completions body: `params` first, so the fixed fields always win."""
    body = {k: v for k, v in call.params.items() if k not in RESERVED_PARAMS}
    body.update(model=call.model, messages=call.messages, max_tokens=call.max_output_tokens)
    if call.temperature is not None:
        body["temperature"] = call.temperature
    if call.tools:
        body["tools"] = call.tools
    return body


def _content(value: Any) -> str:
    if value is None:
        return ""  # a tool-call-only answer
    if isinstance(value, str):
        return value
    if isinstance(value, list):  # content parts: keep the text ones
        return joined_text(value)
    raise Malformed


def _arguments(value: Any) -> Any:
    """A JSON object when the arguments parse as one, else the raw string."""
    if isinstance(value, dict):
        return value
    if not isinstance(value, str):
        return "" if value is None else json.dumps(value)
    try:
        parsed = json.loads(value)
    except ValueError:
        return value
    return parsed if isinstance(parsed, dict) else value


def _tool_calls(message: dict[str, Any]) -> list[dict[str, Any]]:
    raw = message.get("tool_calls")
    if raw is None and isinstance(message.get("function_call"), dict):
        raw = [{"function": message["function_call"]}]  # the legacy single-call shape
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise Malformed
    calls = []
    for item in raw:
        function = item.get("function") if isinstance(item, dict) else None
        if not isinstance(function, dict) or not isinstance(function.get("name"), str):
            raise Malformed
        calls.append({"name": function["name"], "arguments": _arguments(function.get("arguments"))})
    return calls


def completion_of(data: dict[str, Any]) -> Completion:
    """`choices[0].message` content and tool calls, and `usage`; raises `Malformed`."""
    choices = data.get("choices")
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        raise Malformed
    message = choices[0].get("message")
    if not isinstance(message, dict):
        raise Malformed
    usage = data.get("usage")
    return Completion(
        output=_content(message.get("content")),
        tool_calls=_tool_calls(message),
        input_tokens=token_count(usage, "prompt_tokens"),
        output_tokens=token_count(usage, "completion_tokens"),
    )


class OpenAICompatibleProvider(HttpProvider):
    """Chat completions with `Authorization: Bearer <key>` when a key is set, and the
    connection's extra headers (Azure's `api-key`, a gateway's own)."""

    @staticmethod
    def endpoint(base_url: str) -> str:
        return base_url.rstrip("/") + "/chat/completions"

    @staticmethod
    def fixed_headers(api_key: str | None, headers: Mapping[str, str]) -> dict[str, str]:
        return {**headers, **openai_headers(api_key)}

    def request_body(self, call: ModelCall) -> dict[str, Any]:
        return request_body(call)

    def completion(self, data: dict[str, Any]) -> Completion:
        return completion_of(data)
