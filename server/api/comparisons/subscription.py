"""`comparisonProgress`: the current snapshot from the row, then every later one off the bus.

The row is the truth; the event bus only makes delivery fast. One reader per comparison in
this process (`progress_hub`) puts every snapshot into each subscription's one-slot `Mailbox`,
so a slow client holds one pending snapshot at most. When the
bus goes quiet, or says the run ended, the row is read again, so the terminal snapshot
arrives even if events were lost.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncGenerator
from contextlib import aclosing
from functools import lru_cache

import strawberry
from prometheus_client import Gauge
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.api.comparisons.progress_reads import progress_reads
from server.api.comparisons.progress_types import ComparisonProgress
from server.api.context import Context
from server.comparisons.mailbox import Mailbox
from server.comparisons.progress import Progress
from server.comparisons.progress_hub import hub_for
from server.errors import ValidationFailed
from server.metrics import REGISTRY
from server.runtime.interfaces import EventBus

logger = logging.getLogger("shipwise.comparisons")

IDLE_SECONDS = 2.0
"""With no event for this long, the row is read again (events may have been lost)."""

SUBSCRIPTIONS = Gauge(
    "shipwise_progress_subscriptions", "Open comparisonProgress subscriptions", registry=REGISTRY
)


async def progress_stream(
    *,
    sessionmaker: async_sessionmaker[AsyncSession],
    events: EventBus,
    workspace_id: str,
    comparison_id: str,
    after_seq: int | None = None,
    idle_seconds: float = IDLE_SECONDS,
) -> AsyncGenerator[Progress, None]:
    """The current snapshot (unless `after_seq` already covers it), then each later one in
    `seq` order, ending after the terminal one; a seq is never repeated or reordered."""
    if after_seq is not None and after_seq < 0:
        raise ValidationFailed("`afterSeq` must be 0 or more", field="afterSeq")

    reads = progress_reads(sessionmaker)

    async def read() -> Progress:
        return await reads.read(workspace_id=workspace_id, comparison_id=comparison_id)

    current = await read()
    sent = -1 if after_seq is None else after_seq
    if current.terminal:
        if current.seq > sent:
            yield current
        return
    mailbox = Mailbox()
    hub = hub_for(events)
    # Join before the first yield: what is published while the client reads the current
    # snapshot waits in the mailbox.
    hub.join(comparison_id, max(sent, current.seq), mailbox)
    SUBSCRIPTIONS.inc()
    try:
        latest: Progress | None = current
        while True:
            if latest is None or latest.terminal:
                # Quiet for a while, or the end: either way the row has the final word.
                latest = await read()
                if not latest.terminal:
                    hub.ensure_reader(comparison_id, max(sent, latest.seq))
            if latest.seq > sent:
                sent = latest.seq
                yield latest
            if latest.terminal:
                return
            latest = await mailbox.take(idle_seconds)
    finally:
        SUBSCRIPTIONS.dec()
        hub.leave(comparison_id, mailbox)
        mailbox.close()


async def comparison_progress(
    info: strawberry.Info[Context], id: strawberry.ID, after_seq: int | None = None
) -> AsyncGenerator[ComparisonProgress, None]:
    """The `comparisonProgress` resolver: VIEWER, scoped to the caller's workspace."""
    actor = info.context.require()
    app = info.context.app
    stream = progress_stream(
        sessionmaker=app.sessionmaker,
        events=app.events,
        workspace_id=actor.workspace_id,
        comparison_id=str(id),
        after_seq=after_seq,
    )
    async with aclosing(stream):
        async for progress in stream:
            yield _view(progress)


@lru_cache(maxsize=256)
def _view(progress: Progress) -> ComparisonProgress:
    """One view object per snapshot, so its execution is shared
    (`server.api.http.shared_events`)."""
    return ComparisonProgress.of(progress)


@strawberry.type
class ComparisonSubscription:
    comparison_progress: AsyncGenerator[ComparisonProgress, None] = strawberry.subscription(
        resolver=comparison_progress,
        description="Progress snapshots: the current one first (unless `afterSeq` covers it), "
        "then each later one in `seq` order (coalescing may skip numbers); ends after the "
        "terminal one.",
    )
