"""A lean keep-alive HTTP/1.1 client for the provider path: `POST` a JSON body, read the answer.

Why not aiohttp here: at 0 ms provider latency its per-request machinery (a request and a
response object, header multidicts, URL handling, payload lookup, tracing hooks, timers)
was a third of a dispatch worker's CPU (docs/benchmarks.md, "Dispatch at the physical
limit"). A provider call is always the same request to the same URL with a different body,
so this client writes the request head once per client (`Host`, the key, the connection's
headers) and per call adds only `Content-Length`, the trial headers and the body; the
answer is parsed by httptools (llhttp, the parser uvicorn uses).

What it keeps of aiohttp's behaviour on this path: at most `max_connections` sockets,
idle ones reused for `keepalive` seconds; TLS with the system's default verification;
connect and per-read timeouts (a body that stalls half-way times out); no redirects
followed (a 3xx is the caller's to judge); Content-Length, chunked and close-delimited
bodies; gzip and deflate answers decoded; an answer larger than `max_bytes` (compressed
or not) refused. A non-2xx answer is returned at its headers, its body never read (it is
provider text), and its connection is closed rather than reused.

Errors: `InvalidTarget` (a URL nobody can be asked at), `TimeoutError`, `OSError`
(refused, reset, TLS, a server that hung up: `Disconnected`), `BadAnswer` (not HTTP, an
encoding we did not ask for, too large).
"""

from __future__ import annotations

import asyncio
import socket
import ssl
import zlib
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import urlsplit

import httptools

DEFAULT_PORTS = {"http": 80, "https": 443}


class InvalidTarget(ValueError):
    """The URL is not an http(s) URL with a host, or a header cannot be sent."""


class BadAnswer(Exception):
    """The answer is not usable HTTP: unparseable, too large, or in an unknown encoding."""


class Disconnected(ConnectionError):
    """The server closed the connection before the answer was complete."""


@dataclass(frozen=True, slots=True)
class Answer:
    status: int
    body: bytes
    """The decoded body of a 2xx; empty otherwise (never read)."""
    retry_after: str | None = None


_tls: ssl.SSLContext | None = None


def _tls_context() -> ssl.SSLContext:
    global _tls
    if _tls is None:
        _tls = ssl.create_default_context()
    return _tls


def header_lines(headers: Mapping[str, str]) -> bytes:
    """`Name: value` lines; `InvalidTarget` for a header that would break the request."""
    lines = "".join(f"{name}: {value}\r\n" for name, value in headers.items())
    names = "".join(headers)
    if "\0" in lines or lines.count("\n") != len(headers) or lines.count("\r") != len(headers):
        raise InvalidTarget("a header cannot be sent")
    if ":" in names or any(not name for name in headers):
        raise InvalidTarget("a header cannot be sent")
    return lines.encode()


class _Connection(asyncio.Protocol):
    """One socket; one request at a time. Parser callbacks fill the current answer."""

    def __init__(self, client: WireClient) -> None:
        self.loop = client.loop
        self.read_timeout = client.read_timeout
        self.max_bytes = client.max_bytes
        self.transport: asyncio.Transport | None = None
        self.parser = httptools.HttpResponseParser(self)
        self.closed = False
        self.idle_since = 0.0
        self._reset()

    def _reset(self) -> None:
        self.waiter: asyncio.Future[Answer] | None = None
        self.status = 0
        self.chunks: list[bytes] = []
        self.size = 0
        self.encoding: bytes | None = None
        self.retry_after: str | None = None
        self.delimited = False
        """Content-Length or chunked: the body does not end at the connection's close."""
        self.headers_done = False
        self.complete = False
        self.failure: BaseException | None = None
        self.deadline = 0.0
        self.timer: asyncio.TimerHandle | None = None

    # -- asyncio ----------------------------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]
        sock = transport.get_extra_info("socket")
        if sock is not None:
            try:
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            except (OSError, AttributeError):
                pass

    def connection_lost(self, _exc: Exception | None) -> None:
        self.closed = True
        if self.waiter is None or self.waiter.done():
            return
        if self.headers_done and not self.delimited and self.failure is None:
            self._finish()  # a close-delimited body ends here
        else:
            self._fail(Disconnected())

    def data_received(self, data: bytes) -> None:
        if self.waiter is None or self.waiter.done():
            self.close()  # nothing asked: a stray byte on an idle connection
            return
        self.deadline = self.loop.time() + self.read_timeout
        try:
            self.parser.feed_data(data)
        except httptools.HttpParserUpgrade:
            self._fail(BadAnswer())
        except httptools.HttpParserError:
            self._fail(self.failure or BadAnswer())
        if self.failure is not None:
            self._fail(self.failure)

    # -- httptools callbacks ----------------------------------------------------------------

    def on_header(self, name: bytes, value: bytes) -> None:
        name = name.lower()
        if name == b"content-encoding":
            self.encoding = value.strip().lower()
        elif name == b"retry-after":
            self.retry_after = value.decode("latin-1")
        elif name == b"content-length":
            self.delimited = True
            if value.strip().isdigit() and int(value) > self.max_bytes:
                self.failure = BadAnswer()
        elif name == b"transfer-encoding":
            self.delimited = True

    def on_headers_complete(self) -> None:
        self.headers_done = True
        self.status = self.parser.get_status_code()
        if not 200 <= self.status < 300:
            # The body is provider text: not read; the connection is not reused.
            self.complete = False
            self._settle(Answer(self.status, b"", self.retry_after))

    def on_body(self, body: bytes) -> None:
        self.size += len(body)
        if self.size > self.max_bytes:
            self.failure = BadAnswer()
        elif self.failure is None:
            self.chunks.append(body)

    def on_message_complete(self) -> None:
        if self.failure is None and 200 <= self.status < 300:
            self.complete = self.parser.should_keep_alive()
            self._finish()

    # -- answers ----------------------------------------------------------------------------

    def _finish(self) -> None:
        chunks = self.chunks
        raw = chunks[0] if len(chunks) == 1 else b"".join(chunks)
        try:
            body = _decoded(raw, self.encoding, self.max_bytes)
        except BadAnswer as exc:
            self._fail(exc)
            return
        self._settle(Answer(self.status, body, self.retry_after))

    def _settle(self, answer: Answer) -> None:
        if self.waiter is not None and not self.waiter.done():
            self.waiter.set_result(answer)

    def _fail(self, exc: BaseException) -> None:
        self.complete = False
        if self.waiter is not None and not self.waiter.done():
            self.waiter.set_exception(exc)
        self.close()

    def _check_deadline(self) -> None:
        if self.waiter is None or self.waiter.done():
            return
        now = self.loop.time()
        if now >= self.deadline:
            self._fail(TimeoutError())
        else:
            self.timer = self.loop.call_at(self.deadline, self._check_deadline)

    async def exchange(self, request: bytes) -> Answer:
        """Send `request`, wait for its answer (a 2xx whole, else the status line)."""
        self._reset()
        if self.closed or self.transport is None or self.transport.is_closing():
            raise Disconnected  # the server closed it while idle
        self.waiter = self.loop.create_future()
        self.transport.write(request)
        self.deadline = self.loop.time() + self.read_timeout
        self.timer = self.loop.call_at(self.deadline, self._check_deadline)
        try:
            return await self.waiter
        finally:
            if self.timer is not None:
                self.timer.cancel()

    def close(self) -> None:
        self.closed = True
        if self.transport is not None:
            self.transport.close()


def _decoded(raw: bytes, encoding: bytes | None, max_bytes: int) -> bytes:
    if encoding is None or encoding in (b"identity", b""):
        return raw
    if encoding in (b"gzip", b"x-gzip"):
        return _inflate(raw, 16 + zlib.MAX_WBITS, max_bytes)
    if encoding == b"deflate":
        try:
            return _inflate(raw, zlib.MAX_WBITS, max_bytes)
        except BadAnswer:
            return _inflate(raw, -zlib.MAX_WBITS, max_bytes)  # raw deflate, as some servers send
    raise BadAnswer  # we asked for gzip or deflate only


def _inflate(raw: bytes, wbits: int, max_bytes: int) -> bytes:
    decoder = zlib.decompressobj(wbits)
    try:
        body = decoder.decompress(raw, max_bytes + 1)
        if len(body) > max_bytes or decoder.unconsumed_tail:
            raise BadAnswer
        body += decoder.flush()
    except zlib.error:
        raise BadAnswer from None
    if len(body) > max_bytes or not decoder.eof:
        raise BadAnswer
    return body


class WireClient:
    """`POST url` with fixed `headers`; create and use it in one running loop."""

    def __init__(
        self,
        url: str,
        headers: Mapping[str, str],
        *,
        connect_timeout: float | None,
        read_timeout: float | None,
        max_connections: int,
        max_bytes: int,
        keepalive: float = 30.0,
    ) -> None:
        self.loop = asyncio.get_running_loop()
        self.connect_timeout = connect_timeout
        self.read_timeout = read_timeout if read_timeout is not None else 1e9
        self.max_bytes = max_bytes
        self.keepalive = keepalive
        self.max_connections = max(1, max_connections)
        self._idle: list[_Connection] = []
        self._open = 0
        self._waiters: deque[asyncio.Future[None]] = deque()
        self._closed = False
        self._invalid: InvalidTarget | None = None
        self._head = b""
        try:
            self._target(url, headers)
        except (InvalidTarget, ValueError, UnicodeError):
            self._invalid = InvalidTarget("the URL cannot be asked")

    def _target(self, url: str, headers: Mapping[str, str]) -> None:
        parts = urlsplit(url)
        scheme = parts.scheme.lower()
        if scheme not in DEFAULT_PORTS or not parts.hostname:
            raise InvalidTarget("not an http(s) URL")
        self.host = parts.hostname
        self.port = parts.port or DEFAULT_PORTS[scheme]
        self.tls = scheme == "https"
        host = f"[{self.host}]" if ":" in self.host else self.host.encode("idna").decode()
        if parts.port and parts.port != DEFAULT_PORTS[scheme]:
            host = f"{host}:{parts.port}"
        target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        if any(c in target for c in " \r\n\0"):
            raise InvalidTarget("the path cannot be sent")
        fixed = {
            "Host": host,
            "Accept": "*/*",
            "Accept-Encoding": "gzip, deflate",
            "User-Agent": "shipwise",
            **headers,
        }
        self._head = f"POST {target} HTTP/1.1\r\n".encode() + header_lines(fixed)

    async def post(self, body: bytes, headers: bytes = b"") -> Answer:
        """One request: the head written once, this call's `headers` (`header_lines`), the
        body."""
        if self._invalid is not None:
            raise self._invalid
        length = b"Content-Length: %d\r\n\r\n" % len(body)
        request = b"".join((self._head, headers, length, body))
        connection = await self._acquire()
        reusable = False
        try:
            answer = await connection.exchange(request)
            reusable = connection.complete and not connection.closed
            return answer
        finally:
            self._release(connection, reusable)

    # -- the pool ---------------------------------------------------------------------------

    async def _acquire(self) -> _Connection:
        while True:
            if self._closed:
                raise RuntimeError("the client is closed")
            now = self.loop.time()
            while self._idle:
                connection = self._idle.pop()
                if not connection.closed and now - connection.idle_since < self.keepalive:
                    return connection
                self._discard(connection)
            if self._open < self.max_connections:
                self._open += 1
                try:
                    return await self._connect()
                except BaseException:
                    self._open -= 1
                    self._wake()
                    raise
            waiter = self.loop.create_future()
            self._waiters.append(waiter)
            try:
                await waiter
            except BaseException:
                if waiter.done() and not waiter.cancelled():
                    self._wake()  # woken, then cancelled: pass the turn on
                raise

    async def _connect(self) -> _Connection:
        tls = _tls_context() if self.tls else None
        made = self.loop.create_connection(
            lambda: _Connection(self),
            self.host,
            self.port,
            ssl=tls,
            server_hostname=self.host if tls else None,
        )
        _, connection = await asyncio.wait_for(made, self.connect_timeout)
        return connection

    def _release(self, connection: _Connection, reusable: bool) -> None:
        if reusable and not self._closed:
            connection.idle_since = self.loop.time()
            connection.waiter = None
            self._idle.append(connection)
        else:
            self._discard(connection)
        self._wake()

    def _discard(self, connection: _Connection) -> None:
        connection.close()
        self._open -= 1

    def _wake(self) -> None:
        while self._waiters:
            waiter = self._waiters.popleft()
            if not waiter.done():
                waiter.set_result(None)
                return

    async def aclose(self) -> None:
        self._closed = True
        for connection in self._idle:
            connection.close()
        self._idle.clear()
        for waiter in self._waiters:
            if not waiter.done():
                waiter.set_exception(RuntimeError("the client is closed"))
        self._waiters.clear()
