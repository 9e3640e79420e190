"""One attempt of a delivery: claim it, check the address, POST the signed body, record it.

An attempt is claimed in one short transaction (the delivery's `attempt_count` moves from
n−1 to n under its row lock, so a duplicate job of the same attempt does nothing), sent
with no transaction open, and recorded in another. A failed attempt schedules the next one
`base · 2ⁿ` later (n = 0 after the round's first); after the round's sixth the delivery is
FAILED and the webhook stays enabled. Redirects are not followed: a 3xx is a failure.
"""

from __future__ import annotations

import logging
import math
import time
from dataclasses import dataclass
from datetime import timedelta

import httpx
from cryptography.fernet import InvalidToken
from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server import db_retry
from server.db import utcnow
from server.retrying import doubling_delay
from server.runtime.interfaces import JobQueue
from server.security import SecretBox
from server.tls import client_tls
from server.webhooks import addresses, signing
from server.webhooks.models import DeliveryStatus, Webhook, WebhookAttempt, WebhookDelivery
from server.webhooks.service import enqueue_next

logger = logging.getLogger("shipwise.webhooks")

MAX_ATTEMPTS = 6
"""Attempts in one round (the first delivery, or a redelivery)."""
USER_AGENT = "shipwise-webhooks/1"


class AttemptError:
    """Bounded codes recorded on a failed attempt (never response or exception text)."""

    HTTP_STATUS = "HTTP_STATUS"
    REDIRECT_REFUSED = "REDIRECT_REFUSED"
    TIMEOUT = "TIMEOUT"
    CONNECTION_FAILED = "CONNECTION_FAILED"
    SECRET_UNREADABLE = "SECRET_UNREADABLE"
    INTERRUPTED = "INTERRUPTED"


@dataclass(frozen=True, slots=True)
class SendOptions:
    allow_private: bool
    timeout_seconds: float
    retry_base_seconds: float


@dataclass(frozen=True, slots=True)
class Claimed:
    url: str
    secret: str | None
    body: bytes


@dataclass(frozen=True, slots=True)
class Result:
    http_status: int | None
    error_code: str | None
    duration_ms: int

    @property
    def ok(self) -> bool:
        return self.error_code is None


def retry_delay(failed_in_round: int, base_seconds: float) -> timedelta:
    """The wait after the round's `failed_in_round`-th failure: base · 2^(k−1), the service's
    one retry policy (`server.retrying`). The attempts themselves are jobs, not a loop in one
    process: each is scheduled durably (`enqueue_next`), so a restart loses none."""
    return timedelta(seconds=doubling_delay(failed_in_round, base_seconds, math.inf))


async def _claim(
    session: AsyncSession, *, delivery_id: str, attempt: int, secret_box: SecretBox, stale: float
) -> Claimed | None:
    """Move the delivery to `attempt` and open its attempt row; None if it is not due."""
    claimed = await session.execute(
        update(WebhookDelivery)
        .where(
            WebhookDelivery.id == delivery_id,
            WebhookDelivery.status == DeliveryStatus.PENDING,
            WebhookDelivery.attempt_count == attempt - 1,
        )
        .values(attempt_count=attempt, next_attempt_at=utcnow() + timedelta(seconds=stale))
    )
    if getattr(claimed, "rowcount", 0) != 1:
        return None
    delivery = (
        await session.execute(select(WebhookDelivery).where(WebhookDelivery.id == delivery_id))
    ).scalar_one()
    webhook = (
        await session.execute(select(Webhook).where(Webhook.id == delivery.webhook_id))
    ).scalar_one()
    # An earlier attempt that never recorded its end (its worker died) is closed as such.
    await session.execute(
        update(WebhookAttempt)
        .where(WebhookAttempt.delivery_id == delivery_id, WebhookAttempt.finished_at.is_(None))
        .values(finished_at=utcnow(), error_code=AttemptError.INTERRUPTED)
    )
    if attempt - delivery.round_start > MAX_ATTEMPTS:
        # The round's last attempt was the interrupted one: the round is over.
        delivery.attempt_count = attempt - 1
        delivery.status = DeliveryStatus.FAILED
        delivery.next_attempt_at = None
        return None
    session.add(WebhookAttempt(delivery_id=delivery_id, number=attempt, started_at=utcnow()))
    try:
        secret: str | None = secret_box.decrypt(webhook.secret_encrypted)
    except InvalidToken:
        secret = None
    return Claimed(url=webhook.url, secret=secret, body=signing.body_of(delivery.payload))


async def _send(claimed: Claimed, options: SendOptions) -> Result:
    started = time.monotonic()

    def result(http_status: int | None, error_code: str | None) -> Result:
        return Result(http_status, error_code, int((time.monotonic() - started) * 1000))

    if claimed.secret is None:
        return result(None, AttemptError.SECRET_UNREADABLE)
    try:
        target = await addresses.check(claimed.url, allow_private=options.allow_private)
    except addresses.Refused as exc:
        return result(None, exc.reason.value)
    timestamp = int(time.time())
    headers = {
        "Host": target.host_header,
        "Content-Type": "application/json",
        "User-Agent": USER_AGENT,
        signing.HEADER: signing.header(claimed.secret, timestamp, claimed.body),
    }
    extensions = {"sni_hostname": target.url.host} if target.url.scheme == "https" else {}
    try:
        async with httpx.AsyncClient(
            timeout=options.timeout_seconds,
            follow_redirects=False,
            trust_env=False,
            verify=client_tls(trust_env=False),
        ) as client:
            # Streamed and never read: only the status matters, whatever the body's size.
            async with client.stream(
                "POST",
                target.connect_url,
                content=claimed.body,
                headers=headers,
                extensions=extensions,
            ) as response:
                status = response.status_code
    except httpx.TimeoutException:
        return result(None, AttemptError.TIMEOUT)
    except httpx.HTTPError:
        return result(None, AttemptError.CONNECTION_FAILED)
    if 200 <= status < 300:
        return result(status, None)
    if 300 <= status < 400:
        return result(status, AttemptError.REDIRECT_REFUSED)
    return result(status, AttemptError.HTTP_STATUS)


async def _record(
    session: AsyncSession, *, delivery_id: str, attempt: int, outcome: Result, base: float
) -> WebhookDelivery | None:
    """Close the attempt row and settle the delivery; the delivery when a retry is due."""
    # The delivery's row lock first, as a claim takes it: the same order, no deadlock.
    delivery = (
        await session.execute(
            select(WebhookDelivery).where(WebhookDelivery.id == delivery_id).with_for_update()
        )
    ).scalar_one()
    await session.execute(
        update(WebhookAttempt)
        .where(WebhookAttempt.delivery_id == delivery_id, WebhookAttempt.number == attempt)
        .values(
            finished_at=utcnow(),
            http_status=outcome.http_status,
            error_code=outcome.error_code,
            duration_ms=outcome.duration_ms,
        )
    )
    if delivery.attempt_count != attempt or delivery.status != DeliveryStatus.PENDING:
        return None  # a later attempt or a redelivery took over meanwhile
    if outcome.ok:
        delivery.status = DeliveryStatus.DELIVERED
        delivery.delivered_at = utcnow()
        delivery.next_attempt_at = None
        return None
    failed_in_round = attempt - delivery.round_start
    if failed_in_round >= MAX_ATTEMPTS:
        delivery.status = DeliveryStatus.FAILED
        delivery.next_attempt_at = None
        return None
    delivery.next_attempt_at = utcnow() + retry_delay(failed_in_round, base)
    return delivery


async def make_attempt(
    *,
    sessionmaker: async_sessionmaker[AsyncSession],
    queue: JobQueue,
    secret_box: SecretBox,
    options: SendOptions,
    delivery_id: str,
    attempt: int,
) -> str:
    """Make attempt number `attempt` of a delivery; what happened, for the job's result."""
    stale = options.timeout_seconds + 60
    claimed = await db_retry.unit(
        sessionmaker,
        lambda session: _claim(
            session, delivery_id=delivery_id, attempt=attempt, secret_box=secret_box, stale=stale
        ),
        what="a webhook claim",
    )
    if claimed is None:
        return "not due"
    outcome = await _send(claimed, options)
    retry = await db_retry.unit(
        sessionmaker,
        lambda session: _record(
            session,
            delivery_id=delivery_id,
            attempt=attempt,
            outcome=outcome,
            base=options.retry_base_seconds,
        ),
        what="a webhook attempt's record",
    )
    logger.info(
        "webhook attempt",
        extra={
            "delivery_id": delivery_id,
            "attempt": attempt,
            "http_status": outcome.http_status,
            "error_code": outcome.error_code,
        },
    )
    if retry is not None:
        delay = retry_delay(attempt - retry.round_start, options.retry_base_seconds)
        await enqueue_next(queue, retry, delay=delay)
        return f"retry in {delay.total_seconds():g}s"
    return "delivered" if outcome.ok else f"failed: {outcome.error_code}"


async def overdue(
    sessionmaker: async_sessionmaker[AsyncSession], *, grace: timedelta
) -> list[WebhookDelivery]:
    """PENDING deliveries whose next attempt is more than `grace` late (its job was lost)."""
    async with sessionmaker() as session:
        rows = await session.scalars(
            select(WebhookDelivery)
            .where(
                WebhookDelivery.status == DeliveryStatus.PENDING,
                WebhookDelivery.next_attempt_at < utcnow() - grace,
            )
            .limit(500)
        )
        return list(rows)
