"""Fixed-window rate limits shared through Redis, counted locally and sent in batches.

Every API request is counted, so a Redis round trip per request cost each of them about
0.1 ms of client CPU and a wait. Here a process joins a window once (its first hit there
goes to Redis and learns the window's count across processes); after that it decides from
what it knows plus what it counted since, and a background task adds its counts to Redis
every `batch_seconds`, learning the others' counts in the answer. In one process the
decision is exact; across processes a window can admit at most what the other processes
admitted within one batch beyond the limit.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from redis.asyncio import Redis
from redis.exceptions import RedisError

from server.runtime.broker import BROKER_ERRORS

logger = logging.getLogger("shipwise.runtime")

RATE_LIMIT_PREFIX: Final = "shipwise:rl:"

_ADD = """
local count = redis.call('INCRBY', KEYS[1], ARGV[1])
if count == tonumber(ARGV[1]) then redis.call('EXPIRE', KEYS[1], ARGV[2]) end
return count
"""
"""A process's hits added to a window, the window's key expiring with it (set by whoever
created the key): one command per window."""


@dataclass(slots=True)
class _Window:
    redis_key: str
    index: int
    expire_seconds: int
    joined: asyncio.Future[None]
    """Done once the first hit here has learned the window's count across processes."""
    known: int = 0
    """The window's count in Redis as last answered (this process's sent hits included)."""
    sending: int = 0
    """Hits sent to Redis, not yet answered."""
    pending: int = 0
    """Hits counted here, not yet sent."""

    @property
    def count(self) -> int:
        return self.known + self.sending + self.pending


class RedisRateLimiter:
    """Fixed windows per key on `shipwise:rl:<key>:<window index>`, counted in batches.

    While Redis is away requests are let through (the API keeps answering reads through a
    broker outage): one warning per outage, and Redis is tried again after `retry_seconds`.
    """

    def __init__(
        self,
        redis_url: str,
        *,
        clock: Callable[[], float] = time.time,
        retry_seconds: float = 1.0,
        batch_seconds: float = 0.01,
    ) -> None:
        self._redis: Redis = Redis.from_url(redis_url, socket_connect_timeout=2, socket_timeout=2)
        self._add = self._redis.register_script(_ADD)
        self._clock = clock
        self._retry_seconds = retry_seconds
        self._batch_seconds = batch_seconds
        self._away_until: float | None = None
        self._windows: dict[tuple[str, int], _Window] = {}
        self._sender: asyncio.Task[None] | None = None

    async def hit(self, key: str, *, limit: int, window_seconds: int = 60) -> bool:
        """Count one request for `key`; False when the window already holds `limit`."""
        if self._away_until is not None and time.monotonic() < self._away_until:
            return True
        index = int(self._clock() // window_seconds)
        window = self._windows.get((key, window_seconds))
        if window is None or window.index != index:
            window = self._join(key, window_seconds, index)
            await self._first_hit(window)
        else:
            if not window.joined.done():  # joining: its count across processes comes first
                await asyncio.shield(window.joined)
            window.pending += 1
            self._send_soon()
        return self._away_until is not None or window.count <= limit

    async def flush(self) -> None:
        """Wait until every hit counted so far is sent and Redis's answer is read (then a
        decision here knows the other processes' hits as of that answer)."""
        if self._sender is not None:
            await asyncio.gather(self._sender, return_exceptions=True)

    async def close(self) -> None:
        """Send what is counted, then let the connection go."""
        await self.flush()
        await self._redis.aclose()

    def _join(self, key: str, window_seconds: int, index: int) -> _Window:
        window = _Window(
            redis_key=f"{RATE_LIMIT_PREFIX}{key}:{index}",
            expire_seconds=window_seconds + 1,
            index=index,
            joined=asyncio.get_running_loop().create_future(),
        )
        self._windows[(key, window_seconds)] = window
        return window

    async def _first_hit(self, window: _Window) -> None:
        """Count the first hit in Redis, learning the window's count (others' hits wait)."""
        try:
            count = await self._add(keys=[window.redis_key], args=[1, window.expire_seconds])
        except BROKER_ERRORS as exc:
            self._gone_away(exc)
        else:
            window.known = int(count)
            self._answered()
        finally:
            window.joined.set_result(None)

    def _send_soon(self) -> None:
        if self._sender is None or self._sender.done():
            self._sender = asyncio.get_running_loop().create_task(self._send())

    async def _send(self) -> None:
        """Every `batch_seconds`, each window's new hits in one pipeline, until none are
        left to send."""
        while True:
            await asyncio.sleep(self._batch_seconds)
            batch = [w for w in self._windows.values() if w.pending and w.joined.done()]
            if not batch:
                self._forget_past_windows()
                return
            async with self._redis.pipeline(transaction=False) as pipe:
                for window in batch:
                    window.sending, window.pending = window.pending, 0
                    await self._add(
                        keys=[window.redis_key],
                        args=[window.sending, window.expire_seconds],
                        client=pipe,
                    )
                try:
                    counts = await pipe.execute()
                except RedisError as exc:  # away, or refusing: not an error nobody sees
                    self._gone_away(exc)  # the batch's hits went through uncounted
                    return
            self._answered()
            for window, count in zip(batch, counts, strict=True):
                window.known, window.sending = int(count), 0

    def _forget_past_windows(self) -> None:
        now = self._clock()
        self._windows = {
            slot: window
            for slot, window in self._windows.items()
            if window.index == int(now // slot[1]) or not window.joined.done()
        }

    def _answered(self) -> None:
        if self._away_until is not None:
            logger.info("rate limits checked again: Redis answers")
            self._away_until = None

    def _gone_away(self, exc: BaseException) -> None:
        if self._away_until is None:
            logger.warning(
                "rate limits unchecked: Redis unreachable",
                extra={"error_type": type(exc).__name__},
            )
        self._away_until = time.monotonic() + self._retry_seconds
        self._windows.clear()
