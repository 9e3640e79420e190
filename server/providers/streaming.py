"""Streaming calls, beside the non-streaming ones dispatch makes (`server.providers.http`).

The Playground shows an answer as it arrives: each text delta goes to `on_text` as the
provider sends it. OPENAI_COMPATIBLE and ANTHROPIC stream server-sent events
(`server.providers.stream_events`); a SIMULATED connection answers as in a comparison
(`server.providers.simulated`) and hands its answer over a word at a time. One attempt, no
retries (a person is waiting and can press Run again); faults become the same bounded
`DispatchError` codes, and provider text other than the answer reaches nothing. Every call
holds the connection's semaphore of the process's `ProviderPool`, so `maxConcurrency` holds.
Dispatch never comes here: its path and its client are unchanged.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import Any

import httpx
import orjson
from cryptography.fernet import InvalidToken

from server.connections.endpoints import anthropic_headers, anthropic_root, openai_headers
from server.connections.headers import decrypt_headers
from server.connections.models import ConnectionKind, ModelConnection
from server.providers import anthropic, openai_compatible
from server.providers.base import CallResult, DispatchError, ModelCall
from server.providers.http import MAX_RESPONSE_BYTES, Malformed, Timeouts
from server.providers.pricing import estimate_input_tokens, estimate_output_tokens
from server.providers.registry import ProviderPool
from server.providers.stream_events import SseLines, piece_of
from server.security import SecretBox

logger = logging.getLogger("shipwise.providers")

OnText = Callable[[str], None]


def _target(
    connection: ModelConnection, secrets: SecretBox, request: ModelCall
) -> tuple[str, dict[str, str], bytes]:
    """(URL, headers, body) of a streaming call; raises `InvalidToken` for sealed secrets."""
    key = secrets.decrypt(connection.api_key_encrypted) if connection.api_key_encrypted else None
    extra = decrypt_headers(connection, secrets)
    base = str(connection.base_url)
    body: dict[str, Any]
    if connection.kind == ConnectionKind.ANTHROPIC:
        url = anthropic_root(base) + "/messages"
        headers = {**anthropic_headers(key), **extra}
        body = {**anthropic.request_body(request), "stream": True}
    else:
        url = base.rstrip("/") + "/chat/completions"
        headers = {**extra, **openai_headers(key)}
        body = {
            **openai_compatible.request_body(request),
            "stream": True,
            "stream_options": {"include_usage": True},
        }
    headers["Content-Type"] = "application/json"
    headers["Accept"] = "text/event-stream"
    return url, headers, orjson.dumps(body, default=str)


def _status_error(status: int) -> DispatchError:
    if status == 429:
        return DispatchError.PROVIDER_RATE_LIMITED
    if status >= 500:
        return DispatchError.PROVIDER_SERVER_ERROR
    return DispatchError.PROVIDER_CLIENT_ERROR


class StreamingCaller:
    """Streams one call to a connection; `call` never raises for provider faults."""

    def __init__(
        self, secrets: SecretBox, pool: ProviderPool, *, timeout: Timeouts | None = None
    ) -> None:
        self._secrets = secrets
        self._pool = pool
        self._timeout = timeout or Timeouts()

    async def call(
        self, connection: ModelConnection, request: ModelCall, on_text: OnText
    ) -> CallResult:
        """The whole answer, each delta passed to `on_text` as it arrives."""
        provider = self._pool.get(connection)
        async with self._pool.limit(connection.id):
            if connection.kind == ConnectionKind.SIMULATED or not connection.base_url:
                return await _told_in_words(await provider.call(request), on_text)
            return await self._stream(connection, request, on_text)

    async def _stream(
        self, connection: ModelConnection, request: ModelCall, on_text: OnText
    ) -> CallResult:
        try:
            url, headers, body = _target(connection, self._secrets, request)
        except InvalidToken:
            return CallResult(output=None, attempts=0, error=DispatchError.CONNECTION_NOT_READY)
        started = time.monotonic()
        timeout = httpx.Timeout(
            connect=self._timeout.connect, read=self._timeout.read, write=30.0, pool=30.0
        )
        parts: list[str] = []
        tokens: dict[str, int | None] = {"input": None, "output": None}
        try:
            async with (
                httpx.AsyncClient(timeout=timeout, follow_redirects=False) as client,
                client.stream("POST", url, content=body, headers=headers) as response,
            ):
                if not 200 <= response.status_code < 300:
                    return _failed(_status_error(response.status_code), response.status_code)
                await _read_events(connection.kind, response, parts, tokens, on_text)
        except httpx.TimeoutException as exc:
            return _failed(DispatchError.PROVIDER_TIMEOUT, None, exc)
        except (httpx.InvalidURL, httpx.UnsupportedProtocol) as exc:
            return _failed(DispatchError.PROVIDER_UNREACHABLE, None, exc)
        except (httpx.TransportError, OSError) as exc:
            return _failed(DispatchError.PROVIDER_UNREACHABLE, None, exc)
        except Malformed as exc:
            return _failed(DispatchError.PROVIDER_MALFORMED_RESPONSE, None, exc)
        output = "".join(parts)
        return CallResult(
            output=output,
            input_tokens=tokens["input"] or estimate_input_tokens(request.messages),
            output_tokens=tokens["output"] or estimate_output_tokens(output, []),
            latency_ms=round((time.monotonic() - started) * 1000),
        )


async def _read_events(
    kind: ConnectionKind,
    response: httpx.Response,
    parts: list[str],
    tokens: dict[str, int | None],
    on_text: OnText,
) -> None:
    lines = SseLines()
    size = 0
    async for chunk in response.aiter_bytes():
        size += len(chunk)
        if size > MAX_RESPONSE_BYTES:
            raise Malformed
        for payload in lines.feed(chunk):
            piece = piece_of(kind, payload)
            if piece.input_tokens is not None:
                tokens["input"] = piece.input_tokens
            if piece.output_tokens is not None:
                tokens["output"] = piece.output_tokens
            if piece.text:
                parts.append(piece.text)
                on_text(piece.text)
            if piece.done:
                return
    if not parts and tokens["output"] is None:
        raise Malformed  # the stream ended before any answer


def _failed(
    error: DispatchError, http_status: int | None, exc: BaseException | None = None
) -> CallResult:
    logger.warning(
        "provider stream failed",
        extra={
            "error_code": error.value,
            "http_status": http_status,
            "error_type": type(exc).__name__ if exc is not None else None,
        },
    )
    return CallResult(output=None, error=error)


async def _told_in_words(result: CallResult, on_text: OnText) -> CallResult:
    """A whole answer handed over a word at a time, as a stream would."""
    if result.output:
        words = result.output.split(" ")
        for index, word in enumerate(words):
            on_text(word if index == len(words) - 1 else word + " ")
            await asyncio.sleep(0)
    return result
