"""In-process adapters: the embedded default when no Redis is configured."""

from __future__ import annotations

import asyncio
import json
import logging
import math
import time
from collections import Counter, deque
from collections.abc import AsyncIterator, Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from functools import partial
from typing import Any
from uuid import uuid4

from server.runtime.interfaces import Event, JobRegistry, JobStats, PeriodicJob
from server.runtime.jobrun import JobFailed, run_counted

logger = logging.getLogger("shipwise.jobs")


def check_registry(registry: JobRegistry) -> None:
    """Fail at start-up, not at the first tick, on a periodic job that cannot run."""
    for job in registry.periodic:
        if job.name not in registry.functions:
            raise ValueError(f"periodic job {job.name!r} is not a registered function")
        if job.every <= timedelta(0):
            raise ValueError(f"periodic job {job.name!r} needs a positive period")


class EmbeddedQueue:
    """Runs registry jobs as asyncio tasks in this process, with the ctx an arq worker passes.

    `ctx` is shared, not copied: the composition root adds `queue` and `events` after
    construction. Each run sees `{**ctx, "job_id", "job_try", "enqueue_time"}` like arq's.
    Jobs are lost if the process dies; the database is the source of truth.
    """

    def __init__(
        self, registry: JobRegistry, ctx: dict[str, Any], *, close_timeout: float = 10.0
    ) -> None:
        check_registry(registry)
        self._registry = registry
        self._ctx = ctx
        ctx.setdefault("stopping", asyncio.Event())
        ctx.setdefault("dispatching", set())  # comparisons a delivery of this process runs
        self._close_timeout = close_timeout
        self._jobs: dict[str, asyncio.Task[None]] = {}
        self._running: set[str] = set()
        self._periodic: list[asyncio.Task[None]] = []
        self._counts: Counter[tuple[str, str]] = Counter()
        self._closed = False

    async def enqueue(
        self,
        name: str,
        *args: Any,
        job_id: str | None = None,
        delay: timedelta | None = None,
        **kwargs: Any,
    ) -> bool:
        """Queue `name`; False when a job with `job_id` is already queued or running.

        Also False once `close()` began: a job handing over at shutdown must not fail for
        it, and its work is found again in the database at the next start-up.
        """
        if name not in self._registry.functions:
            raise LookupError(f"unknown job {name!r}")
        if self._closed:
            logger.warning("job queue closed: %s not queued", name)
            return False
        job_id = job_id or uuid4().hex
        existing = self._jobs.get(job_id)
        if existing is not None and not existing.done():
            return False
        task = asyncio.create_task(
            self._run(job_id, name, args, kwargs, delay), name=f"job {name} {job_id}"
        )
        self._jobs[job_id] = task
        task.add_done_callback(partial(self._forget, job_id))
        return True

    async def stats(self) -> JobStats:
        queued = sum(not task.done() for task in self._jobs.values())
        return JobStats(counts=dict(self._counts), queued=queued)

    async def start(self) -> None:
        """Start periodic jobs, queueing `run_at_startup` ones now; call once ctx is complete."""
        if self._closed or self._periodic:
            return
        now_ms = round(time.time() * 1000)
        for job in self._registry.periodic:
            if job.run_at_startup:
                await self.enqueue(job.name, job_id=f"{job.name}:{now_ms}")
        self._periodic = [
            asyncio.create_task(self._every(job), name=f"periodic {job.name}")
            for job in self._registry.periodic
        ]

    async def drain(self, timeout: float | None = None) -> None:
        """Wait until nothing is queued or running, continuations included."""
        async with asyncio.timeout(timeout):
            while pending := [task for task in self._jobs.values() if not task.done()]:
                await asyncio.wait(pending)

    async def close(self) -> None:
        """Stop periodic and delayed jobs; give running ones `close_timeout` to finish, then
        cancel them and wait until they have ended.

        A cancelled delivery still finishes the calls it sent and records them (its pipeline
        cancels only what is not sent: server/dispatch/pipeline.py), so it may outlive the
        grace by a call's time, bounded by the provider timeout. What those calls use (the
        providers, the engine) is closed by the lifespan after this returns: closed sooner,
        a call the provider answered would be recorded ERRORED ("provider is closed")."""
        if self._closed:
            return
        self._closed = True
        stopping = self._ctx.get("stopping")
        if isinstance(stopping, asyncio.Event):
            stopping.set()
        for task in self._periodic:
            task.cancel()
        for job_id, task in self._jobs.items():
            if job_id not in self._running:
                task.cancel()
        tasks = [*self._periodic, *self._jobs.values()]
        if not tasks:
            return
        _, pending = await asyncio.wait(tasks, timeout=self._close_timeout)
        if pending:
            logger.warning("cancelling %d job(s) still running at shutdown", len(pending))
            for task in pending:
                task.cancel()
            await asyncio.wait(pending)

    async def _run(
        self,
        job_id: str,
        name: str,
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
        delay: timedelta | None,
    ) -> None:
        enqueue_time = datetime.now(UTC)
        if delay is not None and delay > timedelta(0):
            await asyncio.sleep(delay.total_seconds())
        self._running.add(job_id)
        ctx = {**self._ctx, "job_id": job_id, "job_try": 1, "enqueue_time": enqueue_time}
        try:
            await run_counted(
                name,
                self._registry.functions[name],
                ctx,
                args,
                kwargs,
                timeout_seconds=self._registry.timeout_seconds,
                record=self._record,
            )
        except JobFailed:
            pass  # logged and counted by run_counted
        finally:
            self._running.discard(job_id)

    async def _record(self, name: str, outcome: str) -> None:
        self._counts[(name, outcome)] += 1

    def _forget(self, job_id: str, task: asyncio.Task[None]) -> None:
        if self._jobs.get(job_id) is task:
            del self._jobs[job_id]

    async def _every(self, job: PeriodicJob) -> None:
        # Ticks sit on multiples of the period since the epoch, so a 60 s job runs on the
        # minute as arq's cron does; ids mirror arq's `name:<ms>` cron job ids.
        period = job.every.total_seconds()
        last = 0.0
        while True:
            tick = (math.floor(time.time() / period) + 1) * period
            if tick <= last:  # woke a hair early: never fire one tick twice
                tick = last + period
            await asyncio.sleep(max(tick - time.time(), 0.0))
            last = tick
            await self.enqueue(job.name, job_id=f"{job.name}:{round(tick * 1000)}")


def json_payload(payload: Mapping[str, Any]) -> dict[str, Any]:
    """The payload as a subscriber on Redis would see it (JSON types only)."""
    data: dict[str, Any] = json.loads(json.dumps(dict(payload)))
    return data


@dataclass
class _Topic:
    events: deque[Event]
    changed: asyncio.Condition = field(default_factory=asyncio.Condition)
    last_seq: int = 0


class InProcessEventBus:
    """A bounded log per topic in memory; subscribers wake on publish."""

    def __init__(self, maxlen: int = 1000) -> None:
        self._maxlen = maxlen
        self._topics: dict[str, _Topic] = {}
        self._closed = False

    async def publish(self, topic: str, seq: int, payload: Mapping[str, Any]) -> None:
        """Append a snapshot; a seq not above the topic's last is dropped, so order never breaks."""
        if self._closed:
            raise RuntimeError("event bus is closed")
        data = json_payload(payload)
        log = self._topic(topic)
        if seq <= log.last_seq:
            return
        log.last_seq = seq
        log.events.append(Event(topic=topic, seq=seq, payload=data))
        async with log.changed:
            log.changed.notify_all()

    async def subscribe(self, topic: str, *, after_seq: int = 0) -> AsyncIterator[Event]:
        """Every retained event with seq > after_seq in seq order, then new ones as published."""
        log = self._topic(topic)
        last = after_seq
        while True:
            fresh = [event for event in log.events if event.seq > last]
            for event in fresh:
                last = event.seq
                yield event
            if fresh:
                continue
            async with log.changed:
                while log.last_seq <= last and not self._closed:
                    await log.changed.wait()
            if self._closed:
                return

    async def close(self) -> None:
        """Stop publishing and end every subscription."""
        self._closed = True
        for log in self._topics.values():
            async with log.changed:
                log.changed.notify_all()

    def _topic(self, topic: str) -> _Topic:
        log = self._topics.get(topic)
        if log is None:
            log = self._topics[topic] = _Topic(events=deque(maxlen=self._maxlen))
        return log


class MemoryRateLimiter:
    """Fixed windows per key, aligned to the epoch like the Redis limiter's."""

    _PRUNE_AT = 10_000

    def __init__(self, *, clock: Callable[[], float] = time.time) -> None:
        self._clock = clock
        self._windows: dict[tuple[str, int], tuple[int, int]] = {}
        self._prune_at = self._PRUNE_AT

    async def hit(self, key: str, *, limit: int, window_seconds: int = 60) -> bool:
        """Count one request for `key`; False when the window already holds `limit`."""
        now = self._clock()
        index = int(now // window_seconds)
        slot = (key, window_seconds)
        current, count = self._windows.get(slot, (index, 0))
        count = count + 1 if current == index else 1
        self._windows[slot] = (index, count)
        if len(self._windows) > self._prune_at:
            self._prune(now)
        return count <= limit

    async def close(self) -> None:
        self._windows.clear()

    def _prune(self, now: float) -> None:
        self._windows = {
            slot: value for slot, value in self._windows.items() if value[0] == int(now // slot[1])
        }
        self._prune_at = max(self._PRUNE_AT, 2 * len(self._windows))
