"""A webhook receiver: a real HTTP server on 127.0.0.1 that verifies `Shipwise-Signature`.

It runs in a background thread (a worker process can reach it too), checks each request's
signature with its secret as a receiver would, and answers with the next planned status
(default 200); a 3xx answer carries a `Location` to `/redirected`, which counts if visited.

    with WebhookReceiver(secret="…") as receiver:
        receiver.url                         # "http://127.0.0.1:<port>/hook"
        receiver.plan(500, 302)              # the next two answers, then `default_status`
        receiver.requests[0].verified        # the signature checked out
"""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any

from server.webhooks import signing


@dataclass(frozen=True)
class Received:
    path: str
    headers: dict[str, str]
    body: bytes
    verified: bool
    status: int
    received_at: float = field(default_factory=time.monotonic)

    @property
    def payload(self) -> Any:
        return json.loads(self.body)


class WebhookReceiver:
    def __init__(self, *, secret: str) -> None:
        self.secret = secret
        self.default_status = 200
        self._planned: deque[int] = deque()
        self._requests: list[Received] = []
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    @property
    def port(self) -> int:
        assert self._server is not None
        return int(self._server.server_address[1])

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/hook"

    @property
    def requests(self) -> list[Received]:
        with self._lock:
            return list(self._requests)

    def plan(self, *statuses: int) -> None:
        with self._lock:
            self._planned.extend(statuses)

    def reset(self) -> None:
        with self._lock:
            self._planned.clear()
            self._requests.clear()
        self.default_status = 200

    def _answer(self, path: str, headers: dict[str, str], body: bytes) -> int:
        verified = signing.verify(
            self.secret, headers.get("shipwise-signature", ""), body, now=int(time.time())
        )
        with self._lock:
            status = self._planned.popleft() if self._planned else self.default_status
            if not verified:
                status = 401
            self._requests.append(Received(path, headers, body, verified, status))
        return status

    def start(self) -> WebhookReceiver:
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", "0"))
                body = self.rfile.read(length)
                headers = {k.lower(): v for k, v in self.headers.items()}
                status = receiver._answer(self.path, headers, body)
                self.send_response(status)
                if 300 <= status < 400:
                    self.send_header("Location", f"http://127.0.0.1:{receiver.port}/redirected")
                self.send_header("Content-Length", "2")
                self.end_headers()
                self.wfile.write(b"ok")

            do_GET = do_POST  # a followed redirect would arrive as a GET

            def log_message(self, format: str, *args: Any) -> None:  # noqa: ARG002
                return

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(
            target=self._server.serve_forever, name="webhook-receiver", daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()

    def __enter__(self) -> WebhookReceiver:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()
