"""The Redis rate limiter: hits counted in batches reach the window's key, which expires
with its window; processes share one budget; an outage lets requests through."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from uuid import uuid4

import pytest
from redis.asyncio import Redis

from bench.kit.private_redis import PrivateRedis
from bench.kit.waiting import eventually
from server.runtime.redis_rate_limiter import RATE_LIMIT_PREFIX, RedisRateLimiter
from tests.conftest import require_services

NOW = 1_000_020.0  # window 16,667 of 60 s


@pytest.fixture
async def client(redis_test_url: str) -> AsyncIterator[Redis]:
    require_services("redis")
    client: Redis = Redis.from_url(redis_test_url)
    yield client
    await client.aclose()


def _stored(key: str) -> str:
    return f"{RATE_LIMIT_PREFIX}{key}:{int(NOW // 60)}"


async def _count(client: Redis, key: str) -> int:
    return int(await client.get(_stored(key)) or 0)


async def test_a_window_counts_each_hit_and_its_key_expires_with_it(
    redis_test_url: str, client: Redis
) -> None:
    limiter = RedisRateLimiter(redis_test_url, clock=lambda: NOW)
    key = f"test-{uuid4().hex}"
    try:
        assert [await limiter.hit(key, limit=2) for _ in range(3)] == [True, True, False]
        # The first hit joined the window at once; the others follow in a batch.
        await eventually(lambda: _count(client, key), until=lambda n: n == 3, what="3 hits")
        ttl = await client.ttl(_stored(key))
        assert 0 < ttl <= 61, ttl  # set when the key was made, not pushed back after
    finally:
        await client.delete(_stored(key))
        await limiter.close()


async def test_two_processes_share_one_budget(redis_test_url: str, client: Redis) -> None:
    first = RedisRateLimiter(redis_test_url, clock=lambda: NOW)
    second = RedisRateLimiter(redis_test_url, clock=lambda: NOW)
    key = f"test-{uuid4().hex}"
    try:
        assert [await first.hit(key, limit=4) for _ in range(3)] == [True] * 3
        await eventually(lambda: _count(client, key), until=lambda n: n == 3, what="3 hits")
        # Joining the window, the second process learns the first one's three hits.
        assert [await second.hit(key, limit=4) for _ in range(2)] == [True, False]
        await eventually(lambda: _count(client, key), until=lambda n: n == 5, what="5 hits")
        # The first learns of the second's hits from its next batch's answer: until then it
        # goes by its own four (the overshoot across processes, at most one batch).
        assert await first.hit(key, limit=6)
        # Redis holds 6 before the first process has read the answer saying so: wait for
        # its batch's answer, not for the key (that raced: the hit below was let through).
        await first.flush()
        assert await _count(client, key) == 6
        assert not await first.hit(key, limit=6)
    finally:
        await client.delete(_stored(key))
        await first.close()
        await second.close()


async def test_a_window_under_concurrent_hits_admits_exactly_its_limit(
    redis_test_url: str, client: Redis
) -> None:
    limiter = RedisRateLimiter(redis_test_url, clock=lambda: NOW)
    key = f"test-{uuid4().hex}"
    try:
        allowed = await asyncio.gather(*(limiter.hit(key, limit=30) for _ in range(50)))
        assert allowed.count(True) == 30
        await eventually(lambda: _count(client, key), until=lambda n: n == 50, what="50 hits")
    finally:
        await client.delete(_stored(key))
        await limiter.close()


async def test_without_redis_requests_go_through_and_are_counted_again_after(
    redis: PrivateRedis, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="shipwise.runtime")
    limiter = RedisRateLimiter(redis.url, clock=lambda: NOW, retry_seconds=0.2)
    client: Redis = Redis.from_url(redis.url)
    try:
        assert await limiter.hit("k", limit=1)
        redis.stop()
        # A window joined while Redis is away finds it away: requests go through, all keys'.
        assert [await limiter.hit(key, limit=1) for key in ("j", "k", "k", "k")] == [True] * 4
        assert [r.message for r in caplog.records].count(
            "rate limits unchecked: Redis unreachable"
        ) == 1
        redis.start()

        async def refused() -> bool:
            return not await limiter.hit("k", limit=1)

        await eventually(refused, what="the limit applied again")
        assert "rate limits checked again: Redis answers" in caplog.text
    finally:
        await client.aclose()
        await limiter.close()


async def test_hits_reach_redis_in_batches_not_one_call_each(redis: PrivateRedis) -> None:
    limiter = RedisRateLimiter(redis.url, clock=lambda: NOW, batch_seconds=0.05)
    client: Redis = Redis.from_url(redis.url)
    try:
        allowed = [await limiter.hit("k", limit=1_000) for _ in range(200)]
        assert all(allowed)
        await eventually(lambda: _count(client, "k"), until=lambda n: n == 200, what="200 hits")
        stats = await client.info("commandstats")
        scripts = sum(
            stats.get(f"cmdstat_{name}", {}).get("calls", 0) for name in ("eval", "evalsha")
        )
        assert 1 < scripts <= 5, stats  # the joining hit, then a batch or a few, not 200
    finally:
        await client.aclose()
        await limiter.close()
