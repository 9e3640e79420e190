"""The embedded or the Redis adapters behind one shape, so one contract test covers both."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Protocol
from urllib.parse import urlsplit, urlunsplit
from uuid import uuid4

from redis.asyncio import Redis

from bench.kit.waiting import eventually
from jobs.arq_adapter import ShipwiseWorker
from jobs.worker import worker_settings
from server.runtime.embedded import EmbeddedQueue, InProcessEventBus, MemoryRateLimiter
from server.runtime.interfaces import EventBus, JobQueue, JobRegistry, RateLimiter
from server.runtime.redis import ArqQueue, RedisStreamEventBus
from server.runtime.redis_rate_limiter import RedisRateLimiter


@dataclass
class FakeClock:
    """Wall-clock seconds the rate limiters read; tests move it across windows."""

    now: float = 1_000_000.0

    def __call__(self) -> float:
        return self.now


class Harness(Protocol):
    backend: str
    queue: JobQueue
    events: EventBus
    limiter: RateLimiter
    clock: FakeClock
    calls: list[Any]
    """What the test jobs saw; they append to `ctx["calls"]`."""

    async def run_jobs(self) -> None:
        """Run jobs until none is queued or running, continuations included."""

    async def run_periodic(self, runs: int) -> None:
        """Run the registry's periodic jobs until `runs` of them started."""

    async def blocked_readers(self) -> int:
        """Subscriptions of this harness's event bus still waiting on the backend."""

    async def close(self) -> None: ...


MakeHarness = Callable[..., Awaitable[Harness]]
"""`await make_harness(registry, maxlen=1000)`."""


class EmbeddedHarness:
    backend = "embedded"

    def __init__(self, registry: JobRegistry, *, maxlen: int) -> None:
        self._registry = registry
        self.calls: list[Any] = []
        self.clock = FakeClock()
        ctx: dict[str, Any] = {"calls": self.calls}
        self.embedded_queue = EmbeddedQueue(registry, ctx)
        self.queue: JobQueue = self.embedded_queue
        self.events: EventBus = InProcessEventBus(maxlen)
        ctx["queue"], ctx["events"] = self.queue, self.events
        self.limiter: RateLimiter = MemoryRateLimiter(clock=self.clock)

    async def run_jobs(self) -> None:
        await self.embedded_queue.drain(timeout=10)

    async def run_periodic(self, runs: int) -> None:
        names = {job.name for job in self._registry.periodic}
        await self.embedded_queue.start()
        await eventually(
            self.queue.stats,
            until=lambda s: sum(n for (name, _), n in s.counts.items() if name in names) >= runs,
            timeout=5,
            what=f"{runs} periodic runs",
        )
        await self.embedded_queue.close()

    async def blocked_readers(self) -> int:
        return 0

    async def close(self) -> None:
        await self.queue.close()
        await self.events.close()
        await self.limiter.close()


class RedisHarness:
    """API-side adapters plus an in-process arq worker built from `worker_settings`."""

    backend = "redis"

    def __init__(self, registry: JobRegistry, *, redis_url: str, maxlen: int) -> None:
        self._registry = registry
        self._url = redis_url
        self._client_name = f"shipwise-test-{uuid4().hex[:12]}"
        self.calls: list[Any] = []
        self.clock = FakeClock()
        self.queue: JobQueue = ArqQueue(redis_url, job_names=registry.functions.keys())
        self.events: EventBus = RedisStreamEventBus(
            _with_client_name(redis_url, self._client_name), maxlen=maxlen, block_ms=200
        )
        self.limiter: RateLimiter = RedisRateLimiter(redis_url, clock=self.clock)

    async def run_jobs(self) -> None:
        await self._run_worker()

    async def run_periodic(self, runs: int) -> None:
        # A burst worker stops as soon as the queue is empty, before cron's next tick is
        # queued, so run a long-lived worker and stop it once enough runs are counted.
        names = {job.name for job in self._registry.periodic}
        worker = ShipwiseWorker(**self._settings(poll_delay=0.05))
        running = asyncio.create_task(worker.async_run())
        try:
            await eventually(
                self.queue.stats,
                until=lambda s: sum(n for (k, _), n in s.counts.items() if k in names) >= runs,
                timeout=5,
                what=f"{runs} periodic runs",
            )
        finally:
            await worker.close()
            with contextlib.suppress(asyncio.CancelledError):
                await running

    async def blocked_readers(self) -> int:
        client: Redis = Redis.from_url(self._url, decode_responses=True)
        try:
            clients = await client.client_list()
        finally:
            await client.aclose()
        return sum(c.get("name") == self._client_name and c.get("cmd") == "xread" for c in clients)

    async def close(self) -> None:
        await self.queue.close()
        await self.events.close()
        await self.limiter.close()

    async def _run_worker(self) -> None:
        worker = ShipwiseWorker(**self._settings(burst=True, poll_delay=0))
        try:
            await worker.async_run()
        finally:
            await worker.close()

    def _settings(self, **overrides: Any) -> dict[str, Any]:
        async def startup(ctx: dict[str, Any]) -> None:
            ctx["calls"] = self.calls

        settings = worker_settings(self._registry, redis_url=self._url, on_startup=startup)
        return settings | {"handle_signals": False, **overrides}


def _with_client_name(url: str, name: str) -> str:
    parts = urlsplit(url)
    query = f"{parts.query}&client_name={name}" if parts.query else f"client_name={name}"
    return urlunsplit(parts._replace(query=query))
