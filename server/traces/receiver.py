"""`POST /v1/traces`: the OTLP/HTTP trace receiver (docs/traces.md). A MEMBER's or an INGEST
token; protobuf or OTLP JSON, gzip or not; 8 MiB at most; the token's rate; spans stored once
by (trace id, span id); the answer an `ExportTraceServiceResponse`, an error a `Status`."""

from __future__ import annotations

import logging
import math
import time
from typing import NamedTuple, Protocol

from sqlalchemy import select
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncSession
from starlette.requests import ClientDisconnect, Request
from starlette.responses import Response

from server.auth import bearer_token
from server.db import transaction
from server.errors import Forbidden, ShipwiseError, Unauthenticated
from server.state import AppState
from server.token_cache import TokenCache
from server.traces import counts, otlp, store
from server.traces.prepare import Prepared
from server.traces.preparer import Preparer
from server.traces.price_book import PriceBook, PriceEntry
from server.workspaces.models import Workspace
from server.workspaces.roles import Actor, Role, TokenScope

logger = logging.getLogger("shipwise.traces")

MAX_BODY_BYTES = 8 * 1024 * 1024
"""A larger export is refused with 413 (compressed or not)."""
MAX_DECOMPRESSED_BYTES = 64 * 1024 * 1024
"""A gzip body that inflates past this is refused with 413 too."""
RETENTION_SWEEP_SECONDS = 600.0
"""A workspace's expired traces are deleted at most this often per process."""

# gRPC codes the OTLP `Status` carries.
_INVALID_ARGUMENT = 3
_PERMISSION_DENIED = 7
_RESOURCE_EXHAUSTED = 8
_UNAVAILABLE = 14
_UNAUTHENTICATED = 16


class AfterStore(Protocol):
    async def watching(self, session: AsyncSession, workspace_id: str) -> bool: ...

    async def stored(self, workspace_id: str) -> None: ...


class _Priced(NamedTuple):
    """What an export was prepared from: prepared again if its prices changed meanwhile."""

    body: bytes
    media: str
    prices: PriceEntry


class TraceReceiver:
    """The endpoint; bound to the app's state at start-up (routes are declared before it)."""

    def __init__(self) -> None:
        self.state: AppState | None = None
        self.tokens: TokenCache | None = None
        self._swept: dict[str, float] = {}
        self.after_store: AfterStore | None = None
        """Asked, in the transaction storing a workspace's spans, whether it watches them, and
        if so told after the commit (set by `server/app.py`: live comparisons)."""
        self.preparer = Preparer(0)
        self.prices = PriceBook()

    def bind(self, state: AppState) -> None:
        self.state = state
        self.preparer = Preparer(state.settings.trace_prepare_processes)
        self.tokens = TokenCache(
            state.read_sessionmaker, ttl=state.settings.token_cache_seconds, ingest=True
        )

    async def endpoint(self, request: Request) -> Response:
        assert self.state is not None and self.tokens is not None, "the lifespan has not started"
        media = _media_type(request.headers.get("content-type"))
        answer_as = media or otlp.JSON
        if media is None:
            return _status(
                415,
                _INVALID_ARGUMENT,
                "send application/x-protobuf or application/json (OTLP)",
                answer_as,
            )
        try:
            actor = await self._caller(request)
        except Unauthenticated as exc:
            return _status(401, _UNAUTHENTICATED, exc.message, answer_as)
        except Forbidden as exc:
            return _status(403, _PERMISSION_DENIED, exc.message, answer_as)
        if not await self.state.rate_limiter.hit(
            f"ingest:{actor.token_id}", limit=actor.requests_per_minute
        ):
            return _status(
                429,
                _RESOURCE_EXHAUSTED,
                f"over {actor.requests_per_minute} exports per minute for this token",
                answer_as,
                headers={"Retry-After": str(_seconds_to_next_minute())},
            )
        return await self._receive(request, actor, media)

    async def _caller(self, request: Request) -> Actor:
        assert self.tokens is not None
        try:
            actor = await self.tokens.authenticate(
                bearer_token(request.headers.get("authorization"))
            )
        except ShipwiseError as exc:
            if isinstance(exc, Forbidden | Unauthenticated):
                raise
            raise Unauthenticated("a valid API token is required") from exc
        if actor.scope != TokenScope.INGEST and not actor.role.at_least(Role.MEMBER):
            raise Forbidden("writing traces needs a MEMBER's token or an INGEST token")
        return actor

    async def _receive(self, request: Request, actor: Actor, media: str) -> Response:
        declared = request.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > MAX_BODY_BYTES:
            return _too_large(media)
        try:
            body = await _read_body(request)
        except ClientDisconnect:
            return Response(status_code=400)
        if body is None:
            return _too_large(media)
        try:
            raw = otlp.decompress(body, request.headers.get("content-encoding"))
            if len(raw) > MAX_DECOMPRESSED_BYTES:
                return _too_large(media)
            prices = await self._prices(actor.workspace_id)
            prepared = await self.preparer.prepare(raw, media, prices.prices, actor.workspace_id)
            await self._store(actor, prepared, _Priced(raw, media, prices))
        except otlp.NotOtlp as exc:
            return _status(400, _INVALID_ARGUMENT, str(exc), media)
        except SQLAlchemyError as exc:  # exporters retry a 503
            logger.warning("traces not stored", extra={"error_type": type(exc).__name__})
            return _status(
                503,
                _UNAVAILABLE,
                "the spans could not be stored; retry",
                media,
                headers={"Retry-After": "1"},
            )
        reason = "; ".join(prepared.reasons)
        return Response(
            otlp.response_body(prepared.rejected, reason, media),
            media_type=media,
        )

    async def _prices(self, workspace_id: str) -> PriceEntry:
        """The workspace's prices as last read here; read first when this process has none
        (the store's transaction checks they are still the committed ones)."""
        assert self.state is not None
        known = self.prices.get(workspace_id)
        if known is None:
            async with self.state.read_sessionmaker() as session:
                stamp = await store.prices_stamp(session=session, workspace_id=workspace_id)
                known = PriceEntry(
                    stamp, await store.prices_of(session=session, workspace_id=workspace_id)
                )
            self.prices.keep(workspace_id, known)
        return known

    async def _store(self, actor: Actor, prepared: Prepared, priced: _Priced) -> None:
        assert self.state is not None
        workspace_id = actor.workspace_id
        if prepared.rows:
            async with transaction(self.state.sessionmaker) as session:
                stamp = await store.prices_stamp(session=session, workspace_id=workspace_id)
                if stamp != priced.prices.stamp:  # set since (here or in another process)
                    prices = await store.prices_of(session=session, workspace_id=workspace_id)
                    self.prices.keep(workspace_id, PriceEntry(stamp, prices))
                    if prices != priced.prices.prices:
                        prepared = await self.preparer.prepare(
                            priced.body, priced.media, prices, workspace_id
                        )
                await store.store_prepared(
                    session=session, workspace_id=workspace_id, prepared=prepared
                )
                hook = self.after_store
                watching = hook is not None and await hook.watching(session, workspace_id)
            counts.changed(workspace_id)  # committed: the list's counts count again
            if hook is not None and watching:  # live comparisons grade them (docs/live.md)
                await hook.stored(workspace_id)
        await self._sweep(workspace_id)

    def close(self) -> None:
        self.preparer.close()

    async def _sweep(self, workspace_id: str) -> None:
        """Retention: the workspace's expired traces deleted, at most every 10 minutes."""
        assert self.state is not None
        now = time.monotonic()
        if now - self._swept.get(workspace_id, -math.inf) < RETENTION_SWEEP_SECONDS:
            return
        self._swept[workspace_id] = now
        async with transaction(self.state.sessionmaker) as session:
            days = await session.scalar(
                select(Workspace.trace_retention_days).where(Workspace.id == workspace_id)
            )
            if days:
                await store.forget_expired(session=session, workspace_id=workspace_id, days=days)
        counts.changed(workspace_id)


def _media_type(content_type: str | None) -> str | None:
    value = (content_type or "").split(";", 1)[0].strip().lower()
    if value in ("application/x-protobuf", "application/protobuf"):
        return otlp.PROTOBUF
    if value == "application/json":
        return otlp.JSON
    return None


async def _read_body(request: Request) -> bytes | None:
    """The body, or None past `MAX_BODY_BYTES` (read no further)."""
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY_BYTES:
            return None
        chunks.append(chunk)
    return b"".join(chunks)


def _too_large(media: str) -> Response:
    return _status(413, _INVALID_ARGUMENT, f"the export is over {MAX_BODY_BYTES} bytes", media)


def _status(
    http_status: int,
    code: int,
    message: str,
    media: str,
    headers: dict[str, str] | None = None,
) -> Response:
    return Response(
        otlp.status_body(code, message, media),
        status_code=http_status,
        media_type=media,
        headers=headers,
    )


def _seconds_to_next_minute() -> int:
    """Rate windows are whole minutes (server/runtime): retry when this one ends."""
    return max(1, math.ceil(60 - time.time() % 60))
