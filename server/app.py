"""The composition root: settings → database, runtime adapters, schema and routes."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.routing import Route, WebSocketRoute

from jobs.registry import build_registry
from server.body_limit import BodyLimitMiddleware
from server.context import AppState
from server.db import create_engine, create_sessionmaker
from server.graphql_view import ShipwiseGraphQL
from server.health import healthz, readyz
from server.metrics import MetricsMiddleware, metrics_endpoint
from server.runtime.factory import build_runtime
from server.schema import build_schema
from server.security import SecretBox
from server.settings import Settings


class _LazyGraphQL:
    """Routes are declared before start-up; the view needs state built in the lifespan."""

    def __init__(self) -> None:
        self.view: ShipwiseGraphQL | None = None

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        assert self.view is not None, "the lifespan has not started"
        await self.view(scope, receive, send)


def create_app(settings: Settings) -> Starlette:
    graphql = _LazyGraphQL()

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        engine = create_engine(settings.database_url)
        sessionmaker = create_sessionmaker(engine)
        ctx: dict[str, Any] = {"settings": settings, "engine": engine, "sessionmaker": sessionmaker}
        runtime = build_runtime(
            redis_url=settings.redis_url,
            registry=build_registry(timeout_seconds=settings.job_timeout_seconds),
            ctx=ctx,
        )
        state = AppState(
            settings=settings,
            engine=engine,
            sessionmaker=sessionmaker,
            queue=runtime.queue,
            events=runtime.events,
            rate_limiter=runtime.rate_limiter,
            secret_box=SecretBox(settings.resolved_secret_key()),
        )
        app.state.shipwise = state
        graphql.view = ShipwiseGraphQL(build_schema(settings), state)
        await runtime.start()
        try:
            yield
        finally:
            await runtime.close()
            await engine.dispose()

    return Starlette(
        routes=[
            Route("/graphql", graphql, methods=["GET", "POST"]),
            WebSocketRoute("/graphql", graphql),
            Route("/healthz", healthz),
            Route("/readyz", readyz),
            Route("/metrics", metrics_endpoint),
        ],
        middleware=[
            Middleware(MetricsMiddleware),
            Middleware(BodyLimitMiddleware, limit=settings.max_body_bytes),
        ],
        lifespan=lifespan,
    )
