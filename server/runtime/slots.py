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

from server.runtime.broker import BROKER_ERRORS

# A slot is a member of the key's sorted set scored by its expiry (ms); expired slots are
# dropped before counting. The expiry is the holder's lease end, renewed with the lease, so
# the slots of a worker killed mid-call come back when its lease ends. A holder reserves a
# block of slots in one call (up to ARGV[3] − taken, at most the members given).
_RESERVE = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
local free = tonumber(ARGV[3]) - redis.call('ZCARD', KEYS[1])
local n = math.min(free, #ARGV - 3)
for i = 1, n do redis.call('ZADD', KEYS[1], ARGV[2], ARGV[i + 3]) end
if n > 0 then
  local ttl = tonumber(ARGV[2]) - tonumber(ARGV[1])
  if redis.call('PTTL', KEYS[1]) < ttl then redis.call('PEXPIRE', KEYS[1], ttl) end
end
return math.max(n, 0)
"""

# Move the holder's slots to the new expiry; return the members no longer there (a slot
# given up, or expired and taken by another holder): the holder must not use them again.
_RENEW_SLOTS = """
local lost = {}
for i, key in ipairs(KEYS) do
  local member = ARGV[i + 2]
  if redis.call('ZSCORE', key, member) then
    redis.call('ZADD', key, 'XX', ARGV[1], member)
    local ttl = tonumber(ARGV[1]) - tonumber(ARGV[2])
    if redis.call('PTTL', key) < ttl then redis.call('PEXPIRE', key, ttl) end
  else
    table.insert(lost, member)
  end
end
return lost
"""

BLOCK = 16
"""Slots reserved at least per Redis call when a holder needs more (fewer if fewer are free)."""
RETURN_AFTER_S = 0.05
"""A holder's reserved slots that nobody used for this long go back to Redis."""


class SlotWaitAbandoned(Exception):
    """The holder stopped waiting for a slot (cancelled, stopping, fenced): nothing was sent."""


class _Signal:
    """An event whose waits are bare futures: a wait for a slot spawns no task (`_first`)."""

    __slots__ = ("flag", "sleepers")

    def __init__(self) -> None:
        self.flag = False
        self.sleepers: list[asyncio.Future[None]] = []

    def is_set(self) -> bool:
        return self.flag

    def set(self) -> None:
        self.flag = True
        sleepers, self.sleepers = self.sleepers, []
        for sleeper in sleepers:
            if not sleeper.done():
                sleeper.set_result(None)

    def clear(self) -> None:
        self.flag = False


@dataclass(eq=False)
class _Block:
    """One holder's slots of one key: reserved in Redis, handed out locally."""

    free: list[str] = field(default_factory=list)
    """Reserved members nobody uses now."""
    used: int = 0
    waiters: int = 0
    released: _Signal = field(default_factory=_Signal)
    """Set when a slot is given back locally or a reservation ends."""
    reserving: bool = False
    """One reservation at a time per block: the others wait for it, then share its slots."""
    returning: asyncio.TimerHandle | None = None
    idle: int = 0
    """The fewest free slots since the return was scheduled: those nobody used meanwhile."""


@dataclass(eq=False)
class _Holder:
    until_ms: int | None = None
    """The holder's lease end (epoch ms): its slots' expiry."""
    abandoned: _Signal = field(default_factory=_Signal)
    waiting: int = 0
    members: dict[str, str] = field(default_factory=dict)
    """Reserved slot member → its key."""
    blocks: dict[str, _Block] = field(default_factory=dict)


class RedisSlots:
    """Concurrency slots shared by every process on one Redis: at most `limit` holders per key.

    A holder is a dispatch delivery: it reserves slots in blocks (one Redis call for many),
    hands them to its calls locally and gives back what it has not used for a moment, and
    at the end of its lease all of them; its slots expire with its lease (`extend` renews
    them), and `abandon` ends its waits at once. Each process also keeps its own semaphore;
    this bounds the sum across workers.
    """

    def __init__(
        self,
        redis_url: str,
        *,
        ttl_seconds: float = 60,
        poll_seconds: float = 0.005,
        max_poll_seconds: float = 0.1,
        return_after_seconds: float = RETURN_AFTER_S,
    ) -> None:
        self._redis = Redis.from_url(redis_url)
        self._reserve = self._redis.register_script(_RESERVE)
        self._renew = self._redis.register_script(_RENEW_SLOTS)
        self._ttl_ms = int(ttl_seconds * 1000)
        """The expiry of a slot whose holder has not said when its lease ends."""
        self._poll = poll_seconds
        self._max_poll = max_poll_seconds
        self._return_after = return_after_seconds
        self._holders: dict[str, _Holder] = {}
        self._returns: set[asyncio.Future[None]] = set()
        self._unreturned: dict[str, set[str]] = {}
        """Slots given back while Redis was away (or whose reservation's answer was lost):
        returned at the next call that reaches Redis, so none waits for its expiry."""
        self.redis_calls = 0
        """Reservations and returns sent to Redis (a block each), for tests and benchmarks."""

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
            # Redis away: the slots keep their old expiry; the next renewal moves them.
            with contextlib.suppress(*BROKER_ERRORS):
                lost = await self._renew(
                    keys=[key for _, key in members],
                    args=[state.until_ms, _now_ms(), *(member for member, _ in members)],
                )
                self._drop_lost(state, [m.decode() if isinstance(m, bytes) else m for m in lost])

    @staticmethod
    def _drop_lost(state: _Holder, lost: list[str]) -> None:
        """Forget slots that expired under a stalled holder: one still in use is not handed
        out again when its call ends (`hold` returns only members still reserved)."""
        for member in lost:
            name = state.members.pop(member, None)
            block = state.blocks.get(name) if name is not None else None
            if block is not None and member in block.free:
                block.free.remove(member)

    def abandon(self, holder: str) -> None:
        """End `holder`'s waits now (they raise `SlotWaitAbandoned`) and refuse new ones."""
        self._holders.setdefault(holder, _Holder()).abandoned.set()

    async def release_all(self, holder: str) -> None:
        """The holder's lease is over: give back everything it reserved and forget it."""
        state = self._holders.pop(holder, None)
        if state is None:
            return
        state.abandoned.set()
        by_key: dict[str, list[str]] = {}
        for member, key in state.members.items():
            by_key.setdefault(key, []).append(member)
        for block in state.blocks.values():
            if block.returning is not None:
                block.returning.cancel()
        for key, members in by_key.items():
            await self._give_back(key, members)
        with contextlib.suppress(*BROKER_ERRORS):
            await self._flush_unreturned()

    @asynccontextmanager
    async def hold(
        self, key: str, limit: int, *, holder: str = "", abandonable: bool = True
    ) -> AsyncIterator[None]:
        """Wait for one of `limit` slots of `key` and hold it for the block."""
        state = self._holders.setdefault(holder, _Holder())
        name = f"shipwise:slots:{key}"
        block = state.blocks.setdefault(name, _Block())
        delay = self._poll
        state.waiting += 1
        block.waiters += 1
        try:
            while True:
                if abandonable and state.abandoned.is_set():
                    raise SlotWaitAbandoned(holder)
                if block.free:
                    member = block.free.pop()
                    block.idle = min(block.idle, len(block.free))
                    break
                if not block.reserving:
                    reserved = len(block.free) + block.used
                    want = min(limit - reserved, max(BLOCK, block.waiters))
                    if want > 0 and await self._take(state, name, limit, want, block):
                        continue
                block.released.clear()
                signals = [block.released, state.abandoned] if abandonable else [block.released]
                await _first(signals, delay)
                delay = min(delay * 2, self._max_poll)
        finally:
            state.waiting -= 1
            block.waiters -= 1
        block.used += 1
        try:
            yield
        finally:
            block.used -= 1
            if state.members.get(member) == name:
                block.free.append(member)
                self._schedule_return(holder, state, name, block)
            block.released.set()  # a lost slot's waiters reserve again
            if not holder and not state.members and not state.waiting:
                self._holders.pop(holder, None)

    async def _take(self, state: _Holder, name: str, limit: int, want: int, block: _Block) -> int:
        """Reserve up to `want` more slots of `name` in one call; how many were."""
        now = _now_ms()
        expiry = state.until_ms if state.until_ms is not None else now + self._ttl_ms
        prefix = uuid4().hex
        members = [f"{prefix}:{i}" for i in range(want)]
        self.redis_calls += 1
        block.reserving = True
        try:
            await self._flush_unreturned()
            got = int(await self._reserve(keys=[name], args=[now, expiry, limit, *members]))
        except BROKER_ERRORS:
            # Redis away: nothing sent; the wait polls on. The script may have run, so the
            # members go back with the next call that gets through.
            self._unreturned.setdefault(name, set()).update(members)
            got = 0
        finally:
            block.reserving = False
            block.released.set()
        for member in members[:got]:
            state.members[member] = name
            block.free.append(member)
        return got

    def _schedule_return(self, holder: str, state: _Holder, name: str, block: _Block) -> None:
        """After the return interval, give back the slots that stayed free all that time (a slot
        freed and taken again in between is in use: returning it would cost its caller a
        Redis call to reserve it again); check again while any are free."""
        if block.waiters or block.returning is not None:
            return
        block.idle = len(block.free)

        def give_back() -> None:
            block.returning = None
            if block.waiters or not block.free or self._holders.get(holder) is not state:
                return
            idle = min(block.idle, len(block.free))
            if idle:
                members, block.free = block.free[:idle], block.free[idle:]
                for member in members:
                    state.members.pop(member, None)
                task = asyncio.ensure_future(self._give_back(name, members))
                self._returns.add(task)
                task.add_done_callback(self._returns.discard)
            if block.free:
                self._schedule_return(holder, state, name, block)

        block.returning = asyncio.get_running_loop().call_later(self._return_after, give_back)

    async def _give_back(self, name: str, members: list[str]) -> None:
        if members:
            self.redis_calls += 1
            try:
                await cast("Awaitable[int]", self._redis.zrem(name, *members))
            except BROKER_ERRORS:
                self._unreturned.setdefault(name, set()).update(members)

    async def _flush_unreturned(self) -> None:
        """Give back what could not be given back earlier; raises while Redis is away."""
        while self._unreturned:
            name, members = self._unreturned.popitem()  # before the await: callers overlap
            try:
                await cast("Awaitable[int]", self._redis.zrem(name, *members))
            except BROKER_ERRORS:
                self._unreturned.setdefault(name, set()).update(members)
                raise

    async def close(self) -> None:
        """Give back every slot this process still reserves, then disconnect."""
        for holder in list(self._holders):
            with contextlib.suppress(Exception):
                await self.release_all(holder)
        for task in list(self._returns):
            with contextlib.suppress(Exception):
                await task
        await self._redis.aclose()


async def _first(signals: list[_Signal], delay: float) -> None:
    """Until one of `signals` is set, or `delay` seconds."""
    if any(signal.flag for signal in signals):
        return
    loop = asyncio.get_running_loop()
    sleeper: asyncio.Future[None] = loop.create_future()
    for signal in signals:
        signal.sleepers.append(sleeper)
    timer = loop.call_later(delay, _wake, sleeper)
    try:
        await sleeper
    finally:
        timer.cancel()
        for signal in signals:
            if sleeper in signal.sleepers:
                signal.sleepers.remove(sleeper)


def _wake(sleeper: asyncio.Future[None]) -> None:
    if not sleeper.done():
        sleeper.set_result(None)


def _now_ms() -> int:
    return int(time.time() * 1000)
