"""Finding the real PostgreSQL and Redis the tests run against (docs/domain.md, Set-up)."""

from __future__ import annotations

import asyncio
import os
from dataclasses import dataclass

DEFAULT_PG = "postgresql+asyncpg://postgres@127.0.0.1:5432/test"
DEFAULT_REDIS = "redis://127.0.0.1:6379/0"


def postgres_url() -> str:
    return os.environ.get("SHIPWISE_TEST_DATABASE_URL", DEFAULT_PG)


def redis_url() -> str:
    return os.environ.get("SHIPWISE_TEST_REDIS_URL", DEFAULT_REDIS)


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() == "true"


@dataclass(frozen=True)
class Availability:
    postgres: str | None  # None when it answers, else why not
    redis: str | None


async def _probe_postgres(url: str) -> str | None:
    import asyncpg  # type: ignore[import-untyped]

    try:
        conn = await asyncio.wait_for(
            asyncpg.connect(url.replace("postgresql+asyncpg", "postgresql")), timeout=5
        )
        await conn.close()
        return None
    except Exception as exc:
        return f"{type(exc).__name__}"


async def _probe_redis(url: str) -> str | None:
    from redis.asyncio import Redis

    client = Redis.from_url(url, socket_connect_timeout=3)
    try:
        await client.ping()
        return None
    except Exception as exc:
        return f"{type(exc).__name__}"
    finally:
        await client.aclose()


def probe() -> Availability:
    async def both() -> Availability:
        return Availability(await _probe_postgres(postgres_url()), await _probe_redis(redis_url()))

    return asyncio.run(both())
