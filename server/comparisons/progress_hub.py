"""One shared event reader per comparison per process, fanning out to its subscriptions.

Before, every `comparisonProgress` subscription ran its own blocking stream read (one Redis
connection each while it waited); now the first subscription to a comparison starts a reader
and the others join it. Each subscription still has its own one-slot `Mailbox`: the reader
puts every snapshot in every mailbox, so a slow client keeps only the latest. A late joiner
gets the newest snapshot the reader has seen at once (older ones are covered by the row it
has just read, or coalesced). The reader stops when its last subscription leaves or a
terminal snapshot passes.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import AsyncGenerator
from dataclasses import dataclass, field

from server.comparisons.mailbox import Mailbox
from server.comparisons.progress import Progress, topic
from server.runtime.interfaces import EventBus

logger = logging.getLogger("shipwise.comparisons")


@dataclass(eq=False)
class _Topic:
    mailboxes: set[Mailbox] = field(default_factory=set)
    latest: Progress | None = None
    reader: asyncio.Task[None] | None = None


class ProgressHub:
    """The readers of one event bus in this process, by comparison."""

    def __init__(self, events: EventBus) -> None:
        self._events = events
        self._topics: dict[str, _Topic] = {}
        self._failing = False
        """A reader failed and none has read since: later failures are not logged again
        (a Redis outage would log one every idle re-read of every watched comparison)."""

    def readers(self) -> int:
        """Readers running now (one per watched comparison)."""
        return sum(1 for t in self._topics.values() if t.reader and not t.reader.done())

    def join(self, comparison_id: str, after_seq: int, mailbox: Mailbox) -> None:
        """Deliver the comparison's snapshots after `after_seq` into `mailbox` from now on."""
        state = self._topics.setdefault(comparison_id, _Topic())
        state.mailboxes.add(mailbox)
        if state.latest is not None and state.latest.seq > after_seq:
            mailbox.put(state.latest)
        self.ensure_reader(comparison_id, after_seq)

    def reading(self, comparison_id: str) -> bool:
        state = self._topics.get(comparison_id)
        return bool(state and state.reader and not state.reader.done())

    def ensure_reader(self, comparison_id: str, after_seq: int) -> None:
        """Start the comparison's reader unless one runs (a failed one is started again)."""
        state = self._topics.get(comparison_id)
        if state is None or (state.reader is not None and not state.reader.done()):
            return
        start = max(after_seq, state.latest.seq if state.latest else 0)
        state.reader = asyncio.create_task(
            self._read(comparison_id, state, start), name=f"progress {comparison_id}"
        )
        state.reader.add_done_callback(self._log_failure)

    def leave(self, comparison_id: str, mailbox: Mailbox) -> None:
        """`mailbox` gets nothing more; the last one to leave stops the reader."""
        state = self._topics.get(comparison_id)
        if state is None:
            return
        state.mailboxes.discard(mailbox)
        if not state.mailboxes:
            del self._topics[comparison_id]
            if state.reader is not None:
                state.reader.cancel()

    def _log_failure(self, task: asyncio.Task[None]) -> None:
        if not task.cancelled() and (exc := task.exception()) is not None:
            # Subscriptions fall back to reading the row; the next one starts a new reader.
            if not self._failing:
                logger.warning(
                    "progress events unavailable", extra={"error_type": type(exc).__name__}
                )
            self._failing = True

    async def _read(self, comparison_id: str, state: _Topic, after_seq: int) -> None:
        stream = self._events.subscribe(topic(comparison_id), after_seq=after_seq)
        try:
            async for event in stream:
                self._failing = False
                try:
                    progress = Progress.from_payload(dict(event.payload))
                except (KeyError, TypeError, ValueError):
                    logger.warning("malformed progress event skipped", extra={"seq": event.seq})
                    continue
                if state.latest is None or progress.seq > state.latest.seq:
                    state.latest = progress
                for mailbox in list(state.mailboxes):
                    mailbox.put(progress)
                if progress.terminal:
                    return
        finally:
            if isinstance(stream, AsyncGenerator):  # both adapters' are: close it now, not at GC
                await stream.aclose()


_HUBS: weakref.WeakKeyDictionary[EventBus, ProgressHub] = weakref.WeakKeyDictionary()


def hub_for(events: EventBus) -> ProgressHub:
    """The process's hub for this event bus (made on first use)."""
    hub = _HUBS.get(events)
    if hub is None:
        hub = _HUBS[events] = ProgressHub(events)
    return hub
