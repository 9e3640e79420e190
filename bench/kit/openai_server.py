"""A fake OpenAI-compatible provider: a real HTTP server on 127.0.0.1 for tests.

It runs uvicorn in a background thread with its own event loop, so it keeps answering while
the test's loop (which also serves shipwise) is busy, and a worker process can reach it too.

    with FakeOpenAI(api_key="sk-test") as fake:
        fake.base_url                      # "http://127.0.0.1:<port>/v1"
        fake.behaviour = Behaviour(status=500)        # every following request
        fake.enqueue(Behaviour(status=429, retry_after="1"), Behaviour())  # the next two
        fake.requests[0].headers["authorization"]    # what the provider saw
        fake.peak_concurrency                         # most requests in flight at once

Endpoints: `GET /v1/models` and `POST /v1/chat/completions` (the OpenAI response shape,
`usage` included; tokens are estimated as characters ÷ 4, as shipwise does). A request
takes the next queued one-shot behaviour if there is one, else the default `behaviour`.
Error bodies carry `PROVIDER_TEXT`, so tests can assert that provider text never leaks.
A behaviour can also answer with tool calls, without `usage`, with any JSON `body`, or stall
half-way through its body (`stall_seconds`). A request with `"stream": true` is answered as
the API streams: server-sent events, the reply a word at a time (`chunk_seconds` apart), the
usage in a last chunk when `stream_options.include_usage` asks for it, then `data: [DONE]`.
"""

from __future__ import annotations

import asyncio
import json
import math
import socket
import threading
import time
from collections import deque
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any, Self

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

PROVIDER_TEXT = "fake-provider-text: must never reach a shipwise response or log"
"""Sent in every error body and in the `X-Fake-Provider` header of every answer."""

Reply = str | Callable[[dict[str, Any]], str]


@dataclass(frozen=True)
class Behaviour:
    """How the fake answers one request."""

    status: int = 200
    delay_seconds: float = 0.0
    retry_after: str | None = None
    malformed: bool = False
    reply: Reply | None = "fake reply"
    """The assistant's content: a string, or a function of the request body; None sends
    `content: null` (a tool-call-only answer)."""
    tool_calls: tuple[dict[str, Any], ...] = ()
    """`{name, arguments}` tool calls in the answer; arguments not already a string are sent
    as a JSON string, as OpenAI does."""
    usage: bool = True
    """False: the answer carries no `usage`."""
    body: Any = None
    """When set, this JSON is the whole answer (with `status`): well-formed, not a completion."""
    stall_seconds: float = 0.0
    """Send the headers and half the body, then wait this long before the rest (a slow body)."""
    chunk_seconds: float = 0.0
    """A streamed answer (`"stream": true`): wait this long before each piece of the reply."""


@dataclass(frozen=True)
class RecordedRequest:
    """One request as the provider received it; header names are lower-case."""

    method: str
    path: str
    headers: dict[str, str]
    body: Any
    received_at: float = field(default_factory=time.monotonic)


class FakeOpenAI:
    """The fake provider; start it with `with` (or `start()` / `stop()`)."""

    def __init__(self, *, api_key: str | None = None, models: tuple[str, ...] = ("fake-1",)):
        self.api_key = api_key
        """When set, a request without `Authorization: Bearer <api_key>` gets 401."""
        self.models = models
        self.behaviour = Behaviour()
        self._queue: deque[Behaviour] = deque()
        self.hold: Callable[[RecordedRequest], bool] | None = None
        """When set, a request it accepts is recorded, then waits in flight until
        `release_held()`: a test can kill a client while it surely has calls out."""
        self._released = threading.Event()
        self._held = 0
        self._requests: list[RecordedRequest] = []
        self._in_flight = 0
        self._peak = 0
        self._lock = threading.Lock()
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None
        self.port = 0

    # -- what tests read and switch ---------------------------------------------------------

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    @property
    def requests(self) -> list[RecordedRequest]:
        """A copy of every request received so far, in arrival order."""
        with self._lock:
            return list(self._requests)

    @property
    def peak_concurrency(self) -> int:
        with self._lock:
            return self._peak

    @property
    def in_flight(self) -> int:
        with self._lock:
            return self._in_flight

    @property
    def held(self) -> int:
        """How many requests `hold` has kept waiting so far."""
        with self._lock:
            return self._held

    def release_held(self) -> None:
        """Answer every held request as its behaviour says, and hold no more."""
        self.hold = None
        self._released.set()

    def enqueue(self, *behaviours: Behaviour) -> None:
        """One-shot behaviours for the next requests, in order, before the default resumes."""
        with self._lock:
            self._queue.extend(behaviours)

    def reset(self) -> None:
        """Forget requests, the peak and queued behaviours; restore the default behaviour."""
        with self._lock:
            self._requests.clear()
            self._queue.clear()
            self._peak = self._in_flight
        self.behaviour = Behaviour()

    # -- lifecycle --------------------------------------------------------------------------

    def routes(self) -> list[Route]:
        """The API's endpoints (a subclass fakes another API on the same machinery)."""
        return [
            Route("/v1/models", self._models, methods=["GET"]),
            Route("/v1/chat/completions", self._chat_completions, methods=["POST"]),
        ]

    def start(self) -> Self:
        app = Starlette(routes=self.routes())
        config = uvicorn.Config(
            app,
            host="127.0.0.1",
            port=0,
            log_config=None,
            access_log=False,
            lifespan="off",
            timeout_graceful_shutdown=1,
        )
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._server.run, name="fake-openai", daemon=True)
        self._thread.start()
        deadline = time.monotonic() + 10
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the fake OpenAI server did not start")
            time.sleep(0.005)
        self.port = self._server.servers[0].sockets[0].getsockname()[1]
        return self

    def stop(self) -> None:
        self.release_held()
        if self._server is not None and self._thread is not None:
            self._server.should_exit = True
            self._thread.join(timeout=10)

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    # -- the provider -----------------------------------------------------------------------

    async def _models(self, request: Request) -> Response:
        return await self._answer(request, self._models_body)

    async def _chat_completions(self, request: Request) -> Response:
        return await self._answer(request, self._completion_body)

    async def _answer(
        self, request: Request, body_for: Callable[[Behaviour, Any], dict[str, Any]]
    ) -> Response:
        """Record, count concurrency, apply the behaviour, then build the success body."""
        body = await json_or_none(request)
        recorded = RecordedRequest(
            method=request.method,
            path=request.url.path,
            headers={k.lower(): v for k, v in request.headers.items()},
            body=body,
        )
        hold = self.hold
        held = hold is not None and hold(recorded)
        with self._lock:
            self._requests.append(recorded)
            self._held += held
            self._in_flight += 1
            self._peak = max(self._peak, self._in_flight)
            behaviour = self._queue.popleft() if self._queue else self.behaviour
        try:
            while held and not self._released.is_set():
                await asyncio.sleep(0.01)
            if behaviour.delay_seconds:
                await asyncio.sleep(behaviour.delay_seconds)
            return self._respond(request, behaviour, body, body_for)
        finally:
            with self._lock:
                self._in_flight -= 1

    def _respond(
        self,
        request: Request,
        behaviour: Behaviour,
        body: Any,
        body_for: Callable[[Behaviour, Any], dict[str, Any]],
    ) -> Response:
        headers = {"X-Fake-Provider": PROVIDER_TEXT}
        if behaviour.retry_after is not None:
            headers["Retry-After"] = behaviour.retry_after
        refused = self.refusal(request, body, headers)
        if refused is not None:
            return refused
        if behaviour.malformed:
            return Response(
                b'{"choices": [{"message": ', behaviour.status, headers, "application/json"
            )
        if behaviour.body is not None:
            return JSONResponse(behaviour.body, behaviour.status, headers)
        if not 200 <= behaviour.status < 300:
            return self.error(behaviour.status, headers)
        if isinstance(body, dict) and body.get("stream") is True:
            return StreamingResponse(
                self.stream_events(behaviour, body), behaviour.status, headers, "text/event-stream"
            )
        if behaviour.stall_seconds:
            payload = json.dumps(body_for(behaviour, body)).encode()
            return StreamingResponse(
                _stalled(payload, behaviour.stall_seconds),
                behaviour.status,
                headers,
                "application/json",
            )
        return JSONResponse(body_for(behaviour, body), behaviour.status, headers)

    def refusal(self, request: Request, _body: Any, headers: dict[str, str]) -> Response | None:
        """The answer to a request the API refuses before any behaviour: a wrong key."""
        if self.api_key and request.headers.get("authorization") != f"Bearer {self.api_key}":
            return _error(401, "invalid_api_key", headers)
        return None

    def error(self, status: int, headers: dict[str, str]) -> Response:
        """An error answer in the API's documented shape, carrying `PROVIDER_TEXT`."""
        return _error(status, "fake_error", headers)

    async def stream_events(
        self, behaviour: Behaviour, body: dict[str, Any]
    ) -> AsyncIterator[bytes]:
        """The chat completion as `chat.completion.chunk` events, a word of the reply each."""
        answer = self._completion_body(behaviour, body)
        base = {k: answer[k] for k in ("id", "created", "model")}
        base["object"] = "chat.completion.chunk"
        reply = answer["choices"][0]["message"]["content"] or ""
        for piece in reply_pieces(reply):
            if behaviour.chunk_seconds:
                await asyncio.sleep(behaviour.chunk_seconds)
            delta = {"index": 0, "delta": {"content": piece}, "finish_reason": None}
            yield sse({**base, "choices": [delta]})
        yield sse({**base, "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]})
        options = body.get("stream_options")
        if isinstance(options, dict) and options.get("include_usage") and "usage" in answer:
            yield sse({**base, "choices": [], "usage": answer["usage"]})
        yield b"data: [DONE]\n\n"

    def _models_body(self, _behaviour: Behaviour, _body: Any) -> dict[str, Any]:
        data = [{"id": m, "object": "model", "created": 0, "owned_by": "fake"} for m in self.models]
        return {"object": "list", "data": data}

    def _completion_body(self, behaviour: Behaviour, body: Any) -> dict[str, Any]:
        request = body if isinstance(body, dict) else {}
        reply = behaviour.reply(request) if callable(behaviour.reply) else behaviour.reply
        message: dict[str, Any] = {"role": "assistant", "content": reply}
        if behaviour.tool_calls:
            message["tool_calls"] = [_tool_call(i, c) for i, c in enumerate(behaviour.tool_calls)]
        prompt_chars = sum(
            len(str(m.get("content") or ""))
            for m in request.get("messages") or []
            if isinstance(m, dict)
        )
        prompt_tokens = math.ceil(prompt_chars / 4)
        completion_tokens = max(1, math.ceil(len(reply or "") / 4))
        answer = {
            "id": f"chatcmpl-fake-{len(self._requests)}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": request.get("model", self.models[0]),
            "choices": [
                {
                    "index": 0,
                    "message": message,
                    "finish_reason": "tool_calls" if behaviour.tool_calls else "stop",
                }
            ],
            "usage": {
                "prompt_tokens": prompt_tokens,
                "completion_tokens": completion_tokens,
                "total_tokens": prompt_tokens + completion_tokens,
            },
        }
        if not behaviour.usage:
            del answer["usage"]
        return answer


def reply_pieces(reply: str) -> list[str]:
    """The reply a word at a time (each keeps the space before the next word)."""
    words = reply.split(" ")
    return [w if i == len(words) - 1 else w + " " for i, w in enumerate(words) if w or i == 0]


def sse(data: Any, event: str | None = None) -> bytes:
    """One server-sent event of JSON `data`."""
    head = f"event: {event}\n" if event else ""
    return (head + "data: " + json.dumps(data) + "\n\n").encode()


async def json_or_none(request: Request) -> Any:
    raw = await request.body()
    if not raw:
        return None
    try:
        return json.loads(raw)
    except ValueError:
        return raw.decode(errors="replace")


def _tool_call(index: int, call: dict[str, Any]) -> dict[str, Any]:
    arguments = call.get("arguments", {})
    return {
        "id": f"call_fake_{index}",
        "type": "function",
        "function": {
            "name": call["name"],
            "arguments": arguments if isinstance(arguments, str) else json.dumps(arguments),
        },
    }


async def _stalled(payload: bytes, seconds: float) -> AsyncIterator[bytes]:
    half = len(payload) // 2
    yield payload[:half]
    await asyncio.sleep(seconds)
    yield payload[half:]


def _error(status: int, kind: str, headers: dict[str, str]) -> Response:
    body = {"error": {"message": PROVIDER_TEXT, "type": kind, "code": status}}
    return JSONResponse(body, status, headers)


def closed_base_url() -> str:
    """A base URL on a loopback port that nothing listens on (it was free a moment ago)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"
