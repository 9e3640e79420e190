"""Count the SQL statements the server issues for the requests a block sends (N+1 tests).

Only the requests' own statements count: a request sent inside `counting_statements`
carries a header, the server (wrapped by `TagCountedRequests` in bench/kit/harness.py) serves
it with a context variable set, and the statement listener keeps the statements run in
that context — the request's task and the tasks it starts. A periodic job (a sweep, a
heartbeat) shares the engine but not the context, so a tick during the block counts nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any
from uuid import uuid4

import httpx
from sqlalchemy import event

if TYPE_CHECKING:
    from starlette.types import ASGIApp, Receive, Scope, Send

    from bench.kit.harness import Backend

HEADER = "x-shipwise-test-count"
_serving: ContextVar[str | None] = ContextVar("shipwise_test_serving", default=None)
"""Server side: the tag of the counted request being served."""
_sending: ContextVar[str | None] = ContextVar("shipwise_test_sending", default=None)
"""Client side: the tag for the requests a `counting_statements` block sends."""


class TagCountedRequests:
    """ASGI middleware: a request with the count header is served with its tag set."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        tag = None
        if scope["type"] in ("http", "websocket"):
            tag = dict(scope["headers"]).get(HEADER.encode())
        if tag is None:
            await self.app(scope, receive, send)
            return
        token = _serving.set(tag.decode())
        try:
            await self.app(scope, receive, send)
        finally:
            _serving.reset(token)


async def tag_counted_request(request: httpx.Request) -> None:
    """httpx request hook: mark a request sent inside `counting_statements`."""
    tag = _sending.get()
    if tag is not None:
        request.headers[HEADER] = tag


@contextmanager
def counting_statements(backend: Backend, *, token_checks: bool = False) -> Iterator[list[str]]:
    """The statements the server runs for the requests sent inside the block, in order.

    A token's check against the database comes again once the process's token cache lets it
    go (`token_cache_seconds`), whatever the request: on a slow host, between any two
    requests. It is left out unless `token_checks` asks for it."""
    statements: list[str] = []
    tag = uuid4().hex

    def before(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        if _serving.get() == tag and (token_checks or not is_token_check(statement)):
            statements.append(statement)

    with listening(backend.state.engine.sync_engine, "before_cursor_execute", before):
        token = _sending.set(tag)
        try:
            yield statements
        finally:
            _sending.reset(token)


@contextmanager
def listening(target: Any, name: str, listener: Callable[..., None]) -> Iterator[None]:
    """`listener` on SQLAlchemy's event `name` of `target` (an engine, a connection) for the
    block only."""
    event.listen(target, name, listener)
    try:
        yield
    finally:
        event.remove(target, name, listener)


def is_token_check(statement: str) -> bool:
    """Whether `statement` is `server.auth.authenticate`'s read of an API token."""
    return "FROM api_token" in statement
