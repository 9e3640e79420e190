"""Concurrency slots in Redis, shared by every worker process: at most `limit` per key."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Awaitable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import cast
from uuid import uuid4

from redis.asyncio import Redis

# A slot is a member of the key's sorted set scored by its expiry (ms); expired slots are
# dropped before counting. The expiry is the holder's lease end, renewed with the lease, so
# the slots of a worker killed mid-call come back when its lease ends.
_TAKE_SLOT = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[3]) then
  redis.call('ZADD', KEYS[1], ARGV[2], ARGV[4])
  local ttl = tonumber(ARGV[2]) - tonumber(ARGV[1])
  if redis.call('PTTL', KEYS[1]) < ttl then redis.call('PEXPIRE', KEYS[1], ttl) end
  return 1
end
return 0
"""

# Move the holder's live slots to the new expiry (XX: a slot already given up stays gone).
_RENEW_SLOTS = """
for i, key in ipairs(KEYS) do
  redis.call('ZADD', key, 'XX', ARGV[1], ARGV[i + 2])
  local ttl = tonumber(ARGV[1]) - tonumber(ARGV[2])
  if redis.call('PTTL', key) < ttl then redis.call('PEXPIRE', key, ttl) end
end
return 1
"""


class SlotWaitAbandoned(Exception):
    """The holder stopped waiting for a slot (cancelled, stopping, fenced): nothing was sent."""


@dataclass(eq=False)
class _Holder:
    until_ms: int | None = None
    """The holder's lease end (epoch ms): its slots' expiry."""
    abandoned: asyncio.Event = field(default_factory=asyncio.Event)
    waiting: int = 0
    members: dict[str, str] = field(default_factory=dict)
    """Held slot member → its key."""


class RedisSlots:
    """Concurrency slots shared by every process on one Redis: at most `limit` holders per key.

    A holder is a dispatch delivery: its slots expire with its lease (`extend` renews them),
    and `abandon` ends its waits at once. Each process also keeps its own semaphore; this
    bounds the sum across workers.
    """

    def __init__(
        self,
        redis_url: str,
        *,
        ttl_seconds: float = 60,
        poll_seconds: float = 0.005,
        max_poll_seconds: float = 0.1,
    ) -> None:
        self._redis = Redis.from_url(redis_url)
        self._take = self._redis.register_script(_TAKE_SLOT)
        self._renew = self._redis.register_script(_RENEW_SLOTS)
        self._ttl_ms = int(ttl_seconds * 1000)
        """The expiry of a slot whose holder has not said when its lease ends."""
        self._poll = poll_seconds
        self._max_poll = max_poll_seconds
        self._holders: dict[str, _Holder] = {}

    def waiting(self, holder: str) -> int:
        """How many of `holder`'s calls wait for a slot."""
        state = self._holders.get(holder)
        return state.waiting if state else 0

    async def extend(self, holder: str, until: float) -> None:
        """`holder`'s lease now ends at `until` (epoch seconds): so do its slots."""
        state = self._holders.setdefault(holder, _Holder())
        state.until_ms = int(until * 1000)
        if state.members:
            members = list(state.members.items())
            await self._renew(
                keys=[key for _, key in members],
                args=[state.until_ms, _now_ms(), *(member for member, _ in members)],
            )

    def abandon(self, holder: str) -> None:
        """End `holder`'s waits now (they raise `SlotWaitAbandoned`) and refuse new ones."""
        self._holders.setdefault(holder, _Holder()).abandoned.set()

    async def release_all(self, holder: str) -> None:
        """The holder's lease is over: give back anything it still holds and forget it."""
        state = self._holders.pop(holder, None)
        if state is not None:
            state.abandoned.set()
            for member, key in state.members.items():
                await cast("Awaitable[int]", self._redis.zrem(key, member))

    @asynccontextmanager
    async def hold(
        self, key: str, limit: int, *, holder: str = "", abandonable: bool = True
    ) -> AsyncIterator[None]:
        """Wait for one of `limit` slots of `key` and hold it for the block."""
        state = self._holders.setdefault(holder, _Holder())
        name = f"shipwise:slots:{key}"
        member = f"{holder}:{uuid4().hex}"
        delay = self._poll
        state.waiting += 1
        try:
            while True:
                if abandonable and state.abandoned.is_set():
                    raise SlotWaitAbandoned(holder)
                now = _now_ms()
                expiry = state.until_ms if state.until_ms is not None else now + self._ttl_ms
                if await self._take(keys=[name], args=[now, expiry, limit, member]):
                    break
                if abandonable:
                    with contextlib.suppress(TimeoutError):
                        async with asyncio.timeout(delay):
                            await state.abandoned.wait()
                else:
                    await asyncio.sleep(delay)
                delay = min(delay * 2, self._max_poll)
        finally:
            state.waiting -= 1
        state.members[member] = name
        try:
            yield
        finally:
            state.members.pop(member, None)
            await cast("Awaitable[int]", self._redis.zrem(name, member))
            if not holder and not state.members and not state.waiting:
                self._holders.pop(holder, None)

    async def close(self) -> None:
        await self._redis.aclose()


def _now_ms() -> int:
    return int(time.time() * 1000)
