"""Riding out a Redis outage: which errors mean "the broker is away", capped exponential
back-off, and one shared wait until it answers again.

A worker keeps polling through an outage instead of dying (`jobs.worker`): every caller
that finds the broker gone awaits the same `BrokerLink.restored()`, while one probe task
pings with back-off and logs each failed attempt once.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Iterator
from datetime import timedelta
from typing import Any, Final, TypeVar

from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError
from tenacity import AsyncRetrying, RetryCallState, retry_if_exception_type

from server.retrying import Doubling
from server.runtime.interfaces import JobQueue, JobStats

logger = logging.getLogger("shipwise.broker")

T = TypeVar("T")

BROKER_ERRORS: Final = (RedisConnectionError, RedisTimeoutError)
"""What a Redis call raises when the server is down, unreachable, or restarting (loading its
data set is a `BusyLoadingError`, a ConnectionError); redis-py wraps socket errors in these.
Not the builtin ConnectionError: a job's own (say, a provider's) must not read as an outage."""

FIRST_DELAY_S: Final = 0.5
MAX_DELAY_S: Final = 30.0
HEARTBEAT_S: Final = 1.0
HEARTBEAT_TIMEOUT_S: Final = 5.0


def backoff(first: float = FIRST_DELAY_S, cap: float = MAX_DELAY_S) -> Iterator[float]:
    """first · 2ⁿ seconds, capped at `cap`: 0.5, 1, 2, 4, 8, 16, 30, 30, … (the waits of the
    service's one retry policy, `server.retrying.Doubling`)."""
    return Doubling(first, cap).delays()


Ping = Callable[[], Awaitable[Any]]


class BrokerLink:
    """Whether the broker answers; `restored()` waits (with everyone else) until it does."""

    def __init__(self, ping: Ping, *, first_delay: float = FIRST_DELAY_S) -> None:
        self._ping = ping
        self._first_delay = first_delay
        self._probe: asyncio.Task[None] | None = None
        self.down_since: float | None = None
        """Monotonic time the current outage was noticed; None while connected."""
        self.outages = 0

    async def _ping_once(self) -> None:  # tenacity awaits only what an `async def` returns
        await self._ping()

    @property
    def connected(self) -> bool:
        return self.down_since is None

    async def restored(self, error: BaseException) -> None:
        """`error` came from the broker: return once a ping answers again."""
        if self._probe is None or self._probe.done():
            self.down_since = time.monotonic()
            self.outages += 1
            logger.warning("broker unreachable", extra={"error_type": type(error).__name__})
            self._probe = asyncio.ensure_future(self._until_answered())
        await asyncio.shield(self._probe)

    async def _until_answered(self) -> None:
        """Ping after `first_delay`, then again with doubling waits until one answers."""

        def log(state: RetryCallState) -> None:
            failed = state.outcome.exception() if state.outcome is not None else None
            logger.warning(
                "broker still unreachable; next attempt in %.1f s",
                state.next_action.sleep if state.next_action is not None else 0.0,
                extra={"attempt": state.attempt_number, "error_type": type(failed).__name__},
            )

        await asyncio.sleep(self._first_delay)
        retrying = AsyncRetrying(  # the service's one retry policy (server.retrying)
            retry=retry_if_exception_type(BROKER_ERRORS),
            wait=Doubling(min(self._first_delay * 2, MAX_DELAY_S), MAX_DELAY_S),
            before_sleep=log,
            reraise=True,
        )
        await retrying(self._ping_once)
        down = time.monotonic() - (self.down_since or time.monotonic())
        attempt = retrying.statistics.get("attempt_number")
        logger.info("broker reconnected after %.1f s", down, extra={"attempt": attempt})
        self.down_since = None

    async def watch(
        self, interval: float = HEARTBEAT_S, timeout: float = HEARTBEAT_TIMEOUT_S
    ) -> None:
        """Ping every `interval` seconds, for ever: a worker whose job slots are all busy
        makes no call of its own, and would otherwise go on reporting ready with the broker
        gone. A ping that takes over `timeout` counts as an outage too."""
        while True:
            await asyncio.sleep(interval)
            try:
                async with asyncio.timeout(timeout):
                    await self._ping()
            except (*BROKER_ERRORS, TimeoutError) as exc:
                await self.restored(exc)

    async def call(self, make: Callable[[], Awaitable[T]]) -> T:
        """`await make()`, again after each outage, until it gets through."""


        async def wait_out(state: RetryCallState) -> None:
            assert state.outcome is not None
            await self.restored(state.outcome.exception() or RedisConnectionError())

        async def once() -> T:  # tenacity awaits only what an `async def` returns
            return await make()

        return await AsyncRetrying(  # no waits of its own: `restored` is the wait
            retry=retry_if_exception_type(BROKER_ERRORS), before_sleep=wait_out, reraise=True
        )(once)

    def close(self) -> None:
        if self._probe is not None:
            self._probe.cancel()


class PatientQueue:
    """A job queue that waits out a broker outage instead of failing the job that enqueues
    (a continuation, a finalization): the enqueue goes through once Redis is back."""

    def __init__(self, queue: JobQueue, link: BrokerLink) -> None:
        self._queue = queue
        self._link = link

    async def enqueue(
        self,
        name: str,
        *args: Any,
        job_id: str | None = None,
        delay: timedelta | None = None,
        **kwargs: Any,
    ) -> bool:
        return await self._link.call(
            lambda: self._queue.enqueue(name, *args, job_id=job_id, delay=delay, **kwargs)
        )

    async def stats(self) -> JobStats:
        return await self._queue.stats()

    async def close(self) -> None:
        await self._queue.close()
