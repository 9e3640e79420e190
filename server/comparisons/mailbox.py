"""A one-slot mailbox between a progress subscription's bus reader and its client.

A slow client must not make the server queue snapshots for it: the reader keeps only the
latest pending snapshot, and a terminal one (the last a subscription sends) is never replaced.
"""

from __future__ import annotations

import asyncio

from prometheus_client import Counter, Gauge

from server.comparisons.progress import Progress
from server.metrics import REGISTRY

PENDING = Gauge(
    "shipwise_progress_pending_snapshots",
    "Progress snapshots waiting for a subscriber (at most one per subscription)",
    registry=REGISTRY,
)
COALESCED = Counter(
    "shipwise_progress_coalesced_snapshots",
    "Progress snapshots replaced by a newer one before their subscriber took them",
    registry=REGISTRY,
)


class Mailbox:
    """Holds at most one snapshot: the newest put, unless a terminal one arrived first."""

    def __init__(self) -> None:
        self._pending: Progress | None = None
        self._ready = asyncio.Event()
        self.coalesced = 0
        """Snapshots this mailbox replaced or refused instead of queueing them."""

    @property
    def pending(self) -> int:
        return 0 if self._pending is None else 1

    def put(self, progress: Progress) -> None:
        """Keep `progress` if it is newer than what waits, and nothing waits that is terminal."""
        held = self._pending
        if held is not None:
            self.coalesced += 1
            COALESCED.inc()
            if held.terminal or progress.seq <= held.seq:
                return
        else:
            PENDING.inc()
        self._pending = progress
        self._ready.set()

    async def take(self, timeout: float) -> Progress | None:
        """The pending snapshot, waiting up to `timeout` seconds for one; None if none came."""
        if self._pending is None:
            try:
                async with asyncio.timeout(timeout):
                    await self._ready.wait()
            except TimeoutError:
                return None
        progress, self._pending = self._pending, None
        self._ready.clear()
        if progress is not None:
            PENDING.dec()
        return progress

    def close(self) -> None:
        """Drop what waits (the subscriber is gone), keeping the gauge true."""
        if self._pending is not None:
            self._pending = None
            PENDING.dec()
