"""The ANTHROPIC provider: the Messages API, `POST {base}/v1/messages`.

Our calls are chat messages in the OpenAI shape (prompt templates, TOOL_SCHEMA assets); the
Messages API differs in four places, mapped here: system messages go to the top-level
`system`, tools are `{name, description, input_schema}`, the answer is a list of content
blocks (`text`, `tool_use`), and usage is `input_tokens` / `output_tokens`. Everything else
(the session, retries on 429, 529 and 5xx honouring `retry-after`, bounded faults) is
`server.providers.http`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from server.connections.endpoints import anthropic_headers, anthropic_root
from server.providers.base import ModelCall
from server.providers.http import Completion, HttpProvider, Malformed, joined_text, token_count

RESERVED_PARAMS = frozenset({"model", "messages", "max_tokens", "system", "tools", "stream"})
"""`params` cannot change what is asked, the output bound, or the response shape we parse."""

_CACHE_USAGE = ("cache_creation_input_tokens", "cache_read_input_tokens")
"""Input tokens the API counts apart from `input_tokens` (prompt caching): still input."""


def _text(content: Any) -> str:
    """A message's content as plain text: a string, or the text of its content parts."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return joined_text(content)
    return json.dumps(content, ensure_ascii=False)


def _blocks(content: Any) -> str | list[dict[str, Any]]:
    """User or assistant content: a string stays one; OpenAI text parts become text blocks."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        blocks = []
        for part in content:
            if isinstance(part, dict) and part.get("type") == "text":
                blocks.append({"type": "text", "text": str(part.get("text", ""))})
            elif isinstance(part, dict):
                blocks.append(part)  # already a Messages API block (image, document, …)
        return blocks
    return _text(content)


def _tool_input(arguments: Any) -> Any:
    if isinstance(arguments, str):
        try:
            return json.loads(arguments)
        except ValueError:
            return {}
    return arguments if isinstance(arguments, dict) else {}


def _assistant(message: Mapping[str, Any]) -> dict[str, Any]:
    """An assistant turn; its OpenAI `tool_calls` become `tool_use` blocks."""
    calls = message.get("tool_calls")
    if not isinstance(calls, list) or not calls:
        return {"role": "assistant", "content": _blocks(message.get("content"))}
    blocks: list[dict[str, Any]] = []
    if text := _text(message.get("content")):
        blocks.append({"type": "text", "text": text})
    for index, call in enumerate(calls):
        function = call.get("function", {}) if isinstance(call, dict) else {}
        blocks.append(
            {
                "type": "tool_use",
                "id": str(call.get("id") or f"toolu_{index}"),
                "name": str(function.get("name", "")),
                "input": _tool_input(function.get("arguments")),
            }
        )
    return {"role": "assistant", "content": blocks}


def _tool_result(message: Mapping[str, Any]) -> dict[str, Any]:
    """An OpenAI `tool` message is a user turn holding a `tool_result` block."""
    block = {
        "type": "tool_result",
        "tool_use_id": str(message.get("tool_call_id", "")),
        "content": _text(message.get("content")),
    }
    return {"role": "user", "content": [block]}


def split_messages(messages: list[dict[str, Any]]) -> tuple[str | None, list[dict[str, Any]]]:
    """(`system`, `messages`): system and developer turns joined into `system`."""
    system: list[str] = []
    turns: list[dict[str, Any]] = []
    for message in messages:
        role = message.get("role")
        if role in ("system", "developer"):
            system.append(_text(message.get("content")))
        elif role == "assistant":
            turns.append(_assistant(message))
        elif role == "tool":
            turns.append(_tool_result(message))
        else:
            turns.append({"role": "user", "content": _blocks(message.get("content"))})
    return ("\n\n".join(system) if system else None), turns


def map_tools(tools: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """OpenAI function tools as Messages API tools; a tool already in that form passes."""
    mapped = []
    for tool in tools:
        function = tool.get("function") if tool.get("type") == "function" else None
        if not isinstance(function, dict):
            mapped.append(tool)
            continue
        entry: dict[str, Any] = {
            "name": function.get("name"),
            "input_schema": function.get("parameters") or {"type": "object", "properties": {}},
        }
        if function.get("description"):
            entry["description"] = function["description"]
        mapped.append(entry)
    return mapped


def _tool_choice(choice: Any) -> Any:
    """OpenAI's `tool_choice` in the Messages API's words; its own shape passes."""
    if choice in ("auto", "none"):
        return {"type": choice}
    if choice == "required":
        return {"type": "any"}
    if isinstance(choice, dict) and isinstance(choice.get("function"), dict):
        return {"type": "tool", "name": choice["function"].get("name")}
    return choice


def request_body(call: ModelCall) -> dict[str, Any]:
    """The Messages API body: `params` first (OpenAI's `stop` and `tool_choice` mapped), so
    the fixed fields always win."""
    body = {k: v for k, v in call.params.items() if k not in RESERVED_PARAMS}
    if "stop" in body:
        stop = body.pop("stop")
        body.setdefault("stop_sequences", [stop] if isinstance(stop, str) else stop)
    if "tool_choice" in body:
        body["tool_choice"] = _tool_choice(body["tool_choice"])
    system, messages = split_messages(call.messages)
    body.update(model=call.model, messages=messages, max_tokens=call.max_output_tokens)
    if system is not None:
        body["system"] = system
    if call.temperature is not None:
        body["temperature"] = call.temperature
    if call.tools:
        body["tools"] = map_tools(call.tools)
    return body


def _input_tokens(usage: Any) -> int | None:
    counted = token_count(usage, "input_tokens")
    if counted is None:
        return None
    return counted + sum(token_count(usage, key) or 0 for key in _CACHE_USAGE)


def message_of(data: dict[str, Any]) -> Completion:
    """The text blocks joined, `tool_use` blocks as `{name, arguments}`, and `usage`."""
    content = data.get("content")
    if not isinstance(content, list):
        raise Malformed
    texts: list[str] = []
    calls: list[dict[str, Any]] = []
    for block in content:
        if not isinstance(block, dict):
            raise Malformed
        if block.get("type") == "text":
            if not isinstance(block.get("text"), str):
                raise Malformed
            texts.append(block["text"])
        elif block.get("type") == "tool_use":
            if not isinstance(block.get("name"), str):
                raise Malformed
            calls.append({"name": block["name"], "arguments": block.get("input", {})})
        # thinking and other blocks are not the answer
    usage = data.get("usage")
    return Completion(
        output="".join(texts),
        tool_calls=calls,
        input_tokens=_input_tokens(usage),
        output_tokens=token_count(usage, "output_tokens"),
    )


class AnthropicProvider(HttpProvider):
    """Messages API calls with `x-api-key`, `anthropic-version` and the connection's extra
    headers (`anthropic-beta`, a gateway's own)."""

    @staticmethod
    def endpoint(base_url: str) -> str:
        return anthropic_root(base_url) + "/messages"

    @staticmethod
    def fixed_headers(api_key: str | None, headers: Mapping[str, str]) -> dict[str, str]:
        return {**anthropic_headers(api_key), **headers}

    def request_body(self, call: ModelCall) -> dict[str, Any]:
        return request_body(call)

    def completion(self, data: dict[str, Any]) -> Completion:
        return message_of(data)
