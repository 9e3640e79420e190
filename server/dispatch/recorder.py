"""The recorder: outcomes in, batches out, closing by size or by time."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable

from server.dispatch.outcomes import TrialOutcome

FLUSH_EVERY = 256
"""A batch closes once it holds this many outcomes (the pipeline lowers it to two windows)…"""
FLUSH_INTERVAL_S = 0.2
"""…or this long after its first outcome arrived."""
MAX_BATCH = 1024

Record = Callable[[list[TrialOutcome]], Awaitable[None]]


class Recorder:
    """Reads outcomes from a queue and records them; `None` in the queue ends it (after a
    last flush). While a batch is written the callers go on and the next batch fills."""

    def __init__(
        self,
        record: Record,
        *,
        flush_every: int = FLUSH_EVERY,
        flush_interval: float = FLUSH_INTERVAL_S,
    ) -> None:
        self.queue: asyncio.Queue[TrialOutcome | None] = asyncio.Queue()
        self._record = record
        self.flush_every = flush_every
        self._flush_interval = flush_interval
        self.on_recorded: Callable[[int], None] = lambda _: None
        """Called with a batch's size once it is committed."""

    async def run(self) -> None:
        buffer: list[TrialOutcome] = []
        opened = 0.0
        ending = False
        while not ending:
            item: TrialOutcome | None = None
            got = True
            if buffer:
                wait = self._flush_interval - (time.monotonic() - opened)
                getter = asyncio.ensure_future(self.queue.get())
                try:
                    done, _ = await asyncio.wait({getter}, timeout=max(wait, 0))
                finally:
                    if not getter.done():
                        getter.cancel()
                if done:
                    item = getter.result()
                else:
                    got = False  # the batch is due
            else:
                item = await self.queue.get()
            if got and item is None:
                ending = True
            elif item is not None:
                if not buffer:
                    opened = time.monotonic()
                buffer.append(item)
            while not ending and len(buffer) < MAX_BATCH and not self.queue.empty():
                more = self.queue.get_nowait()
                if more is None:
                    ending = True
                else:
                    buffer.append(more)
            if buffer and (
                ending
                or len(buffer) >= self.flush_every
                or time.monotonic() - opened >= self._flush_interval
            ):
                batch, buffer = buffer, []
                await self._record(batch)
                self.on_recorded(len(batch))
