"""The provider path's HTTP client (server/providers/wire.py) through `OpenAICompatibleProvider`,
against a raw HTTP/1.1 server on 127.0.0.1 that answers with exactly the bytes a test
scripts: keep-alive, chunked, compressed and close-delimited answers, oversize answers,
redirects and headers that would break a request."""

from __future__ import annotations

import asyncio
import gzip
import json
import zlib
from collections.abc import AsyncIterator, Callable

import httpx
import pytest

from server.providers.base import DispatchError, ModelCall
from server.providers.http import MAX_RESPONSE_BYTES
from server.providers.openai_compatible import OpenAICompatibleProvider
from tests.server.providers.conftest import RecordedSleep

ANSWER = json.dumps(
    {
        "choices": [{"message": {"role": "assistant", "content": "Paris."}}],
        "usage": {"prompt_tokens": 3, "completion_tokens": 2},
    }
).encode()

Script = Callable[[bytes], list[bytes]]
"""A request's raw bytes → the chunks to write back (b"" closes the connection)."""


def answer(body: bytes = ANSWER, *, head: str = "", status: str = "200 OK") -> bytes:
    length = (
        ""
        if "Transfer-Encoding" in head or "Connection: close" in head
        else (f"Content-Length: {len(body)}\r\n")
    )
    return f"HTTP/1.1 {status}\r\n{head}{length}\r\n".encode() + body


def chunked(body: bytes, size: int = 7) -> bytes:
    parts = [body[i : i + size] for i in range(0, len(body), size)]
    return b"".join(b"%x\r\n%s\r\n" % (len(p), p) for p in parts) + b"0\r\n\r\n"


class RawServer:
    def __init__(self) -> None:
        self.script: Script = lambda _: [answer()]
        self.requests: list[bytes] = []
        self.connections = 0
        self.server: asyncio.Server | None = None
        self.writers: list[asyncio.StreamWriter] = []

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        self.writers.append(writer)
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                length = 0
                for line in head.split(b"\r\n"):
                    name, _, value = line.partition(b":")
                    if name.lower() == b"content-length":
                        length = int(value)
                request = head + await reader.readexactly(length)
                self.requests.append(request)
                for chunk in self.script(request):
                    if not chunk:
                        writer.close()
                        return
                    writer.write(chunk)
                    await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            writer.close()

    @property
    def base_url(self) -> str:
        assert self.server is not None
        return f"http://127.0.0.1:{self.server.sockets[0].getsockname()[1]}/v1"

    def drop_idle(self) -> None:
        for writer in self.writers:
            writer.close()


@pytest.fixture
async def raw() -> AsyncIterator[RawServer]:
    server = RawServer()
    server.server = await asyncio.start_server(server.handle, "127.0.0.1", 0)
    yield server
    server.server.close()


@pytest.fixture
async def provider(
    raw: RawServer, sleeps: RecordedSleep
) -> AsyncIterator[OpenAICompatibleProvider]:
    p = OpenAICompatibleProvider(raw.base_url, "sk-raw", timeout=httpx.Timeout(2.0), sleep=sleeps)
    yield p
    await p.aclose()


CALL = ModelCall(
    messages=[{"role": "user", "content": "Capital of France?"}],
    model="m",
    max_output_tokens=8,
    trial_header="cmp_1/0/1/0",
    delivery_header="dlv_1",
)


async def test_calls_share_one_keep_alive_connection_and_carry_their_headers(
    provider: OpenAICompatibleProvider, raw: RawServer
) -> None:
    for _ in range(5):
        result = await provider.call(CALL)
        assert (result.output, result.input_tokens, result.output_tokens) == ("Paris.", 3, 2)
    assert raw.connections == 1
    head, _, body = raw.requests[0].partition(b"\r\n\r\n")
    lines = head.decode().split("\r\n")
    assert lines[0] == "POST /v1/chat/completions HTTP/1.1"
    assert "Authorization: Bearer sk-raw" in lines
    assert "X-Shipwise-Trial: cmp_1/0/1/0" in lines
    assert f"Content-Length: {len(body)}" in lines
    assert json.loads(body)["messages"] == CALL.messages


async def test_a_chunked_gzip_answer_is_decoded(
    provider: OpenAICompatibleProvider, raw: RawServer
) -> None:
    head = "Transfer-Encoding: chunked\r\nContent-Encoding: gzip\r\n"
    raw.script = lambda _: [answer(chunked(gzip.compress(ANSWER)), head=head)]
    assert (await provider.call(CALL)).output == "Paris."
    raw.script = lambda _: [answer(zlib.compress(ANSWER), head="Content-Encoding: deflate\r\n")]
    assert (await provider.call(CALL)).output == "Paris."
    assert raw.connections == 1  # a chunked answer read to its end leaves the socket reusable


async def test_an_answer_in_pieces_and_one_ended_by_close(
    provider: OpenAICompatibleProvider, raw: RawServer
) -> None:
    whole = answer()
    raw.script = lambda _: [whole[i : i + 5] for i in range(0, len(whole), 5)]
    assert (await provider.call(CALL)).output == "Paris."
    raw.script = lambda _: [answer(head="Connection: close\r\n"), b""]
    assert (await provider.call(CALL)).output == "Paris."
    assert (await provider.call(CALL)).output == "Paris."
    assert raw.connections == 2  # the socket the close ended is not used again


@pytest.mark.parametrize(
    "reply",
    [
        answer(b"x" * 10, head=f"Content-Length: {MAX_RESPONSE_BYTES + 1}\r\n")[:200],
        answer(
            chunked(b" " * (MAX_RESPONSE_BYTES + 1), size=1 << 20),
            head="Transfer-Encoding: chunked\r\n",
        ),
        answer(gzip.compress(b" " * (MAX_RESPONSE_BYTES + 1)), head="Content-Encoding: gzip\r\n"),
        answer(ANSWER, head="Content-Encoding: br\r\n"),
        b"SMTP ready\r\n\r\n",
    ],
    ids=["declared-too-large", "chunked-too-large", "gzip-bomb", "unasked-encoding", "not-http"],
)
async def test_an_answer_too_large_or_not_http_is_malformed_and_not_retried(
    provider: OpenAICompatibleProvider, raw: RawServer, reply: bytes
) -> None:
    raw.script = lambda _: [reply]
    result = await provider.call(CALL)
    assert (result.error, result.attempts) == (DispatchError.PROVIDER_MALFORMED_RESPONSE, 1)


async def test_a_redirect_is_not_followed(
    provider: OpenAICompatibleProvider, raw: RawServer
) -> None:
    raw.script = lambda _: [answer(b"moved", status="302 Found", head="Location: /elsewhere\r\n")]
    result = await provider.call(CALL)
    assert (result.error, result.attempts) == (DispatchError.PROVIDER_CLIENT_ERROR, 1)
    assert len(raw.requests) == 1


async def test_a_connection_the_server_dropped_while_idle_is_not_used(
    provider: OpenAICompatibleProvider, raw: RawServer
) -> None:
    assert (await provider.call(CALL)).error is None
    raw.drop_idle()
    await asyncio.sleep(0.05)  # the close reaches the client's idle socket
    result = await provider.call(CALL)
    assert (result.error, result.attempts) == (None, 1)
    assert raw.connections == 2


async def test_a_server_that_hangs_up_mid_answer_is_unreachable_and_retried(
    provider: OpenAICompatibleProvider, raw: RawServer
) -> None:
    raw.script = lambda _: [answer()[:30], b""]
    result = await provider.call(CALL)
    assert (result.error, result.attempts) == (DispatchError.PROVIDER_UNREACHABLE, 3)


async def test_a_header_that_would_split_the_request_is_never_sent(raw: RawServer) -> None:
    p = OpenAICompatibleProvider(raw.base_url, "sk-raw", headers={"X-Team": "a\r\nX-Evil: 1"})
    try:
        result = await p.call(CALL)
    finally:
        await p.aclose()
    assert (result.error, result.attempts) == (DispatchError.PROVIDER_UNREACHABLE, 1)
    assert raw.requests == []
