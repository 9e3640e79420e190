"""The SDK transport's one retry policy (tenacity), in both faces: a server that is briefly
away (HTTP 503 without GraphQL, UNAVAILABLE, RATE_LIMITED) is asked again with backoff; a
GraphQL error that would repeat is not; the command line's face (`retries=0`) asks once.

The "server" is a scripted HTTP server on 127.0.0.1 standing for a shipwise that restarts."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from itertools import pairwise

import pytest
from shipwise.errors import NotFoundError, ShipwiseError
from shipwise.transport import BlockingTransport, Transport

from server.cli.client import ApiClient, ApiError

AWAY = (503, b"restarting", "text/plain")
LIMITED = (200, json.dumps({"errors": [{"message": "slow down",
                                        "extensions": {"code": "RATE_LIMITED"}}]}).encode(),
           "application/json")  # fmt: skip
DATABASE_AWAY = (503, json.dumps({"errors": [{"message": "try again shortly",
                                              "extensions": {"code": "UNAVAILABLE"}}]}).encode(),
                 "application/json")  # fmt: skip
MISSING = (200, json.dumps({"errors": [{"message": "no such run",
                                        "extensions": {"code": "NOT_FOUND"}}]}).encode(),
           "application/json")  # fmt: skip
OK = (200, json.dumps({"data": {"ok": 1}}).encode(), "application/json")


class Scripted(ThreadingHTTPServer):
    """Answers each POST with the next scripted answer (the last one repeats)."""

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.script: list[tuple[int, bytes, str]] = [OK]
        self.seen: list[float] = []

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"


class _Handler(BaseHTTPRequestHandler):
    server: Scripted

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length", "0")))
        self.server.seen.append(time.monotonic())
        script = self.server.script
        status, body, kind = script.pop(0) if len(script) > 1 else script[0]
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture
def server() -> Iterator[Scripted]:
    scripted = Scripted()
    thread = threading.Thread(target=scripted.serve_forever, daemon=True)
    thread.start()
    yield scripted
    scripted.shutdown()
    scripted.server_close()


async def test_the_async_face_rides_out_a_restart_with_backoff(server: Scripted) -> None:
    server.script = [AWAY, LIMITED, OK]
    async with Transport(server.url, "token") as transport:
        assert await transport.execute("{ ok }") == {"ok": 1}
    assert len(server.seen) == 3
    waits = [later - earlier for earlier, later in pairwise(server.seen)]
    assert waits[0] >= 0.45 and waits[1] >= 0.95  # 0.5 s, then 1 s


async def test_a_server_without_its_database_is_asked_again(server: Scripted) -> None:
    server.script = [DATABASE_AWAY, OK]
    async with Transport(server.url, "token") as transport:
        assert await transport.execute("{ ok }") == {"ok": 1}
    assert len(server.seen) == 2


async def test_an_error_that_would_repeat_is_not_asked_again(server: Scripted) -> None:
    server.script = [MISSING, OK]
    async with Transport(server.url, "token") as transport:
        with pytest.raises(NotFoundError):
            await transport.execute("{ ok }")
    assert len(server.seen) == 1


def test_the_blocking_face_retries_as_many_times_as_asked(server: Scripted) -> None:
    server.script = [AWAY, AWAY, AWAY]
    with BlockingTransport(server.url, "token", retries=1) as transport:
        with pytest.raises(ShipwiseError) as raised:
            transport.execute("{ ok }")
    assert raised.value.code == "UNREACHABLE" and len(server.seen) == 2


def test_the_command_line_asks_once_and_answers_with_the_code(server: Scripted) -> None:
    server.script = [LIMITED, OK]
    with ApiClient(server.url, "token") as client:
        with pytest.raises(ApiError) as raised:
            client.execute("{ ok }")
        assert raised.value.code == "RATE_LIMITED" and len(server.seen) == 1
        assert client.execute("{ ok }") == {"ok": 1}
