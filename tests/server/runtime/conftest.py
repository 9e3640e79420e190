"""Runtime fixtures: contract tests run once on the embedded and once on the Redis adapters."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Iterator
from functools import lru_cache
from urllib.parse import parse_qs, urlencode, urlsplit, urlunsplit

import pytest
import redis

from server.runtime.interfaces import JobRegistry
from tests.server.runtime.runtime_harness import EmbeddedHarness, Harness, MakeHarness, RedisHarness

SUITE_REDIS_URL = "redis://127.0.0.1:6379/0"  # bench/kit/services.py's default
DB_OFFSET = 8  # past the crash tests' DB 7 (tests/jobs/crash_stack.py)


def runtime_redis_url() -> str:
    """`SHIPWISE_TEST_REDIS_URL` moved up DB_OFFSET databases (default: local DB 8), and one
    more per pytest-xdist worker (gw1 on DB 9, …), since each worker flushes its own.

    The rest of the suite keeps a `shipwise worker` on that URL's database for the whole
    session; these tests flush theirs per test and run their own workers, so each would eat
    the other's jobs on a shared database. `SHIPWISE_TEST_RUNTIME_REDIS_URL` overrides.
    """
    explicit = os.environ.get("SHIPWISE_TEST_RUNTIME_REDIS_URL")
    offset = DB_OFFSET + xdist_worker_index()
    if explicit:
        offset, source = xdist_worker_index(), explicit
    else:
        source = os.environ.get("SHIPWISE_TEST_REDIS_URL", SUITE_REDIS_URL)
    parts = urlsplit(source)
    query = parse_qs(parts.query)
    unix = parts.scheme == "unix"  # there the path is the socket
    default_db = "0" if unix else parts.path.lstrip("/") or "0"
    db = (int(query.pop("db", [default_db])[0]) + offset) % 16
    if unix:
        query["db"] = [str(db)]
        return urlunsplit(parts._replace(query=urlencode(query, doseq=True)))
    return urlunsplit(parts._replace(path=f"/{db}", query=urlencode(query, doseq=True)))


def xdist_worker_index() -> int:
    """0 outside pytest-xdist; n for its worker `gwn`."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    return int(worker.removeprefix("gw") or 0)


def redis_url_or_skip() -> str:
    """The runtime tests' Redis; skipped loudly when unreachable, a failure under CI=true."""
    url = runtime_redis_url()
    problem = _probe(url)
    if problem is not None:
        where = urlsplit(url)
        reason = (
            f"!!! REDIS NOT REACHABLE at {where.hostname}:{where.port}{where.path} ({problem}): "
            "Redis runtime tests SKIPPED; set SHIPWISE_TEST_REDIS_URL !!!"
        )
        if os.environ.get("CI", "").lower() == "true":
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
