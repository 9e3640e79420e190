"""Server-sent events of the two streaming APIs, read into text deltas and usage.

OpenAI-compatible chat completions (`stream: true`, `stream_options.include_usage`): `data:`
lines holding `chat.completion.chunk` objects, `choices[0].delta.content` the text, a last
chunk with `usage`, then `data: [DONE]`. Anthropic's Messages API (`stream: true`): events
`message_start` (input usage), `content_block_delta` with a `text_delta`, `message_delta`
(output usage), `message_stop`. Pure: bytes in, `Piece`s out; provider text reaches nothing
but the output.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import orjson

from server.connections.models import ConnectionKind
from server.providers.http import Malformed, token_count


@dataclass(frozen=True, slots=True)
class Piece:
    """One event's worth: text to append, and any token counts it reported."""

    text: str = ""
    input_tokens: int | None = None
    output_tokens: int | None = None
    done: bool = False


class SseLines:
    """Splits a byte stream into the `data:` payloads of its events."""

    def __init__(self) -> None:
        self._buffer = b""

    def feed(self, chunk: bytes) -> list[bytes]:
        self._buffer += chunk
        payloads: list[bytes] = []
        while b"\n" in self._buffer:
            line, self._buffer = self._buffer.split(b"\n", 1)
            line = line.rstrip(b"\r")
            if line.startswith(b"data:"):
                payloads.append(line[5:].strip())
        return payloads


def _object(payload: bytes) -> dict[str, Any]:
    try:
        data = orjson.loads(payload)
    except ValueError:
        raise Malformed from None
    if not isinstance(data, dict):
        raise Malformed
    return data


def openai_piece(payload: bytes) -> Piece:
    """One chat-completion chunk; `[DONE]` ends the stream."""
    if payload == b"[DONE]":
        return Piece(done=True)
    data = _object(payload)
    text = ""
    choices = data.get("choices")
    if isinstance(choices, list) and choices and isinstance(choices[0], dict):
        delta = choices[0].get("delta")
        content = delta.get("content") if isinstance(delta, dict) else None
        if isinstance(content, str):
            text = content
    usage = data.get("usage")
    return Piece(
        text=text,
        input_tokens=token_count(usage, "prompt_tokens"),
        output_tokens=token_count(usage, "completion_tokens"),
    )


def anthropic_piece(payload: bytes) -> Piece:
    """One Messages API event; `message_stop` ends the stream, `error` is malformed."""
    data = _object(payload)
    kind = data.get("type")
    if kind == "message_start":
        message = data.get("message")
        usage = message.get("usage") if isinstance(message, dict) else None
        return Piece(
            input_tokens=token_count(usage, "input_tokens"),
            output_tokens=token_count(usage, "output_tokens"),
        )
    if kind == "content_block_delta":
        delta = data.get("delta")
        if isinstance(delta, dict) and delta.get("type") == "text_delta":
            text = delta.get("text")
            return Piece(text=text if isinstance(text, str) else "")
        return Piece()
    if kind == "message_delta":
        return Piece(output_tokens=token_count(data.get("usage"), "output_tokens"))
    if kind == "message_stop":
        return Piece(done=True)
    if kind == "error":
        raise Malformed
    return Piece()  # ping, content_block_start/stop


def piece_of(kind: ConnectionKind, payload: bytes) -> Piece:
    return anthropic_piece(payload) if kind == ConnectionKind.ANTHROPIC else openai_piece(payload)
