"""A delivery's upkeep on a real Redis: a stop ends its calls' waits for slots, whichever
part of the delivery read the stop first (admission between batches, or upkeep itself)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import timedelta
from uuid import uuid4

import pytest

from bench.kit import services
from bench.kit.harness import Backend
from bench.kit.waiting import eventually
from server.comparisons.models import ComparisonStatus, StopReason
from server.dispatch.holdings import Holdings
from server.dispatch.keepalive import Keepalive
from server.dispatch.pipeline import Stop
from server.runtime.slots import RedisSlots, SlotWaitAbandoned
from tests.conftest import require_services

DELIVERY = "dlv_1_keepalive"


@pytest.fixture
async def slots() -> AsyncIterator[tuple[RedisSlots, RedisSlots]]:
    """The delivery's process's slots, and another holder's that has the only slot."""
    require_services("redis")
    mine, other = RedisSlots(services.redis_url()), RedisSlots(services.redis_url())
    try:
        yield mine, other
    finally:
        await mine.close()
        await other.close()


async def _waiting_call(
    sqlite_backend: Backend, mine: RedisSlots, other: RedisSlots
) -> tuple[Keepalive, asyncio.Task[None]]:
    key = f"connection:test-{uuid4().hex}"
    await other.hold(key, 1, holder="other").__aenter__()
    keepalive = Keepalive(
        sessionmaker=sqlite_backend.sessionmaker,
        comparison_id="cmp_keepalive",
        delivery_id=DELIVERY,
        lease_ttl=timedelta(seconds=30),
        held=Holdings(),
        slots=mine,
    )
    keepalive.leased_now()  # nothing to renew during the test
    await keepalive.extend_slots()

    async def call() -> None:
        async with mine.hold(key, 1, holder=DELIVERY):
            pass

    waiting = asyncio.create_task(call())
    await eventually(lambda: mine.waiting(DELIVERY), until=lambda n: n == 1, what="a wait")
    return keepalive, waiting


@pytest.mark.parametrize("stop", [ComparisonStatus.CANCELLED, StopReason.BUDGET_CAP])
async def test_a_stop_found_at_admission_ends_the_waits_for_slots(
    sqlite_backend: Backend, slots: tuple[RedisSlots, RedisSlots], stop: Stop
) -> None:
    keepalive, waiting = await _waiting_call(sqlite_backend, *slots)
    # The pipeline passes the stop admission found; upkeep reads no row then.
    assert await keepalive.upkeep(stop) == stop
    async with asyncio.timeout(10):
        with pytest.raises(SlotWaitAbandoned):
            await waiting


async def test_a_sequential_decision_lets_the_admitted_calls_wait_on(
    sqlite_backend: Backend, slots: tuple[RedisSlots, RedisSlots]
) -> None:
    mine, other = slots
    keepalive, waiting = await _waiting_call(sqlite_backend, mine, other)
    assert await keepalive.upkeep(StopReason.DECIDED_EARLY) == StopReason.DECIDED_EARLY
    assert not waiting.done() and mine.waiting(DELIVERY) == 1
    await other.release_all("other")
    async with asyncio.timeout(10):
        await waiting  # the slot came back: the call went out, its case stays whole
