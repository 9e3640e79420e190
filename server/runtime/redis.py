"""Redis adapters: arq for jobs, a bounded stream per topic for events (rate limits are in
`server.runtime.redis_rate_limiter`, concurrency slots in `server.runtime.slots`)."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Collection, Mapping
from datetime import timedelta
from typing import Any, Final, cast

from arq.connections import ArqRedis, RedisSettings, create_pool
from arq.constants import default_queue_name
from redis.asyncio import Redis
from redis.exceptions import ConnectionError as RedisConnectionError

from server.runtime.broker import BROKER_ERRORS
from server.runtime.interfaces import Event, JobStats

logger = logging.getLogger("shipwise.runtime")

COUNTS_KEY: Final = "shipwise:jobs:counts"
"""Hash of `name|outcome` → runs; the worker writes it, `ArqQueue.stats()` reads it."""

EVENTS_PREFIX: Final = "shipwise:events:"


async def record_outcome(redis: Redis, name: str, outcome: str) -> None:
    """Count one finished run of `name` in the shared hash."""
    # redis-py types its commands for the sync and the asyncio client at once.
    await cast("Awaitable[int]", redis.hincrby(COUNTS_KEY, f"{name}|{outcome}", 1))


class ArqQueue:
    """Enqueues by name on arq's queue; the worker process runs the jobs."""

    def __init__(
        self,
        redis_url: str,
        *,
        job_names: Collection[str] | None = None,
        queue_name: str = default_queue_name,
    ) -> None:
        """Connects on first use (or `connect()`); `job_names` makes typos fail at enqueue."""
        self._url = redis_url
        self._queue_name = queue_name
        self._pool: ArqRedis | None = None
        self._owns_pool = True
        self._job_names = frozenset(job_names) if job_names is not None else None
        self._lock = asyncio.Lock()

    @classmethod
    def from_pool(
        cls,
        pool: ArqRedis,
        *,
        job_names: Collection[str] | None = None,
        queue_name: str = default_queue_name,
    ) -> ArqQueue:
        """Borrow an open arq pool (the worker's `ctx["redis"]`); `close()` leaves it open."""
        queue = cls("", job_names=job_names, queue_name=queue_name)
        queue._pool, queue._owns_pool = pool, False
        return queue

    async def connect(self) -> None:
        """Open the pool now (with arq's connection retries) instead of on first use."""
        await self._get_pool()

    async def enqueue(
        self,
        name: str,
        *args: Any,
        job_id: str | None = None,
        delay: timedelta | None = None,
        **kwargs: Any,
    ) -> bool:
        """Queue `name`; False when a job with `job_id` is already queued or running."""
        if self._job_names is not None and name not in self._job_names:
            raise LookupError(f"unknown job {name!r}")
        pool = await self._get_pool()
        job = await pool.enqueue_job(
            name, *args, _job_id=job_id, _defer_by=delay, _queue_name=self._queue_name, **kwargs
        )
        return job is not None

    async def stats(self) -> JobStats:
        """Counts the workers wrote, and jobs queued or running (arq's queue holds both)."""
        pool = await self._get_pool()
        raw = await cast("Awaitable[dict[bytes, bytes]]", pool.hgetall(COUNTS_KEY))
        counts: dict[tuple[str, str], int] = {}
        for field, value in raw.items():
            name, _, outcome = field.decode().rpartition("|")
            counts[(name, outcome)] = int(value)
        queued: int = await pool.zcard(self._queue_name)
        return JobStats(counts=counts, queued=queued)

    async def close(self) -> None:
        if self._pool is not None and self._owns_pool:
            await self._pool.aclose(close_connection_pool=True)
            self._pool = None

    async def _get_pool(self) -> ArqRedis:
        if self._pool is None:
            async with self._lock:
                if self._pool is None:
                    self._pool = await create_pool(
                        RedisSettings.from_dsn(self._url), default_queue_name=self._queue_name
                    )
        return self._pool


# Entry ids are `<seq>-0`, so Redis keeps each stream in seq order and "seq > n" is
# simply "id > n-0". The check and the append are one atomic step for concurrent publishers.
_PUBLISH = """
local top = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)
if top[1] and tonumber(string.match(top[1][1], '^%d+')) >= tonumber(ARGV[1]) then
  return 0
end
redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[3], ARGV[1] .. '-0',
           'seq', ARGV[1], 'data', ARGV[2])
redis.call('EXPIRE', KEYS[1], ARGV[4])
return 1
"""


class RedisStreamEventBus:
    """A bounded Redis stream per topic (`shipwise:events:<topic>`), expiring when idle.

    `MAXLEN ~` trims lazily, so a subscription reads at most the newest `maxlen` entries
    of the backlog; the events it then tails arrive in order from the last id it saw.
    """

    def __init__(
        self,
        redis_url: str,
        *,
        maxlen: int = 1000,
        ttl_seconds: int = 86_400,
        block_ms: int = 2_000,
    ) -> None:
        # The socket timeout outlasts a blocking read, so only a dead connection trips it.
        self._redis: Redis = Redis.from_url(
            redis_url, socket_connect_timeout=5, socket_timeout=block_ms / 1000 + 10
        )
        self._maxlen = maxlen
        self._ttl_seconds = ttl_seconds
        self._block_ms = block_ms
        self._publish = self._redis.register_script(_PUBLISH)
        self._closed = False
        self._unreachable = False

    async def publish(self, topic: str, seq: int, payload: Mapping[str, Any]) -> None:
        """Append a snapshot; a seq not above the topic's last is dropped, so order never breaks.
        While Redis is away snapshots are dropped (one warning per outage)."""
        if self._closed:
            raise RuntimeError("event bus is closed")
        data = json.dumps(dict(payload), separators=(",", ":"))
        if seq <= 0:
            return
        try:
            await self._publish(
                keys=[EVENTS_PREFIX + topic], args=[seq, data, self._maxlen, self._ttl_seconds]
            )
        except BROKER_ERRORS as exc:
            # The row stays the truth: subscribers read it when the stream goes quiet.
            if not self._unreachable:
                self._unreachable = True
                logger.warning(
                    "progress events dropped: Redis unreachable",
                    extra={"error_type": type(exc).__name__},
                )
            return
        if self._unreachable:
            self._unreachable = False
            logger.info("progress events published again: Redis answers")

    async def subscribe(self, topic: str, *, after_seq: int = 0) -> AsyncIterator[Event]:
        """Every retained event with seq > after_seq in seq order, then new ones as published.

        Holds no connection between reads; a read cancelled mid-flight drops its connection.
        """
        key = EVENTS_PREFIX + topic
        after_seq = max(after_seq, 0)
        backlog = await self._redis.xrevrange(key, "+", f"{after_seq}-1", count=self._maxlen)
        last_id = f"{after_seq}-0"
        for entry_id, fields in reversed(backlog):
            last_id = entry_id.decode()
            yield _event(topic, entry_id, fields)
        while not self._closed:
            try:
                reply = await self._redis.xread({key: last_id}, count=100, block=self._block_ms)
            except RedisConnectionError:
                if self._closed:
                    return
                raise
            for _key, entries in reply:
                for entry_id, fields in entries:
                    last_id = entry_id.decode()
                    yield _event(topic, entry_id, fields)

    async def close(self) -> None:
        """Stop publishing; subscriptions end at their next read."""
        self._closed = True
        await self._redis.aclose()


def _event(topic: str, entry_id: bytes, fields: Mapping[bytes, bytes]) -> Event:
    seq = int(entry_id.split(b"-", 1)[0])
    return Event(topic=topic, seq=seq, payload=json.loads(fields[b"data"]))
