"""arq worker: the registry's functions counted per outcome, its periodic jobs as cron."""

from __future__ import annotations

import asyncio
import gc
import logging
from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import Any, TypedDict

from arq.connections import RedisSettings
from arq.cron import CronJob, cron
from arq.typing import WorkerCoroutine
from arq.worker import Function, Retry, func

from jobs.arq_adapter import ShipwiseWorker
from jobs.heap import HeapTrim
from server.runtime.broker import BROKER_ERRORS, BrokerLink, PatientQueue
from server.runtime.embedded import check_registry
from server.runtime.interfaces import JobFunction, JobRegistry
from server.runtime.jobrun import RunAgain, run_counted
from server.runtime.redis import ArqQueue, RedisStreamEventBus, record_outcome

logger = logging.getLogger("shipwise.worker")

Hook = Callable[[dict[str, Any]], Awaitable[None]]
"""`on_startup(ctx)` / `on_shutdown(ctx)`."""

TIMEOUT_GRACE_SECONDS = 5
"""arq's timeout sits above the registry's, so `run_counted` sees (counts, logs) a timeout."""

RUN_AGAIN_AFTER_SECONDS = 1
"""A job cut short by a broker outage runs again this long after Redis is back."""


class CronFields(TypedDict):
    hour: set[int] | None
    minute: set[int] | None
    second: set[int]


def cron_fields(every: timedelta) -> CronFields:
    """arq cron fields for a period that divides a minute, an hour or a day."""
    seconds = every.total_seconds()
    if seconds >= 1 and seconds.is_integer():
        period = int(seconds)
        if period < 60 and 60 % period == 0:
            return {"hour": None, "minute": None, "second": set(range(0, 60, period))}
        if period % 60 == 0 and period < 3600 and 3600 % period == 0:
            return {"hour": None, "minute": _steps(60, period // 60), "second": {0}}
        if period % 3600 == 0 and 86_400 % period == 0:
            return {"hour": _steps(24, period // 3600), "minute": {0}, "second": {0}}
    raise ValueError(f"every={every} is not a whole divisor of a minute, an hour or a day")


def _steps(units: int, step: int) -> set[int] | None:
    return None if step == 1 else set(range(0, units, step))


def counted(name: str, function: JobFunction, *, timeout_seconds: float) -> WorkerCoroutine:
    """`function` as an arq coroutine that adds its outcome to the shared counts hash."""

    async def job(ctx: dict[Any, Any], *args: Any, **kwargs: Any) -> Any:
        redis = ctx["redis"]

        async def record(job_name: str, outcome: str) -> None:
            await record_outcome(redis, job_name, outcome)

        try:
            return await run_counted(
                name, _broker_guarded(function), ctx, args, kwargs,
                timeout_seconds=timeout_seconds, record=record,
            )  # fmt: skip
        except RunAgain:
            raise Retry(defer=RUN_AGAIN_AFTER_SECONDS) from None
        finally:
            heap = ctx.get("heap")
            if isinstance(heap, HeapTrim):
                heap.after_job()

    job.__qualname__ = name
    return job


def _broker_guarded(function: JobFunction) -> JobFunction:
    """A broker error escaping the job is no failure of its own: arq runs it again."""

    async def guarded(ctx: dict[Any, Any], *args: Any, **kwargs: Any) -> Any:
        try:
            return await function(ctx, *args, **kwargs)
        except BROKER_ERRORS:
            logger.warning("job cut short by a broker outage; it runs again")
            raise RunAgain() from None

    return guarded


def job_functions(registry: JobRegistry) -> list[Function]:
    """Every registry function, counted, under its registry name."""
    timeout = registry.timeout_seconds
    return [
        func(
            counted(name, function, timeout_seconds=timeout),
            name=name,
            timeout=timeout + TIMEOUT_GRACE_SECONDS,
        )
        for name, function in registry.functions.items()
    ]


def cron_jobs(registry: JobRegistry) -> list[CronJob]:
    """The periodic jobs as arq cron jobs named `cron:<name>`, counted under `<name>`."""
    timeout = registry.timeout_seconds
    return [
        cron(
            counted(job.name, registry.functions[job.name], timeout_seconds=timeout),
            name=f"cron:{job.name}",
            run_at_startup=job.run_at_startup,
            timeout=timeout + TIMEOUT_GRACE_SECONDS,
            **cron_fields(job.every),
        )
        for job in registry.periodic
    ]


def freeze_startup() -> None:
    """What start-up built (modules, the registry, the pools) lives as long as the worker: the
    collector stops scanning it (`gc.freeze`), as a served process does (server/app.py). A full
    collection over those ~200,000 objects cost a dispatch worker 0.4–0.8 s in 10,000 calls,
    0.04–0.08 s frozen (docs/benchmarks.md, "Dispatch at the physical limit")."""
    gc.collect()
    gc.freeze()


def worker_settings(
    registry: JobRegistry,
    *,
    redis_url: str,
    on_startup: Hook | None = None,
    on_shutdown: Hook | None = None,
    shutdown_grace_seconds: int = 25,
) -> dict[str, Any]:
    """arq `Worker` keyword arguments (a WorkerSettings dict).

    Before `on_startup(ctx)` runs, ctx holds `redis` (arq's pool), `queue` (an ArqQueue
    over it), `events` (a RedisStreamEventBus), `stopping` (set on SIGTERM/SIGINT) and
    `dispatching` (the comparisons a delivery of this process dispatches, `server.dispatch`)
    and `heap` (trimmed after each job, jobs/heap.py).
    `keep_result=0` frees a job id when its job ends, as the embedded queue does.
    """
    check_registry(registry)

    async def startup(ctx: dict[Any, Any]) -> None:
        ctx["stopping"] = asyncio.Event()
        ctx["dispatching"] = set()  # comparisons a delivery of this process dispatches
        ctx["heap"] = HeapTrim()  # the heap a job freed goes back to the system (jobs/heap.py)
        queue = ArqQueue.from_pool(
            ctx["redis"], job_names=registry.functions.keys(), queue_name=registry.queue_name
        )
        link = ctx.get("broker")
        ctx["queue"] = PatientQueue(queue, link) if isinstance(link, BrokerLink) else queue
        ctx["events"] = RedisStreamEventBus(redis_url)
        if on_startup is not None:
            await on_startup(ctx)
        freeze_startup()

    async def shutdown(ctx: dict[Any, Any]) -> None:
        try:
            if on_shutdown is not None:
                await on_shutdown(ctx)
        finally:
            events = ctx.get("events")
            if isinstance(events, RedisStreamEventBus):
                await events.close()

    return {
        "functions": job_functions(registry),
        "cron_jobs": cron_jobs(registry),
        "redis_settings": RedisSettings.from_dsn(redis_url),
        "queue_name": registry.queue_name,
        "on_startup": startup,
        "on_shutdown": shutdown,
        "job_timeout": registry.timeout_seconds + TIMEOUT_GRACE_SECONDS,
        "keep_result": 0,
        "max_jobs": 64,
        "poll_delay": 0.1,
        "health_check_interval": 10,
        "job_completion_wait": shutdown_grace_seconds,
        "allow_abort_jobs": False,
        "log_results": False,  # results may quote data the logs must not hold
    }


def _new_loop() -> asyncio.AbstractEventLoop:
    try:
        import uvloop
    except ImportError:  # pragma: no cover - uvloop is a dependency off Windows
        return asyncio.new_event_loop()
    return uvloop.new_event_loop()


def run_worker(
    *,
    registry: JobRegistry,
    redis_url: str,
    on_startup: Hook | None = None,
    on_shutdown: Hook | None = None,
    health_port: int | None = None,
) -> None:
    """Run a worker until SIGTERM/SIGINT (`shipwise worker`); blocks, call outside a loop.
    The loop is uvloop's where it is installed (the dispatch hot path), else asyncio's."""
    loop = _new_loop()
    asyncio.set_event_loop(loop)
    try:
        settings = worker_settings(
            registry, redis_url=redis_url, on_startup=on_startup, on_shutdown=on_shutdown
        )
        ShipwiseWorker(**settings, health_port=health_port).run()
    finally:
        loop.run_until_complete(loop.shutdown_asyncgens())
        asyncio.set_event_loop(None)
        loop.close()
