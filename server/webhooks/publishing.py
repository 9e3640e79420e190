"""`publish`: the one call other code makes, after its own transaction commits, when an event
happens. It records one delivery per matching webhook and queues each first attempt.

The event id is derived from (workspace, event, subject), so publishing the same event
twice (a job delivered again) records nothing new and receivers see one id per event.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Mapping
from typing import Any

from sqlalchemy import ColumnElement, or_, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server import db_retry
from server.db import utcnow
from server.ids import new_id
from server.runtime.interfaces import JobQueue
from server.webhooks.models import DeliveryStatus, Webhook, WebhookDelivery, WebhookEvent
from server.webhooks.service import enqueue_next

logger = logging.getLogger("shipwise.webhooks")

_SUBJECT_FIELD = {
    WebhookEvent.COMPARISON_FINISHED: "comparisonId",
    WebhookEvent.COMPARISON_REGRESSED: "comparisonId",
    WebhookEvent.RUN_REGRESSED: "runId",
    WebhookEvent.LIVE_COMPARISON_DECIDED: "liveComparisonId",
    WebhookEvent.LIVE_COMPARISON_GUARDRAIL_VIOLATED: "liveComparisonId",
}


def event_id(workspace_id: str, event: WebhookEvent, subject_id: str) -> str:
    """`evt_` + 26 hex characters, the same for the same event of the same subject."""
    digest = hashlib.sha256(f"{workspace_id}:{event.value}:{subject_id}".encode()).hexdigest()
    return f"evt_{digest[:26]}"


def payload(
    *,
    workspace_id: str,
    experiment_id: str | None,
    event: WebhookEvent,
    subject_id: str,
    summary: Mapping[str, Any],
) -> dict[str, Any]:
    """`{id, event, occurredAt, workspaceId, experimentId, comparisonId | runId, summary}`."""
    return {
        "id": event_id(workspace_id, event, subject_id),
        "event": event.value,
        "occurredAt": utcnow().isoformat().replace("+00:00", "Z"),
        "workspaceId": workspace_id,
        "experimentId": experiment_id,
        _SUBJECT_FIELD[event]: subject_id,
        "summary": dict(summary),
    }


async def record(
    session: AsyncSession,
    *,
    workspace_id: str,
    experiment_id: str | None,
    event: WebhookEvent,
    subject_id: str,
    summary: Mapping[str, Any],
) -> list[WebhookDelivery]:
    """New PENDING deliveries for every enabled webhook subscribed to the event (workspace-
    wide ones and the experiment's own), in the caller's transaction; already recorded
    ones are skipped."""
    conditions: list[ColumnElement[bool]] = [Webhook.experiment_id.is_(None)]
    if experiment_id is not None:
        conditions.append(Webhook.experiment_id == experiment_id)
    webhooks = await session.scalars(
        select(Webhook).where(
            Webhook.workspace_id == workspace_id, Webhook.enabled.is_(True), or_(*conditions)
        )
    )
    body = payload(
        workspace_id=workspace_id,
        experiment_id=experiment_id,
        event=event,
        subject_id=subject_id,
        summary=summary,
    )
    created: list[WebhookDelivery] = []
    for webhook in webhooks:
        if event.value not in webhook.events:
            continue
        delivery = WebhookDelivery(
            id=new_id("whd"),
            workspace_id=workspace_id,
            webhook_id=webhook.id,
            event_id=body["id"],
            event=event,
            subject_id=subject_id,
            payload=body,
            status=DeliveryStatus.PENDING,
            attempt_count=0,
            round_start=0,
            next_attempt_at=utcnow(),
        )
        try:
            async with session.begin_nested():
                session.add(delivery)
        except IntegrityError:
            continue  # this event already has a delivery for this webhook
        created.append(delivery)
    return created


async def publish(
    *,
    sessionmaker: async_sessionmaker[AsyncSession],
    queue: JobQueue,
    workspace_id: str,
    experiment_id: str | None,
    event: WebhookEvent,
    subject_id: str,
    summary: Mapping[str, Any],
) -> list[str]:
    """Record and queue the event's deliveries; the ids of the new ones.

    Call it after the transaction that made the event true has committed. It never
    raises: an event that cannot be recorded is logged, and the caller's work stands.
    A delivery whose first attempt cannot be queued is picked up by `sweep_webhooks`.
    """
    try:
        deliveries = await db_retry.unit(  # a lost connection does not lose the event
            sessionmaker,
            lambda session: record(
                session,
                workspace_id=workspace_id,
                experiment_id=experiment_id,
                event=event,
                subject_id=subject_id,
                summary=summary,
            ),
            what="recording a webhook event",
        )
    except Exception as exc:
        logger.error(
            "webhook event not recorded",
            extra={
                "event": event.value,
                "subject_id": subject_id,
                "error_type": type(exc).__name__,
            },
        )
        return []
    for delivery in deliveries:
        try:
            await enqueue_next(queue, delivery)
        except Exception as exc:
            logger.warning(
                "webhook attempt not queued; the sweep will",
                extra={"delivery_id": delivery.id, "error_type": type(exc).__name__},
            )
    return [d.id for d in deliveries]
