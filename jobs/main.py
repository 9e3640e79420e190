"""`shipwise worker`: an arq worker whose job context holds our database and settings."""

from __future__ import annotations

from typing import Any

from jobs.registry import build_registry
from jobs.worker import run_worker
from server.db import create_engine, create_sessionmaker
from server.settings import Settings


def run(settings: Settings) -> None:
    """Block running jobs until SIGTERM/SIGINT."""
    assert settings.redis_url, "the worker needs Redis"

    async def on_startup(ctx: dict[Any, Any]) -> None:
        engine = create_engine(settings.database_url)
        ctx.update(settings=settings, engine=engine, sessionmaker=create_sessionmaker(engine))

    async def on_shutdown(ctx: dict[Any, Any]) -> None:
        engine = ctx.get("engine")
        if engine is not None:
            await engine.dispose()

    run_worker(
        registry=build_registry(timeout_seconds=settings.job_timeout_seconds),
        redis_url=settings.redis_url,
        on_startup=on_startup,
        on_shutdown=on_shutdown,
    )
