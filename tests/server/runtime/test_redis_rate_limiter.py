"""The Redis rate limiter's window keys: counted in one script, and gone with their window."""

from __future__ import annotations

from uuid import uuid4

from redis.asyncio import Redis

from server.runtime.redis import RATE_LIMIT_PREFIX, RedisRateLimiter
from tests.conftest import require_services


async def test_a_window_counts_each_hit_and_its_key_expires_with_it(redis_test_url: str) -> None:
    require_services("redis")
    now = 1_000_020.0  # window 16,667 of 60 s
    limiter = RedisRateLimiter(redis_test_url, clock=lambda: now)
    client: Redis = Redis.from_url(redis_test_url)
    key = f"test-{uuid4().hex}"
    stored = f"{RATE_LIMIT_PREFIX}{key}:{int(now // 60)}"
    try:
        assert [await limiter.hit(key, limit=2) for _ in range(3)] == [True, True, False]
        assert int(await client.get(stored)) == 3
        ttl = await client.ttl(stored)
        assert 0 < ttl <= 61, ttl  # set by the first hit, not pushed back by the others
    finally:
        await client.delete(stored)
        await client.aclose()
        await limiter.close()
