"""Jobs: one attempt of a webhook delivery, and the sweep that re-queues lost attempts."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from server.security import SecretBox
from server.settings import Settings
from server.webhooks import sender
from server.webhooks.service import enqueue_next

SWEEP_GRACE = timedelta(seconds=30)
"""A due attempt this late has lost its job (a restart of the embedded runner, say)."""


def send_options(settings: Settings) -> sender.SendOptions:
    return sender.SendOptions(
        allow_private=settings.webhook_allow_private,
        timeout_seconds=settings.webhook_timeout_seconds,
        retry_base_seconds=settings.webhook_retry_base_seconds,
    )


async def send_webhook(ctx: dict[str, Any], delivery_id: str, attempt: int) -> str:
    """arq job: attempt `attempt` of a delivery; queues the next one if it failed."""
    settings: Settings = ctx["settings"]
    return await sender.make_attempt(
        sessionmaker=ctx["sessionmaker"],
        queue=ctx["queue"],
        secret_box=SecretBox(settings.resolved_secret_key()),
        options=send_options(settings),
        delivery_id=delivery_id,
        attempt=attempt,
    )


async def sweep_webhooks(ctx: dict[str, Any]) -> int:
    """Periodic job: queue the next attempt of every overdue PENDING delivery."""
    enqueued = 0
    for delivery in await sender.overdue(ctx["sessionmaker"], grace=SWEEP_GRACE):
        enqueued += bool(await enqueue_next(ctx["queue"], delivery))
    return enqueued
