"""Liveness and readiness endpoints."""

from __future__ import annotations

import asyncio
import logging

from starlette.requests import Request
from starlette.responses import JSONResponse

from server.state import AppState

logger = logging.getLogger("shipwise.health")


async def healthz(_request: Request) -> JSONResponse:
    return JSONResponse({"status": "ok"})


async def _check_database(state: AppState) -> bool:
    from sqlalchemy import text

    try:
        async with state.sessionmaker() as session:
            await asyncio.wait_for(session.execute(text("SELECT 1")), timeout=3)
        return True
    except Exception as exc:  # readiness reports failure; it must not raise
        logger.warning("database not ready", extra={"error_type": type(exc).__name__})
        return False


async def _check_redis(url: str) -> bool:
    from redis.asyncio import Redis

    client = Redis.from_url(url, socket_connect_timeout=2, socket_timeout=2)
    try:
        return bool(await client.ping())
    except Exception as exc:
        logger.warning("redis not ready", extra={"error_type": type(exc).__name__})
        return False
    finally:
        await client.aclose()


async def readyz(request: Request) -> JSONResponse:
    """200 when the database (and Redis, when configured) answers; 503 otherwise."""
    state: AppState = request.app.state.shipwise
    checks = {"database": await _check_database(state)}
    if state.settings.redis_url:
        checks["redis"] = await _check_redis(state.settings.redis_url)
    ready = all(checks.values())
    return JSONResponse(
        {"status": "ready" if ready else "unavailable", "checks": checks},
        status_code=200 if ready else 503,
    )
