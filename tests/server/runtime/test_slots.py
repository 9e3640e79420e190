"""RedisSlots on a real Redis: slots expire with their holder's lease, are renewed with it,
and a holder's waits end at once when it abandons them."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager
from uuid import uuid4

import pytest

from bench.kit import services
from bench.kit.waiting import eventually
from server.runtime.slots import RedisSlots, SlotWaitAbandoned
from tests.conftest import require_services


@pytest.fixture
async def slots() -> AsyncIterator[RedisSlots]:
    require_services("redis")
    pool = RedisSlots(services.redis_url(), poll_seconds=0.005, max_poll_seconds=0.02)
    try:
        yield pool
    finally:
        await pool.close()


async def _enter(
    slots: RedisSlots, key: str, limit: int, holder: str
) -> AbstractAsyncContextManager[None]:
    hold = slots.hold(key, limit, holder=holder)
    await hold.__aenter__()
    return hold


async def _leave(*holds: AbstractAsyncContextManager[None]) -> None:
    for hold in holds:
        await hold.__aexit__(None, None, None)


async def test_a_dead_holders_slots_come_back_when_its_lease_ends(slots: RedisSlots) -> None:
    key = f"test:{uuid4().hex}"
    # The holder says its lease ends in 0.6 s, takes both slots, then goes quiet (a crash).
    await slots.extend("dead", time.time() + 0.6)
    held = [await _enter(slots, key, 2, "dead") for _ in range(2)]
    started = time.monotonic()
    live = await _enter(slots, key, 2, "live")
    waited = time.monotonic() - started
    assert 0.4 <= waited < 2.0, waited
    await _leave(live, *held)


async def test_extending_the_lease_renews_the_held_slots(slots: RedisSlots) -> None:
    key = f"test:{uuid4().hex}"
    lease = 2.0  # renewed every 0.25 s: a loaded host may stall a renewal 1.75 s and pass
    first_expiry = time.time() + lease
    await slots.extend("holder", first_expiry)
    held = await _enter(slots, key, 1, "holder")
    while time.time() < first_expiry + 0.5:  # past its first expiry, as a dispatcher renews
        await asyncio.sleep(0.25)
        await slots.extend("holder", time.time() + lease)
    with pytest.raises(TimeoutError):
        async with asyncio.timeout(0.3):
            await _enter(slots, key, 1, "other")
    await _leave(held)
    async with asyncio.timeout(1):
        await _leave(await _enter(slots, key, 1, "other"))


async def test_a_slot_lost_while_its_holder_stalled_is_not_used_again(
    slots: RedisSlots,
) -> None:
    """A holder that renews too late finds its slot taken by another holder: it drops it,
    and its next call waits for a slot of its own instead of sharing the other's."""
    key = f"test:{uuid4().hex}"
    await slots.extend("stalled", time.time() + 0.3)
    stalled = await _enter(slots, key, 1, "stalled")
    other = await _enter(slots, key, 1, "other")  # the stalled holder's slot expired
    await slots.extend("stalled", time.time() + 30)  # the late renewal
    await _leave(stalled)  # its call ends
    again = asyncio.create_task(_enter(slots, key, 1, "stalled"))
    await eventually(
        lambda: slots.waiting("stalled"), until=lambda n: n == 1, what="the next call waits"
    )
    assert not again.done(), "the lost slot was handed out again: two calls over a limit of 1"
    await _leave(other)
    await _leave(await asyncio.wait_for(again, 5))


async def test_abandon_ends_a_holders_waits_at_once(slots: RedisSlots) -> None:
    key = f"test:{uuid4().hex}"
    held = await _enter(slots, key, 1, "other")
    waiting = asyncio.create_task(_enter(slots, key, 1, "waiter"))
    await eventually(lambda: slots.waiting("waiter") == 1, timeout=5, what="the waiter waits")
    assert not waiting.done()
    slots.abandon("waiter")
    async with asyncio.timeout(0.1):
        with pytest.raises(SlotWaitAbandoned):
            await waiting
    with pytest.raises(SlotWaitAbandoned):  # and it waits no more
        await _enter(slots, key, 1, "waiter")
    assert slots.waiting("waiter") == 0
    await _leave(held)
    await slots.release_all("waiter")
    await _leave(await _enter(slots, key, 1, "waiter"))


async def test_a_holder_reserves_and_returns_slots_in_blocks() -> None:
    from redis.asyncio import Redis

    # Slots go back after a second unused (not the product's 50 ms), so "kept for the next
    # calls" holds on a host loaded enough to stall the loop between two rounds.
    require_services("redis")
    return_after = 1.0
    slots = RedisSlots(services.redis_url(), poll_seconds=0.005, return_after_seconds=return_after)
    key = f"test:{uuid4().hex}"
    redis = Redis.from_url(services.redis_url())
    peak = 0
    active = 0

    async def call() -> None:
        nonlocal peak, active
        async with slots.hold(key, 32, holder="holder"):
            active += 1
            peak = max(peak, active)
            await asyncio.sleep(0.01)
            active -= 1

    try:
        await slots.extend("holder", time.time() + 30)
        for _ in range(5):
            await asyncio.gather(*(call() for _ in range(48)))
        # 240 calls, at most 32 at once: a few reservations of blocks, not two calls a call.
        assert peak == 32
        assert slots.redis_calls <= 8, slots.redis_calls
        assert await redis.zcard(f"shipwise:slots:{key}") == 32, "kept for the next calls"
        await eventually(
            lambda: redis.zcard(f"shipwise:slots:{key}"),
            until=lambda kept: kept == 0,
            timeout=return_after * 4 + 5,
            what="unused slots went back",
        )
        assert slots.redis_calls <= 9
    finally:
        await slots.release_all("holder")
        await slots.close()
        await redis.aclose()


async def test_a_slot_used_within_every_return_interval_is_never_given_back(
    slots: RedisSlots,
) -> None:
    """The return timer gives back only slots that stayed free for all of RETURN_AFTER_S: a
    slot freed and taken again meanwhile is in use, and giving it back would cost its next
    caller a Redis call to reserve it again."""
    from server.runtime.slots import RETURN_AFTER_S

    key = f"test:{uuid4().hex}"
    await slots.extend("holder", time.time() + 30)
    other = await _enter(slots, key, 2, "holder")  # both slots reserved in one call
    stretched = 0
    try:
        for _ in range(12):  # held a fifth of an interval, then free a fifth
            async with slots.hold(key, 2, holder="holder"):
                await asyncio.sleep(RETURN_AFTER_S / 5)
            freed = time.monotonic()
            await asyncio.sleep(RETURN_AFTER_S / 5)
            # A loaded host can stretch a pause past a whole interval: then the slot was
            # idle that long, and its return (and reserving it again) is right.
            stretched += time.monotonic() - freed >= RETURN_AFTER_S
        assert slots.redis_calls <= 1 + 2 * stretched, (slots.redis_calls, stretched)
    finally:
        await _leave(other)
        await slots.release_all("holder")
