"""`shipwise worker`: an arq worker whose job context holds our database and settings."""

from __future__ import annotations

from typing import Any

import server.models  # noqa: F401 - every table, so foreign keys resolve in this process
from jobs.registry import build_registry
from jobs.worker import run_worker
from server.db import create_engine, create_sessionmaker
from server.providers.openai_compatible import provider_timeout
from server.providers.registry import ProviderPool
from server.runtime.slots import RedisSlots
from server.security import SecretBox
from server.settings import Settings


def run(settings: Settings) -> None:
    """Block running jobs until SIGTERM/SIGINT."""
    assert settings.redis_url, "the worker needs Redis"
    redis_url = settings.redis_url

    async def on_startup(ctx: dict[Any, Any]) -> None:
        engine = create_engine(settings.database_url)
        ctx.update(
            settings=settings,
            engine=engine,
            sessionmaker=create_sessionmaker(engine),
            providers=ProviderPool(
                SecretBox(settings.resolved_secret_key()),
                timeout=provider_timeout(settings.provider_timeout_seconds),
            ),
            slots=RedisSlots(redis_url),
        )

    async def on_shutdown(ctx: dict[Any, Any]) -> None:
        if "providers" in ctx:
            await ctx["providers"].aclose()
        if "slots" in ctx:
            await ctx["slots"].close()
        if "engine" in ctx:
            await ctx["engine"].dispose()

    run_worker(
        registry=build_registry(settings),
        redis_url=settings.redis_url,
        on_startup=on_startup,
        on_shutdown=on_shutdown,
        health_port=settings.worker_health_port,
    )
