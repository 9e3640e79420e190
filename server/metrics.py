"""Prometheus metrics: requests, errors by code, and job counts and worker heartbeats read at
scrape time."""

from __future__ import annotations

import logging
import time
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_LATEST
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from server.ops import service as ops_service
from server.runtime.interfaces import JobQueue
from server.state import AppState

logger = logging.getLogger("shipwise.metrics")

REGISTRY = CollectorRegistry()
REQUESTS = Counter(
    "shipwise_http_requests",
    "HTTP requests by path and status",
    ["path", "status"],
    registry=REGISTRY,
)
REQUEST_SECONDS = Histogram(
    "shipwise_http_request_seconds",
    "HTTP request duration",
    ["path"],
    registry=REGISTRY,
    # prometheus_client's default buckets, with 0.15, 0.2 and 0.3 s between 0.1 and 0.5:
    # the portal's reads are held to a p99 of 0.25 s (docs/benchmarks.md).
    buckets=(0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2, 0.25, 0.3, 0.5, 0.75, 1.0,
             2.5, 5.0, 7.5, 10.0),  # fmt: skip
)
GRAPHQL_ERRORS = Counter(
    "shipwise_graphql_errors", "GraphQL errors by extensions.code", ["code"], registry=REGISTRY
)
JOBS = Gauge(
    "shipwise_jobs",
    "Jobs run since the queue's counters began, by name and outcome",
    ["name", "outcome"],
    registry=REGISTRY,
)
JOBS_QUEUED = Gauge("shipwise_jobs_queued", "Jobs waiting or running", registry=REGISTRY)
WORKER_HEARTBEATS = Gauge(
    "shipwise_worker_last_heartbeat_seconds",
    "When each worker (host:pid) last ran its heartbeat job, as Unix time; every minute "
    "while it lives, and a worker silent for a day is no longer listed",
    ["worker"],
    registry=REGISTRY,
)

KNOWN_PATHS = frozenset({"/graphql", "/healthz", "/readyz", "/metrics"})


class MetricsMiddleware:
    """Counts every HTTP request by path (unknown paths folded) and status."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path = scope["path"] if scope["path"] in KNOWN_PATHS else "other"
        status = 500
        started = time.perf_counter()

        async def send_wrapper(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, send_wrapper)
        finally:
            count, seconds = _series(path, status)
            count.inc()
            seconds.observe(time.perf_counter() - started)


_SERIES: dict[tuple[str, int], tuple[Any, Any]] = {}
"""Each (path, status)'s request counter and duration histogram, looked up once: a few
paths times the statuses answered (prometheus_client's `labels` took a lock and built a
key on every request)."""


def _series(path: str, status: int) -> tuple[Any, Any]:
    found = _SERIES.get((path, status))
    if found is None:
        found = (REQUESTS.labels(path, str(status)), REQUEST_SECONDS.labels(path))
        _SERIES[(path, status)] = found
    return found


async def metrics_endpoint(request: Request) -> Response:
    state: AppState = request.app.state.shipwise
    queue: JobQueue = state.queue
    stats = await queue.stats()
    for (name, outcome), count in stats.counts.items():
        JOBS.labels(name=name, outcome=outcome).set(count)
    JOBS_QUEUED.set(stats.queued)
    await _worker_heartbeats(state)
    return Response(generate_latest(REGISTRY), media_type=CONTENT_TYPE_LATEST)


async def _worker_heartbeats(state: AppState) -> None:
    """The workers' last beats; without a database, none (the rest still answers)."""
    try:
        async with state.sessionmaker() as session:
            beats = await ops_service.last_beats(session=session)
    except Exception as exc:  # a scrape reports what it can; it must not fail
        logger.warning("worker heartbeats not read", extra={"error_type": type(exc).__name__})
        beats = []
    WORKER_HEARTBEATS.clear()
    for worker, seen in beats:
        WORKER_HEARTBEATS.labels(worker=worker).set(seen)
