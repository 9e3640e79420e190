"""Runtime fixtures: contract tests run once on the embedded and once on the Redis adapters."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Iterator
from functools import lru_cache
from urllib.parse import urlsplit

import pytest
import redis
from runtime_harness import EmbeddedHarness, Harness, MakeHarness, RedisHarness

from server.runtime.interfaces import JobRegistry

DEFAULT_TEST_REDIS_URL = "redis://127.0.0.1:6379/5"


def redis_url_or_skip() -> str:
    """`SHIPWISE_TEST_REDIS_URL` (default DB 5 locally); skip loudly if unreachable, fail on CI."""
    url = os.environ.get("SHIPWISE_TEST_REDIS_URL", DEFAULT_TEST_REDIS_URL)
    problem = _probe(url)
    if problem is not None:
        where = urlsplit(url)
        reason = (
            f"!!! REDIS NOT REACHABLE at {where.hostname}:{where.port}{where.path} ({problem}): "
            "Redis runtime tests SKIPPED; set SHIPWISE_TEST_REDIS_URL !!!"
        )
        if os.environ.get("CI") == "true":
            pytest.fail(f"{reason} (CI=true requires Redis)", pytrace=False)
        pytest.skip(reason)
    return url


@lru_cache(maxsize=4)
def _probe(url: str) -> str | None:
    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=1, socket_timeout=1)
        try:
            client.ping()
        finally:
            client.close()
    except (redis.RedisError, OSError) as exc:
        return type(exc).__name__
    return None


def flush_redis(url: str) -> None:
    client = redis.Redis.from_url(url)
    try:
        client.flushdb()
    finally:
        client.close()


@pytest.fixture(params=["embedded", "redis"])
def backend(request: pytest.FixtureRequest) -> str:
    name: str = request.param
    return name


@pytest.fixture
def redis_url() -> Iterator[str]:
    """A reachable test Redis, flushed before and after the test."""
    url = redis_url_or_skip()
    flush_redis(url)
    yield url
    flush_redis(url)


@pytest.fixture
def backend_url(backend: str, request: pytest.FixtureRequest) -> str | None:
    """The test Redis for the `redis` backend (skipped when unreachable), else None."""
    return request.getfixturevalue("redis_url") if backend == "redis" else None


@pytest.fixture
async def make_harness(backend_url: str | None) -> AsyncIterator[MakeHarness]:
    url = backend_url
    made: list[Harness] = []

    async def make(registry: JobRegistry, *, maxlen: int = 1000) -> Harness:
        harness: Harness
        if url is None:
            harness = EmbeddedHarness(registry, maxlen=maxlen)
        else:
            harness = RedisHarness(registry, redis_url=url, maxlen=maxlen)
        made.append(harness)
        return harness

    yield make
    for harness in made:
        await harness.close()
