"""`publish_about`: publish an event about a committed subject row (a comparison, a run).

The ready-made calls live with their subjects (`server.comparisons.hooks`,
`server.runs.hooks`); each is called after the transaction that made its event true has
committed, and none raises.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import Any, Protocol, TypeVar

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server import db_retry
from server.runtime.interfaces import JobQueue
from server.webhooks.models import WebhookEvent
from server.webhooks.publishing import publish

logger = logging.getLogger("shipwise.webhooks")


class Subject(Protocol):
    """A row an event is about: it names its workspace and experiment."""

    @property
    def id(self) -> str: ...

    @property
    def workspace_id(self) -> str: ...

    @property
    def experiment_id(self) -> str: ...


R = TypeVar("R", bound=Subject)


async def _read(
    sessionmaker: async_sessionmaker[AsyncSession], model: type[R], row_id: str
) -> R | None:
    """The committed row, or None (logged) when it cannot be read: never fail the caller's
    finished work over an alert."""
    try:
        return await db_retry.unit(
            sessionmaker,
            lambda session: session.get(model, row_id),
            what="reading a webhook event's subject",
            write=False,
        )
    except Exception as exc:
        logger.error(
            "row not read for its webhook event",
            extra={"subject_id": row_id, "error_type": type(exc).__name__},
        )
        return None


async def publish_about(
    *,
    sessionmaker: async_sessionmaker[AsyncSession],
    queue: JobQueue,
    model: type[R],
    row_id: str,
    event: WebhookEvent,
    summary_of: Callable[[R], Mapping[str, Any] | None],
) -> list[str]:
    """Publish `event` about the committed subject row with `summary_of(row)`; nothing when
    the row cannot be read or `summary_of` answers None (the event is not true of it)."""
    row = await _read(sessionmaker, model, row_id)
    summary = None if row is None else summary_of(row)
    if row is None or summary is None:
        return []
    return await publish(
        sessionmaker=sessionmaker,
        queue=queue,
        workspace_id=row.workspace_id,
        experiment_id=row.experiment_id,
        event=event,
        subject_id=row.id,
        summary=summary,
    )
