"""The one place shipwise leans on arq's internals: `ShipwiseWorker` overrides arq 0.28's
private members (`_poll_iteration`, `_pool`, `_handle_signals`,
`_release_sem_dec_counter_on_complete`) and the bookkeeping methods around them, so the worker
outlives its broker and hands over on SIGTERM. arq is pinned exactly (`pyproject.toml`);
`tests/jobs/test_arq_adapter.py` pins the version and the names and signatures used here, so
an upgrade fails there first.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import time
from signal import Signals
from typing import Any

from arq.connections import create_pool
from arq.worker import Worker
from redis.exceptions import WatchError
from tenacity import AsyncRetrying, RetryCallState, retry_if_exception_type

from jobs import health
from server.retrying import Doubling
from server.runtime.broker import BROKER_ERRORS, FIRST_DELAY_S, MAX_DELAY_S, BrokerLink

logger = logging.getLogger("shipwise.worker")

ARQ_VERSION = "0.28.0"
"""The arq release these overrides were written against (the pin in `pyproject.toml`)."""


def lost_broker(error: BaseException) -> bool:
    """`error` says the broker went away: one of `BROKER_ERRORS`, or the WatchError redis-py
    raises instead when the connection dies inside a watched transaction (arq's `start_jobs`
    watches the job's in-progress key), the ConnectionError its context. A soak's Redis
    restart ended a worker on that one (docs/benchmarks.md, "Ten minutes of mixed load")."""
    if isinstance(error, BROKER_ERRORS):
        return True
    return isinstance(error, WatchError) and isinstance(error.__context__, BROKER_ERRORS)


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

        def log(state: RetryCallState) -> None:
            self.broker.down_since = self.broker.down_since or time.monotonic()
            failed = state.outcome.exception() if state.outcome is not None else None
            logger.warning(
                "broker unreachable at start; next attempt in %.1f s",
                state.next_action.sleep if state.next_action is not None else 0.0,
                extra={"error_type": type(failed).__name__},
            )

        pool: Any = await AsyncRetrying(  # the service's one retry policy (server.retrying)
            retry=retry_if_exception_type(BROKER_ERRORS),
            wait=Doubling(FIRST_DELAY_S, MAX_DELAY_S),
            before_sleep=log,
            reraise=True,
        )(
            create_pool,
            self.redis_settings,
            job_deserializer=self.job_deserializer,
            job_serializer=self.job_serializer,
            default_queue_name=self.queue_name,
            expires_extra_ms=self.expires_extra_ms,
        )
        self.broker.down_since = None
        return pool

    async def _poll_iteration(self) -> None:
        try:
            await super()._poll_iteration()
        except (*BROKER_ERRORS, WatchError) as exc:
            if not lost_broker(exc):
                raise
            await self.broker.restored(exc)

    async def start_jobs(self, job_ids: list[bytes]) -> None:
        for job_id in job_ids:
            try:
                await super().start_jobs([job_id])
            except (*BROKER_ERRORS, WatchError) as exc:
                if not lost_broker(exc):
                    raise
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
