"""Job queue and event interfaces; Redis-backed and in-process adapters implement both."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any, Protocol

JobFunction = Callable[..., Awaitable[Any]]
"""`async def job(ctx, *args, **kwargs)` — arq's job signature."""


@dataclass(frozen=True, slots=True)
class PeriodicJob:
    """A job run every `every` (aligned to the wall clock's minute where possible)."""

    name: str
    every: timedelta
    run_at_startup: bool = False


@dataclass(frozen=True, slots=True)
class JobRegistry:
    """Job functions by name plus periodic jobs; both adapters run the same registry."""

    functions: Mapping[str, JobFunction]
    periodic: tuple[PeriodicJob, ...] = ()
    timeout_seconds: int = 300
    queue_name: str = "arq:queue"
    """The Redis queue workers read; separate deployments sharing a Redis use their own."""


@dataclass(frozen=True, slots=True)
class JobStats:
    """Counts per job name and outcome (`complete`, `failed`), plus jobs waiting."""

    counts: Mapping[tuple[str, str], int] = field(default_factory=dict)
    queued: int = 0


class JobQueue(Protocol):
    async def enqueue(
        self,
        name: str,
        *args: Any,
        job_id: str | None = None,
        delay: timedelta | None = None,
        **kwargs: Any,
    ) -> bool:
        """Queue `name`; False when a job with `job_id` is already queued or running."""
        ...

    async def stats(self) -> JobStats: ...

    async def close(self) -> None: ...


@dataclass(frozen=True, slots=True)
class Event:
    """A snapshot published on a topic; `seq` increases within a topic."""

    topic: str
    seq: int
    payload: Mapping[str, Any]


class EventBus(Protocol):
    async def publish(self, topic: str, seq: int, payload: Mapping[str, Any]) -> None:
        """Append a snapshot to the topic's bounded log."""
        ...

    def subscribe(self, topic: str, *, after_seq: int = 0) -> AsyncIterator[Event]:
        """Every retained event with seq > after_seq in seq order, then new ones as published."""
        ...

    async def close(self) -> None: ...


class RateLimiter(Protocol):
    async def hit(self, key: str, *, limit: int, window_seconds: int = 60) -> bool:
        """Count one request for `key`; False when the window already holds `limit`."""
        ...

    async def close(self) -> None: ...
