"""arq worker: the registry's functions counted per outcome, its periodic jobs as cron."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import time
from collections.abc import Awaitable, Callable
from datetime import timedelta
from signal import Signals
from typing import Any, TypedDict

from arq.connections import RedisSettings, create_pool
from arq.cron import CronJob, cron
from arq.typing import WorkerCoroutine
from arq.worker import Function, Retry, Worker, func

from jobs import health
from server.runtime.broker import BROKER_ERRORS, BrokerLink, PatientQueue, backoff
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
    `dispatching` (the comparisons a delivery of this process dispatches, `server.dispatch`).
    `keep_result=0` frees a job id when its job ends, as the embedded queue does.
    """
    check_registry(registry)

    async def startup(ctx: dict[Any, Any]) -> None:
        ctx["stopping"] = asyncio.Event()
        ctx["dispatching"] = set()  # comparisons a delivery of this process dispatches
        queue = ArqQueue.from_pool(
            ctx["redis"], job_names=registry.functions.keys(), queue_name=registry.queue_name
        )
        link = ctx.get("broker")
        ctx["queue"] = PatientQueue(queue, link) if isinstance(link, BrokerLink) else queue
        ctx["events"] = RedisStreamEventBus(redis_url)
        if on_startup is not None:
            await on_startup(ctx)

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


class ShipwiseWorker(Worker):
    """arq's Worker that outlives its broker and sets `ctx["stopping"]` on SIGTERM/SIGINT.

    A Redis error in the polling loop no longer ends the process: the loop waits with
    capped exponential back-off (`server.runtime.broker`) until Redis answers, then polls
    on; a job's bookkeeping (`finish_job`) waits the same way, so no job is lost. A
    heartbeat pings every second (`BrokerLink.watch`): a worker whose slots are all busy
    does not poll, and would not otherwise notice. While disconnected the health probe
    (`jobs.health`) reports not ready. Jobs check `stopping` between slices to stop
    admitting work and hand over; after `job_completion_wait` arq cancels what is still
    running, and it runs again later.
    """

    def __init__(self, *args: Any, health_port: int | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.broker = BrokerLink(self._ping)
        self.ctx["broker"] = self.broker
        self._health_port = health_port
        self._health: asyncio.Server | None = None
        self._watch: asyncio.Task[None] | None = None

    async def _ping(self) -> None:
        await self.pool.ping()

    async def main(self) -> None:
        if self._health_port is not None:
            self._health = await health.serve(self.broker, host="0.0.0.0", port=self._health_port)
        if self._pool is None:
            self._pool = await self._first_pool()
        self._watch = asyncio.ensure_future(self.broker.watch())
        await super().main()

    async def _first_pool(self) -> Any:
        """arq's pool, waiting out a broker that is away when the worker starts."""
        for delay in backoff():
            try:
                pool = await create_pool(
                    self.redis_settings,
                    job_deserializer=self.job_deserializer,
                    job_serializer=self.job_serializer,
                    default_queue_name=self.queue_name,
                    expires_extra_ms=self.expires_extra_ms,
                )
            except BROKER_ERRORS as exc:
                self.broker.down_since = self.broker.down_since or time.monotonic()
                logger.warning(
                    "broker unreachable at start; next attempt in %.1f s", delay,
                    extra={"error_type": type(exc).__name__},
                )  # fmt: skip
                await asyncio.sleep(delay)
                continue
            self.broker.down_since = None
            return pool
        raise AssertionError("unreachable")  # pragma: no cover - backoff() never ends

    async def _poll_iteration(self) -> None:
        try:
            await super()._poll_iteration()
        except BROKER_ERRORS as exc:
            await self.broker.restored(exc)

    async def start_jobs(self, job_ids: list[bytes]) -> None:
        for job_id in job_ids:
            try:
                await super().start_jobs([job_id])
            except BROKER_ERRORS:
                # arq counted the job before the broker failed and never started its task.
                if job_id.decode() not in self.tasks:
                    self._release_sem_dec_counter_on_complete()
                raise

    async def finish_job(self, job_id: str, *args: Any) -> None:
        finish = super().finish_job
        await self.broker.call(lambda: finish(job_id, *args))

    async def finish_failed_job(self, job_id: str, result_data: bytes | None) -> None:
        finish = super().finish_failed_job
        await self.broker.call(lambda: finish(job_id, result_data))

    def handle_sig_wait_for_completion(self, signum: Signals) -> None:
        self._signal_stopping()
        super().handle_sig_wait_for_completion(signum)

    def handle_sig(self, signum: Signals) -> None:
        self._signal_stopping()
        super().handle_sig(signum)

    async def close(self) -> None:
        # arq 0.28 gathers its job tasks without return_exceptions: one cancelled before its
        # try block would make close() raise, skipping on_shutdown and leaving the pool open;
        # and a broker that is away at shutdown must not skip on_shutdown either.
        if not self._handle_signals:
            self.handle_sig(signal.SIGUSR1)
        if self._health is not None:
            self._health.close()
        if self._watch is not None:
            self._watch.cancel()
        self.broker.close()
        if not self._pool:
            return
        await asyncio.gather(*self.tasks.values(), return_exceptions=True)
        self.tasks.clear()
        with contextlib.suppress(*BROKER_ERRORS):
            await self.pool.delete(self.health_check_key)
        if self.on_shutdown:
            await self.on_shutdown(self.ctx)
        with contextlib.suppress(*BROKER_ERRORS):
            await self.pool.close(close_connection_pool=True)
        self._pool = None

    def _signal_stopping(self) -> None:
        stopping = self.ctx.get("stopping")
        if isinstance(stopping, asyncio.Event):
            stopping.set()


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
