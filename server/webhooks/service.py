"""Webhooks: create (URL checked, secret encrypted), read with their deliveries, redeliver.

Managing webhooks needs ADMIN; reading them is open to every member (VIEWER). The secret
never leaves the row except to sign a request: not in a response, an audit event or a log.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from server.audit import service as audit
from server.db import utcnow
from server.errors import Conflict, ValidationFailed
from server.experiments import service as experiment_service
from server.ids import new_id
from server.pagination import Page, keyset_page
from server.runtime.interfaces import JobQueue
from server.security import SecretBox
from server.webhooks import addresses
from server.webhooks.models import (
    DeliveryStatus,
    Webhook,
    WebhookAttempt,
    WebhookDelivery,
    WebhookEvent,
)
from server.workspaces.roles import Actor, Role
from server.workspaces.scoped import get_in_workspace, page_in_workspace

MIN_SECRET_LENGTH = 16
MAX_SECRET_LENGTH = 1024
SEND_JOB = "send_webhook"


def send_job_id(delivery_id: str, attempt: int) -> str:
    """One job id per attempt: a duplicate enqueue of the same attempt is a no-op."""
    return f"webhook:{delivery_id}:{attempt}"


def _clean_secret(secret: str) -> str:
    if not MIN_SECRET_LENGTH <= len(secret) <= MAX_SECRET_LENGTH:
        raise ValidationFailed(
            f"`secret` must be {MIN_SECRET_LENGTH} to {MAX_SECRET_LENGTH} characters",
            field="secret",
        )
    return secret


def _clean_events(events: Sequence[WebhookEvent]) -> list[str]:
    if not events:
        raise ValidationFailed("`events` must name at least one event", field="events")
    return sorted({WebhookEvent(e).value for e in events})


async def check_url(url: str, *, allow_private: bool) -> str:
    """The URL as stored, or VALIDATION_FAILED naming why it cannot be used."""
    try:
        target = await addresses.check(url, allow_private=allow_private)
    except addresses.Refused as exc:
        raise ValidationFailed(exc.message, field="url", reason=exc.reason.value) from None
    return str(target.url)


async def create(
    *,
    session: AsyncSession,
    actor: Actor,
    secret_box: SecretBox,
    url: str,
    secret: str,
    events: Sequence[WebhookEvent],
    experiment_id: str | None = None,
    allow_private: bool = False,
) -> Webhook:
    """A webhook for the workspace (or one experiment); audited as `webhook.create`.

    Call `check_url` first and pass its result: resolving a name must not happen while a
    transaction (on SQLite: the one write lock) is open.
    """
    actor.require(Role.ADMIN)
    cleaned_events = _clean_events(events)
    cleaned_secret = _clean_secret(secret)
    addresses.parse(url)  # the caller checked it; a stored URL always parses
    if experiment_id is not None:
        await experiment_service.get(
            session=session, workspace_id=actor.workspace_id, experiment_id=experiment_id
        )
    row = Webhook(
        id=new_id("whk"),
        workspace_id=actor.workspace_id,
        experiment_id=experiment_id,
        url=url,
        secret_encrypted=secret_box.encrypt(cleaned_secret),
        events=cleaned_events,
        enabled=True,
        created_by_member_id=actor.member_id,
    )
    session.add(row)
    await session.flush()
    await audit.record(
        session=session,
        actor=actor,
        action="webhook.create",
        target_type="webhook",
        target_id=row.id,
        details={
            "url": row.url,
            "events": row.events,
            "experimentId": row.experiment_id,
            "allowPrivate": allow_private,
        },
    )
    return row


async def get(*, session: AsyncSession, workspace_id: str, webhook_id: str) -> Webhook:
    return await get_in_workspace(session, Webhook, webhook_id, workspace_id, "webhook")


async def get_page(
    *, session: AsyncSession, workspace_id: str, first: int, after: str | None
) -> Page[Webhook]:
    return await page_in_workspace(session, Webhook, workspace_id, first=first, after=after)


async def get_delivery_page(
    *,
    session: AsyncSession,
    workspace_id: str,
    webhook_id: str,
    first: int,
    after: str | None,
    status: DeliveryStatus | None = None,
) -> Page[tuple[WebhookDelivery, list[WebhookAttempt]]]:
    """A webhook's deliveries, newest first, each with its attempts in order."""
    stmt = select(WebhookDelivery).where(
        WebhookDelivery.workspace_id == workspace_id, WebhookDelivery.webhook_id == webhook_id
    )
    if status is not None:
        stmt = stmt.where(WebhookDelivery.status == status)
    page = await keyset_page(
        session, stmt, key=WebhookDelivery.id, first=first, after=after, descending=True
    )
    attempts = await get_attempts(session=session, delivery_ids=[d.id for d in page.items])
    return Page(
        items=[(d, attempts[d.id]) for d in page.items],
        cursors=page.cursors,
        has_next=page.has_next,
        has_previous=page.has_previous,
        total=page.total,
    )


async def get_attempts(
    *, session: AsyncSession, delivery_ids: Sequence[str]
) -> dict[str, list[WebhookAttempt]]:
    """Every attempt of each delivery, in order."""
    rows = await session.scalars(
        select(WebhookAttempt)
        .where(WebhookAttempt.delivery_id.in_(delivery_ids))
        .order_by(WebhookAttempt.delivery_id, WebhookAttempt.number)
    )
    found: dict[str, list[WebhookAttempt]] = {d: [] for d in delivery_ids}
    for row in rows:
        found[row.delivery_id].append(row)
    return found


async def redeliver(*, session: AsyncSession, actor: Actor, delivery_id: str) -> WebhookDelivery:
    """Send a finished (DELIVERED or FAILED) delivery again with a fresh round of attempts.

    The same event id and body go out again; CONFLICT while a round is still under way.
    The first attempt is queued after the caller's transaction commits: see `enqueue_next`.
    """
    actor.require(Role.ADMIN)
    row = await get_in_workspace(
        session,
        WebhookDelivery,
        delivery_id,
        actor.workspace_id,
        "webhook delivery",
        for_update=True,
    )
    if row.status == DeliveryStatus.PENDING:
        raise Conflict(
            "this delivery is still being attempted; redeliver it once it is DELIVERED or FAILED",
            reason="DELIVERY_PENDING",
        )
    previous = row.status
    row.status = DeliveryStatus.PENDING
    row.round_start = row.attempt_count
    row.next_attempt_at = utcnow()
    await audit.record(
        session=session,
        actor=actor,
        action="webhook.redeliver",
        target_type="webhook_delivery",
        target_id=row.id,
        details={"webhookId": row.webhook_id, "eventId": row.event_id, "from": previous.value},
    )
    return row


async def enqueue_next(
    queue: JobQueue, delivery: WebhookDelivery, *, delay: timedelta | None = None
) -> bool:
    """Queue the delivery's next attempt (after the transaction that scheduled it commits)."""
    attempt = delivery.attempt_count + 1
    return await queue.enqueue(
        SEND_JOB, delivery.id, attempt, job_id=send_job_id(delivery.id, attempt), delay=delay
    )
