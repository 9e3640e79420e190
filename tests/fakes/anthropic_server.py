"""A fake Anthropic Messages API: a real HTTP server on 127.0.0.1 for tests.

The machinery (a thread with its own loop, behaviours, recording, the concurrency peak) is
`FakeOpenAI`'s; this fake speaks the Messages API's documented shapes instead:

    with FakeAnthropic(api_key="sk-ant-test") as fake:
        fake.base_url                     # "http://127.0.0.1:<port>" (as the Anthropic SDK's)
        fake.enqueue(Behaviour(status=529, retry_after="2"), Behaviour())
        fake.requests[0].headers["x-api-key"]

Endpoints: `GET /v1/models` and `POST /v1/messages`. A request without the right
`x-api-key` is 401 `authentication_error`; without `anthropic-version`, or with a body the
API refuses (a `system` role among the messages, no `max_tokens`, a tool without
`input_schema`), 400 `invalid_request_error`. Errors are `{"type": "error", "error": {"type",
"message"}, "request_id"}` with the type the API documents for the status (429
`rate_limit_error`, 529 `overloaded_error`, …); their message is `PROVIDER_TEXT`. An answer is
a `message` with `text` and `tool_use` content blocks and `usage {input_tokens,
output_tokens}` (characters ÷ 4, rounded up), `stop_reason` `end_turn` or `tool_use`. A
behaviour's `tool_calls` are answered as `tool_use` blocks only for the tools the request
offers, as a model can call no other. A request with `"stream": true` is answered with the
API's events: `message_start` (input usage), `content_block_start`, a `content_block_delta`
`text_delta` per word of the reply (`chunk_seconds` apart), `content_block_stop`,
`message_delta` (output usage), `message_stop`.
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import AsyncIterator
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from bench.kit.openai_server import PROVIDER_TEXT, Behaviour, FakeOpenAI, reply_pieces, sse

ERROR_TYPES = {
    400: "invalid_request_error",
    401: "authentication_error",
    402: "billing_error",
    403: "permission_error",
    404: "not_found_error",
    413: "request_too_large",
    429: "rate_limit_error",
    500: "api_error",
    529: "overloaded_error",
}


def error_body(status: int) -> dict[str, Any]:
    """The Messages API's error shape for `status`, its message provider text."""
    kind = ERROR_TYPES.get(status, "api_error" if status >= 500 else "invalid_request_error")
    return {
        "type": "error",
        "error": {"type": kind, "message": PROVIDER_TEXT},
        "request_id": "req_fake_0123",
    }


def _chars(content: Any) -> int:
    if isinstance(content, str):
        return len(content)
    if isinstance(content, list):
        return sum(len(str(b.get("text", ""))) for b in content if isinstance(b, dict))
    return 0


def refused_body(body: Any) -> bool:
    """Whether the Messages API would refuse this body as an `invalid_request_error`."""
    if not isinstance(body, dict):
        return True
    messages = body.get("messages")
    if not isinstance(body.get("model"), str) or not isinstance(body.get("max_tokens"), int):
        return True
    if not isinstance(messages, list) or not messages:
        return True
    for message in messages:
        if not isinstance(message, dict) or message.get("role") not in ("user", "assistant"):
            return True  # system prompts belong in the top-level `system`
        if not isinstance(message.get("content"), str | list):
            return True
    if "system" in body and not isinstance(body["system"], str | list):
        return True
    tools = body.get("tools", [])
    return not isinstance(tools, list) or not all(
        isinstance(t, dict)
        and isinstance(t.get("name"), str)
        and isinstance(t.get("input_schema"), dict)
        for t in tools
    )


class FakeAnthropic(FakeOpenAI):
    """The fake Messages API; start it with `with` (or `start()` / `stop()`)."""

    def __init__(
        self, *, api_key: str | None = None, models: tuple[str, ...] = ("claude-fake-1",)
    ) -> None:
        super().__init__(api_key=api_key, models=models)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def routes(self) -> list[Route]:
        return [
            Route("/v1/models", self._models, methods=["GET"]),
            Route("/v1/messages", self._messages, methods=["POST"]),
        ]

    async def _messages(self, request: Request) -> Response:
        return await self._answer(request, self._message_body)

    def refusal(self, request: Request, body: Any, headers: dict[str, str]) -> Response | None:
        headers["request-id"] = "req_fake_0123"
        if self.api_key and request.headers.get("x-api-key") != self.api_key:
            return JSONResponse(error_body(401), 401, headers)
        if not request.headers.get("anthropic-version"):
            return JSONResponse(error_body(400), 400, headers)
        if request.method == "POST" and refused_body(body):
            return JSONResponse(error_body(400), 400, headers)
        return None

    def error(self, status: int, headers: dict[str, str]) -> Response:
        return JSONResponse(error_body(status), status, headers)

    def _models_body(self, _behaviour: Behaviour, _body: Any) -> dict[str, Any]:
        data = [
            {"type": "model", "id": m, "display_name": m, "created_at": "2026-01-01T00:00:00Z"}
            for m in self.models
        ]
        return {"data": data, "has_more": False, "first_id": data[0]["id"], "last_id": None}

    def _message_body(self, behaviour: Behaviour, body: Any) -> dict[str, Any]:
        request = body if isinstance(body, dict) else {}
        reply = behaviour.reply(request) if callable(behaviour.reply) else behaviour.reply
        content: list[dict[str, Any]] = []
        if reply is not None:
            content.append({"type": "text", "text": reply})
        offered = {t.get("name") for t in request.get("tools") or [] if isinstance(t, dict)}
        calls = [c for c in behaviour.tool_calls if c["name"] in offered]
        for index, call in enumerate(calls):
            content.append(
                {
                    "type": "tool_use",
                    "id": f"toolu_fake_{index}",
                    "name": call["name"],
                    "input": call.get("arguments", {}),
                }
            )
        prompt_chars = _chars(request.get("system")) + sum(
            _chars(m.get("content")) for m in request.get("messages") or []
        )
        answer: dict[str, Any] = {
            "id": f"msg_fake_{len(self._requests)}",
            "type": "message",
            "role": "assistant",
            "model": request.get("model", self.models[0]),
            "content": content,
            "stop_reason": "tool_use" if calls else "end_turn",
            "stop_sequence": None,
            "usage": {
                "input_tokens": math.ceil(prompt_chars / 4),
                "output_tokens": max(1, math.ceil(len(reply or "") / 4)),
            },
        }
        if not behaviour.usage:
            del answer["usage"]
        return answer

    async def stream_events(
        self, behaviour: Behaviour, body: dict[str, Any]
    ) -> AsyncIterator[bytes]:
        """The message as the Messages API streams it, a word of the text per delta."""
        answer = self._message_body(behaviour, body)
        usage = answer.get("usage", {})
        start = {**answer, "content": [], "stop_reason": None}
        start["usage"] = {"input_tokens": usage.get("input_tokens", 0), "output_tokens": 1}
        yield sse({"type": "message_start", "message": start}, "message_start")
        block = {"type": "text", "text": ""}
        yield sse(
            {"type": "content_block_start", "index": 0, "content_block": block},
            "content_block_start",
        )
        text = "".join(b["text"] for b in answer["content"] if b["type"] == "text")
        for piece in reply_pieces(text):
            if behaviour.chunk_seconds:
                await asyncio.sleep(behaviour.chunk_seconds)
            delta = {"type": "text_delta", "text": piece}
            yield sse(
                {"type": "content_block_delta", "index": 0, "delta": delta}, "content_block_delta"
            )
        yield sse({"type": "content_block_stop", "index": 0}, "content_block_stop")
        end = {"stop_reason": answer["stop_reason"], "stop_sequence": None}
        yield sse(
            {
                "type": "message_delta",
                "delta": end,
                "usage": {"output_tokens": usage.get("output_tokens", 1)},
            },
            "message_delta",
        )
        yield sse({"type": "message_stop"}, "message_stop")
