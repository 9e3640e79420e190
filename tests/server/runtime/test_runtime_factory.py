"""build_runtime: which adapters, and the ctx jobs get."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from server.runtime.embedded import EmbeddedQueue, InProcessEventBus, MemoryRateLimiter
from server.runtime.factory import build_runtime
from server.runtime.interfaces import JobRegistry, PeriodicJob
from server.runtime.redis import ArqQueue, RedisStreamEventBus
from server.runtime.redis_rate_limiter import RedisRateLimiter


async def record(ctx: dict[str, Any]) -> None:
    ctx["seen"].append((ctx["queue"], ctx["events"], ctx["settings"]))


REGISTRY = JobRegistry(
    functions={"record": record},
    periodic=(PeriodicJob("record", every=timedelta(hours=1), run_at_startup=True),),
)


async def test_embedded_runtime_runs_jobs_with_queue_and_events_in_ctx() -> None:
    seen: list[Any] = []
    ctx: dict[str, Any] = {"settings": "settings", "seen": seen}

    runtime = build_runtime(redis_url=None, registry=REGISTRY, ctx=ctx)
    assert runtime.embedded
    assert isinstance(runtime.queue, EmbeddedQueue)
    assert isinstance(runtime.events, InProcessEventBus)
    assert isinstance(runtime.rate_limiter, MemoryRateLimiter)
    assert (ctx["queue"], ctx["events"]) == (runtime.queue, runtime.events)

    await runtime.start()  # run_at_startup
    await runtime.queue.drain(timeout=2)
    await runtime.close()

    assert seen == [(runtime.queue, runtime.events, "settings")]


async def test_redis_runtime(redis_url: str) -> None:
    ctx: dict[str, Any] = {}

    runtime = build_runtime(redis_url=redis_url, registry=REGISTRY, ctx=ctx)
    assert not runtime.embedded
    assert isinstance(runtime.queue, ArqQueue)
    assert isinstance(runtime.events, RedisStreamEventBus)
    assert isinstance(runtime.rate_limiter, RedisRateLimiter)
    assert (ctx["queue"], ctx["events"]) == (runtime.queue, runtime.events)

    await runtime.start()
    assert await runtime.queue.enqueue("record")
    assert (await runtime.queue.stats()).queued == 1
    await runtime.close()
