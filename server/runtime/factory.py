"""Composition root of the runtime: Redis-backed when a URL is set, in-process otherwise."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from server.runtime.embedded import (
    EmbeddedQueue,
    InProcessEventBus,
    MemoryRateLimiter,
    check_registry,
)
from server.runtime.interfaces import EventBus, JobQueue, JobRegistry, RateLimiter
from server.runtime.redis import ArqQueue, RedisStreamEventBus
from server.runtime.redis_rate_limiter import RedisRateLimiter


@dataclass(slots=True)
class Runtime:
    """The job queue, event bus and rate limiter one process runs on."""

    queue: JobQueue
    events: EventBus
    rate_limiter: RateLimiter
    embedded: bool

    async def start(self) -> None:
        """Embedded: start periodic jobs. Redis connects on first use, so an API whose Redis
        is down still starts and says so on /readyz (the worker runs cron)."""
        if isinstance(self.queue, EmbeddedQueue):
            await self.queue.start()

    async def close(self) -> None:
        """Queue first: running jobs may still publish events."""
        try:
            await self.queue.close()
        finally:
            try:
                await self.events.close()
            finally:
                await self.rate_limiter.close()


def build_runtime(*, redis_url: str | None, registry: JobRegistry, ctx: dict[str, Any]) -> Runtime:
    """Build the adapters and put `queue` and `events` into `ctx` for jobs run in-process."""
    check_registry(registry)
    queue: JobQueue
    events: EventBus
    rate_limiter: RateLimiter
    if redis_url:
        queue = ArqQueue(
            redis_url, job_names=registry.functions.keys(), queue_name=registry.queue_name
        )
        events = RedisStreamEventBus(redis_url)
        rate_limiter = RedisRateLimiter(redis_url)
    else:
        queue = EmbeddedQueue(registry, ctx)
        events = InProcessEventBus()
        rate_limiter = MemoryRateLimiter()
    ctx["queue"] = queue
    ctx["events"] = events
    return Runtime(queue=queue, events=events, rate_limiter=rate_limiter, embedded=not redis_url)
