"""RedisSlots through a Redis outage (a private `redis-server` stopped and started again):
a wait goes on until Redis answers, and a slot given back meanwhile is not lost."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from bench.kit.private_redis import PrivateRedis
from bench.kit.waiting import eventually
from server.runtime.slots import RETURN_AFTER_S, RedisSlots


@pytest.fixture
async def slots(redis: PrivateRedis) -> AsyncIterator[RedisSlots]:
    pool = RedisSlots(redis.url, poll_seconds=0.005, max_poll_seconds=0.02)
    try:
        yield pool
    finally:
        await pool.close()


async def test_a_wait_for_a_slot_outlasts_an_outage(redis: PrivateRedis, slots: RedisSlots) -> None:
    redis.stop()
    entered = asyncio.Event()

    async def call() -> None:
        async with slots.hold("conn:a", 1, holder="d1"):
            entered.set()

    task = asyncio.ensure_future(call())
    await eventually(lambda: slots.redis_calls >= 3, what="three tries during the outage")
    assert not entered.is_set() and not task.done(), "nothing is sent without a slot"
    redis.start()
    async with asyncio.timeout(5):
        await task
    assert entered.is_set()


async def test_a_slot_given_back_during_an_outage_comes_back_after_it(
    redis: PrivateRedis, slots: RedisSlots
) -> None:
    async with slots.hold("conn:b", 1, holder="d1"):
        redis.stop()
    await asyncio.sleep(RETURN_AFTER_S * 4)  # the give-back fails: Redis is away
    redis.start()
    async with asyncio.timeout(2):  # not the slot's expiry (60 s): it was given back
        async with slots.hold("conn:b", 1, holder="d2"):
            pass
