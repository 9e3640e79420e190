"""A worker whose every job slot is busy makes no Redis call of its own (arq polls only for
free slots); its heartbeat must still notice a broker that went away, and the one that
came back (`BrokerLink.watch`)."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from bench.kit.private_redis import PrivateRedis
from bench.kit.waiting import eventually
from jobs import health
from jobs.arq_adapter import ShipwiseWorker
from jobs.worker import worker_settings
from server.runtime.interfaces import JobRegistry
from server.runtime.redis import ArqQueue


async def test_a_worker_with_all_slots_busy_turns_unready_when_redis_stops(
    redis: PrivateRedis,
) -> None:
    started, release = asyncio.Event(), asyncio.Event()

    async def hold(ctx: dict[str, Any]) -> None:
        del ctx
        started.set()
        await release.wait()

    registry = JobRegistry(functions={"hold": hold}, timeout_seconds=120)
    settings = worker_settings(registry, redis_url=redis.url) | {
        "handle_signals": False,
        "max_jobs": 1,  # one held job fills the worker: its poll stops calling Redis
        "health_check_interval": 3600,  # and arq's own health record does not call it either
        "poll_delay": 0.05,
    }
    worker = ShipwiseWorker(**settings)
    running = asyncio.ensure_future(worker.async_run())
    queue = ArqQueue(redis.url, job_names=["hold"])
    try:
        assert await queue.enqueue("hold", job_id="held")
        async with asyncio.timeout(20):
            await started.wait()
        assert health.readiness(worker.broker)[0] == 200

        redis.stop()
        await eventually(
            lambda: health.readiness(worker.broker)[0],
            until=lambda status: status == 503,
            timeout=10,
            what="the busy worker to see the broker gone",
        )
        redis.start()
        await eventually(
            lambda: worker.broker.connected,
            timeout=20,
            what="the worker to see the broker back",
        )
    finally:
        if redis.process is None:  # the job's bookkeeping waits for the broker to finish
            redis.start()
        release.set()
        await queue.close()
        await worker.close()
        running.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await running
