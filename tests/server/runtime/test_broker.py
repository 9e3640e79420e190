"""Back-off while the broker is away, and the readiness the worker's probe reports."""

from __future__ import annotations

import asyncio
import itertools

import pytest
from redis.asyncio import Redis
from redis.exceptions import ConnectionError as RedisConnectionError

from jobs.health import readiness
from server.runtime.broker import BrokerLink, backoff
from tests.private_services import free_port


@pytest.mark.parametrize(
    ("first", "cap", "expected"),
    [
        (0.5, 30.0, [0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 30.0, 30.0]),
        (1.0, 4.0, [1.0, 2.0, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0]),
        (0.1, 0.1, [0.1] * 8),
    ],
)
def test_backoff_doubles_up_to_its_cap(first: float, cap: float, expected: list[float]) -> None:
    assert list(itertools.islice(backoff(first, cap), 8)) == expected


async def test_a_call_goes_through_once_the_broker_answers_again() -> None:
    closed = Redis.from_url(f"redis://127.0.0.1:{free_port()}/0", socket_connect_timeout=1)
    pings = 0
    seen: list[tuple[int, object]] = []

    async def ping() -> None:
        nonlocal pings
        pings += 1
        if pings == 1:
            await closed.ping()  # refused: a real connection error from redis-py

    link = BrokerLink(ping, first_delay=0.01)
    assert readiness(link) == (200, {"broker": "connected"})
    calls = 0

    async def flaky() -> str:
        nonlocal calls
        calls += 1
        if calls > 1:
            status, body = readiness(link)
            seen.append((status, body["broker"]))
        if calls < 3:
            await closed.ping()
        return "through"

    assert await link.call(flaky) == "through"
    assert calls == 3 and seen == [(200, "connected")] * 2
    assert link.connected and link.outages == 2 and pings == 3
    await closed.aclose()


async def test_the_probe_is_not_ready_while_the_broker_is_away() -> None:
    link = BrokerLink(lambda: asyncio.sleep(3600))
    waiter = asyncio.ensure_future(link.restored(RedisConnectionError("refused")))
    await asyncio.sleep(0)
    status, body = readiness(link)
    assert status == 503 and body["broker"] == "unreachable"
    waiter.cancel()
    link.close()
