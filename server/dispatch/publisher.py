"""A delivery's progress snapshots to the event bus: in order, beside the work.

A record hands its snapshot over and goes on, so the room it frees in the pipeline does
not wait for a Redis round trip; `flush` waits until every snapshot handed over has been
published (the delivery's end). Events are best effort: the row stays the truth.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque

from server.comparisons import progress
from server.comparisons.progress import Progress
from server.runtime.interfaces import EventBus

logger = logging.getLogger("shipwise.dispatch")


class Publisher:
    def __init__(self, events: EventBus, comparison_id: str) -> None:
        self.events = events
        self.comparison_id = comparison_id
        self._waiting: deque[Progress] = deque()
        self._sending: asyncio.Task[None] | None = None

    async def publish(self, snapshot: Progress) -> None:
        """Publish `snapshot` after those handed over before it, without waiting for it."""
        self._waiting.append(snapshot)
        if self._sending is None or self._sending.done():
            self._sending = asyncio.ensure_future(self._send())

    async def flush(self) -> None:
        """Every snapshot handed over so far is published (or failed to be)."""
        while self._sending is not None and not self._sending.done():
            await asyncio.wait({self._sending})

    async def _send(self) -> None:
        while self._waiting:
            snapshot = self._waiting.popleft()
            try:
                await progress.publish(self.events, self.comparison_id, snapshot)
            except Exception as exc:
                logger.warning(
                    "progress event not published", extra={"error_type": type(exc).__name__}
                )
