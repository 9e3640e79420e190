"""The composition root: settings → database, runtime adapters, schema and routes; the one
module of `server` that imports `jobs` (the registry the embedded runtime runs) but for
`shipwise worker`, which runs `jobs.main` without the API's imports."""

from __future__ import annotations

import gc
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.routing import Route, WebSocketRoute

from jobs.registry import build_registry
from server.api.http import persisted
from server.api.http.body_limit import BodyLimitMiddleware
from server.api.http.graphql_view import ShipwiseGraphQL
from server.api.schema import build_schema
from server.db import (
    create_engine,
    create_read_sessionmaker,
    create_sessionmaker,
    transaction,
)
from server.dispatch import lease, ranges
from server.driver_reads import DriverConnections
from server.exports.endpoints import ROUTES as export_routes
from server.graphiql import page as graphiql_page
from server.health import healthz, readyz
from server.live import hooks as live_hooks
from server.metrics import MetricsMiddleware, metrics_endpoint
from server.portal import files as portal_files
from server.providers.openai_compatible import provider_timeout
from server.providers.registry import ProviderPool
from server.reports.page import report_page
from server.runs.page import diff_page
from server.runtime.factory import build_runtime
from server.security import SecretBox
from server.settings import Settings
from server.state import AppState
from server.token_cache import TokenCache
from server.traces.receiver import TraceReceiver

logger = logging.getLogger("shipwise.app")


class _LazyGraphQL:
    """Routes are declared before start-up; the view needs state built in the lifespan."""

    def __init__(self) -> None:
        self.view: ShipwiseGraphQL | None = None

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        assert self.view is not None, "the lifespan has not started"
        await self.view(scope, receive, send)


async def _free_stale_leases(sessionmaker: async_sessionmaker[AsyncSession]) -> None:
    """Embedded: no other process can hold a lease, so a run left RUNNING resumes from its rows."""
    try:
        async with transaction(sessionmaker) as session:
            await lease.expire_all_running(session)
            await ranges.expire_all_running(session)
    except (OSError, SQLAlchemyError) as exc:  # serve anyway: /readyz reports the database
        logger.warning("database unavailable at start-up", extra={"error_type": type(exc).__name__})


def create_served_app() -> Starlette:
    """What each `shipwise serve --workers N` process serves: the app from the environment."""
    from server.logs import configure_logging
    from server.settings import get_settings

    settings = get_settings()
    configure_logging(settings.log_level)
    return create_app(settings, tune_gc=True)


def _tune_gc() -> None:
    """A served process: what start-up built lives for good, so the collector stops scanning
    it (`gc.freeze`). The collection thresholds stay Python's: raising them to 50,000 held
    cyclic garbage long enough to lift the run-diff bench's server from 289 to 448 MB."""
    gc.collect()
    gc.freeze()


def create_app(settings: Settings, *, tune_gc: bool = False) -> Starlette:
    graphql = _LazyGraphQL()
    traces = TraceReceiver()

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        # A request holds one connection while it reads (server/reading.py): enough for 50
        # concurrent requests without opening and closing overflow connections under load.
        # Connections are pinged only after sitting idle (server/db.py): a ping at every
        # checkout was a fifth of a cached answer's time.
        engine = create_engine(
            settings.database_url, pool_size=30, max_overflow=10, ping_idle_after=5.0
        )
        sessionmaker = create_sessionmaker(engine)
        read_sessionmaker = create_read_sessionmaker(engine)
        secret_box = SecretBox(settings.resolved_secret_key())
        providers = ProviderPool(
            secret_box, timeout=provider_timeout(settings.provider_timeout_seconds)
        )
        ctx: dict[str, Any] = {
            "settings": settings,
            "engine": engine,
            "sessionmaker": sessionmaker,
            "providers": providers,
        }
        runtime = build_runtime(
            redis_url=settings.redis_url,
            registry=build_registry(settings),
            ctx=ctx,
        )
        state = AppState(
            settings=settings,
            engine=engine,
            sessionmaker=sessionmaker,
            read_sessionmaker=read_sessionmaker,
            queue=runtime.queue,
            events=runtime.events,
            rate_limiter=runtime.rate_limiter,
            secret_box=secret_box,
            tokens=TokenCache(read_sessionmaker, ttl=settings.token_cache_seconds),
            providers=providers,
            page_connections=DriverConnections(engine)
            if engine.dialect.name == "postgresql"
            else None,
        )
        app.state.shipwise = state
        traces.bind(state)
        traces.after_store = live_hooks.traces_stored(queue=state.queue)
        persisted_documents = persisted.load(settings.persisted_documents_file())
        graphql.view = ShipwiseGraphQL(build_schema(settings), state, persisted_documents)
        if runtime.embedded:
            await _free_stale_leases(sessionmaker)
        await runtime.start()
        if tune_gc:
            _tune_gc()
        try:
            yield
        finally:
            # The queue returns once its jobs have ended (a cancelled delivery first finishes
            # and records its calls in flight): only then are the providers closed.
            await runtime.close()
            traces.close()
            await providers.aclose()
            if state.page_connections is not None:
                await state.page_connections.close()
            await engine.dispose()

    return Starlette(
        routes=[
            Route("/graphql", graphql, methods=["GET", "POST", "PUT", "PATCH", "DELETE"]),
            WebSocketRoute("/graphql", graphql),
            Route(
                f"{graphiql_page.ASSET_PATH}/{{name}}",
                graphiql_page.asset_endpoint(settings.graphiql_assets_dir),
            ),
            Route("/healthz", healthz),
            Route("/readyz", readyz),
            Route("/metrics", metrics_endpoint),
            Route("/v1/traces", traces.endpoint, methods=["POST"]),
            Route("/experiments/{experiment_id}/runs/{run_id}/diff", diff_page),
            Route("/reports/{report_id}.html", report_page, methods=["GET"]),
            *export_routes,  # before the portal's `/comparisons/{rest:path}`
            Route(
                f"{portal_files.ASSET_PREFIX}/{{name}}",
                portal_files.asset_endpoint(settings.portal_dir),
            ),
            *(
                Route(path, portal_files.index_endpoint(settings.portal_dir))
                for path in portal_files.ROUTES
            ),
        ],
        middleware=[
            Middleware(MetricsMiddleware),
            Middleware(
                BodyLimitMiddleware, limit=settings.max_body_bytes, own_limits=("/v1/traces",)
            ),
        ],
        lifespan=lifespan,
    )
