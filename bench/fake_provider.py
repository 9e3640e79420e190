"""A cheap fake OpenAI-compatible provider as its own process (the dispatch benchmark).

    python bench/fake_provider.py --delay 0.05     # prints its base URL, serves until killed

Every `POST …/chat/completions` gets the same completion ("Paris", with `usage`) after
`--delay` seconds, on a keep-alive HTTP/1.1 connection. It is a bare asyncio protocol on
uvloop with the answer encoded once: the benchmark measures the client, so the fake must
cost little (the Starlette fake of the tests, `bench/kit/openai_server.py`, spent about
0.1 ms of CPU an answer, as much as the client it served, on the same two cores).
Requests are read by their `Content-Length` (no chunked request bodies: neither aiohttp
nor shipwise sends them for a JSON body); `GET …/models` lists one model.

It keeps no request bodies: it counts each `X-Shipwise-Trial` header (docs/domain.md,
"Dispatch"), and `GET /log?comparison=PREFIX` answers the fake's log of the trials whose
header starts with PREFIX: calls, distinct trials, and the trials answered more than once
(`bench/scale.py` and `bench/soak.py` read it).
"""

from __future__ import annotations

import argparse
import asyncio
import signal
import socket
from collections import Counter
from urllib.parse import parse_qs, urlsplit

import orjson
import uvloop

COMPLETION = orjson.dumps(
    {
        "id": "chatcmpl-fake",
        "object": "chat.completion",
        "created": 0,
        "model": "bench",
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": "Paris"},
                "finish_reason": "stop",
            }
        ],
        "usage": {"prompt_tokens": 5, "completion_tokens": 2, "total_tokens": 7},
    }
)
MODELS = orjson.dumps({"object": "list", "data": [{"id": "bench", "object": "model"}]})


def _answer(body: bytes, status: bytes = b"200 OK") -> bytes:
    head = (
        b"HTTP/1.1 " + status + b"\r\nContent-Type: application/json\r\n"
        b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n"
    )
    return head + body


ANSWERS = {b"POST": _answer(COMPLETION), b"GET": _answer(MODELS)}
NOT_FOUND = _answer(b'{"error": {"message": "not found"}}', b"404 Not Found")
TRIALS: Counter[bytes] = Counter()
"""Calls per `X-Shipwise-Trial` header value, over the process's life."""


def _log(path: bytes) -> bytes:
    """The fake's log of the trials whose header starts with the `comparison` parameter."""
    query = parse_qs(urlsplit(path.decode("latin-1")).query)
    prefix = query.get("comparison", [""])[0].encode()
    counts = {k: n for k, n in TRIALS.items() if k.startswith(prefix)}
    twice = sorted(k.decode() for k, n in counts.items() if n > 1)
    return _answer(
        orjson.dumps(
            {
                "calls": sum(counts.values()),
                "distinct": len(counts),
                "answered_twice": len(twice),
                "examples": twice[:10],
            }
        )
    )


class FakeProtocol(asyncio.Protocol):
    """One connection: requests in order, each answered after the delay (in arrival order:
    the clients send one request at a time per connection)."""

    def __init__(self, delay: float) -> None:
        self.delay = delay
        self.buffer = b""
        self.transport: asyncio.Transport | None = None
        self.loop = asyncio.get_running_loop()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]

    def connection_lost(self, _exc: Exception | None) -> None:
        self.transport = None

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        while True:
            end = self.buffer.find(b"\r\n\r\n")
            if end < 0:
                return
            head = self.buffer[:end]
            length = 0
            trial = b""
            for line in head.split(b"\r\n")[1:]:
                name, _, value = line.partition(b":")
                lowered = name.strip().lower()
                if lowered == b"content-length":
                    length = int(value)
                elif lowered == b"x-shipwise-trial":
                    trial = value.strip()
            if len(self.buffer) < end + 4 + length:
                return
            self.buffer = self.buffer[end + 4 + length :]
            method, _, rest = head.partition(b" ")
            path = rest.partition(b" ")[0]
            if method == b"GET" and path.startswith(b"/log"):
                self._send(_log(path))
                continue
            if method == b"POST":
                TRIALS[trial] += 1
            known = path.endswith(b"/chat/completions") or path.endswith(b"/models")
            answer = ANSWERS.get(method, NOT_FOUND) if known else NOT_FOUND
            if self.delay:
                self.loop.call_later(self.delay, self._send, answer)
            else:
                self._send(answer)

    def _send(self, answer: bytes) -> None:
        if self.transport is not None:
            self.transport.write(answer)


async def serve(delay: float) -> None:
    loop = asyncio.get_running_loop()
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    server = await loop.create_server(lambda: FakeProtocol(delay), sock=sock, backlog=1024)
    print(f"http://127.0.0.1:{sock.getsockname()[1]}/v1", flush=True)  # noqa: T201 - read by the parent
    stop = asyncio.Event()
    loop.add_signal_handler(signal.SIGTERM, stop.set)
    loop.add_signal_handler(signal.SIGINT, stop.set)
    async with server:
        await stop.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--delay", type=float, default=0.05, help="seconds per answer")
    args = parser.parse_args()
    uvloop.run(serve(args.delay))


if __name__ == "__main__":
    main()
