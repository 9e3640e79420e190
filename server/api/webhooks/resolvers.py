"""Thin resolvers for webhooks: read the context, call one service function, convert."""

from __future__ import annotations

import logging

import strawberry

from server.api.context import Context
from server.api.listing import workspace_connection
from server.api.relay import Connection
from server.api.webhooks.types import Webhook, WebhookDelivery, WebhookEvent
from server.webhooks import service
from server.webhooks.models import WebhookEvent as WebhookEventEnum
from server.workspaces.roles import Role

logger = logging.getLogger("shipwise.webhooks")


@strawberry.type
class WebhookQuery:
    @strawberry.field(description="The workspace's webhooks with their deliveries.")
    async def webhooks(
        self, info: strawberry.Info[Context], first: int | None = None, after: str | None = None
    ) -> Connection[Webhook]:
        return await workspace_connection(
            info.context, first=first, after=after, fetch=service.get_page, convert=Webhook.from_row
        )


@strawberry.type
class WebhookMutation:
    @strawberry.mutation(
        description="A webhook for the workspace, or one experiment; the secret is write-only."
    )
    async def create_webhook(
        self,
        info: strawberry.Info[Context],
        url: str,
        secret: str,
        events: list[WebhookEvent],
        experiment_id: strawberry.ID | None = None,
    ) -> Webhook:
        actor = info.context.require(Role.ADMIN)
        allow_private = info.context.settings.webhook_allow_private
        # Resolved before the transaction opens: a slow name server must not hold a lock.
        checked = await service.check_url(url, allow_private=allow_private)
        async with info.context.write() as session:
            row = await service.create(
                session=session,
                actor=actor,
                secret_box=info.context.app.secret_box,
                url=checked,
                secret=secret,
                events=[WebhookEventEnum(e) for e in events],
                experiment_id=str(experiment_id) if experiment_id is not None else None,
                allow_private=allow_private,
            )
        return Webhook.from_row(row)

    @strawberry.mutation(
        description="Send a DELIVERED or FAILED delivery again (same event id and body), "
        "with a fresh round of up to 6 attempts."
    )
    async def redeliver_webhook(
        self, info: strawberry.Info[Context], delivery_id: strawberry.ID
    ) -> WebhookDelivery:
        actor = info.context.require(Role.ADMIN)
        async with info.context.write() as session:
            row = await service.redeliver(session=session, actor=actor, delivery_id=delivery_id)
        try:
            await service.enqueue_next(info.context.app.queue, row)
        except Exception as exc:  # the sweep finds an overdue PENDING delivery
            logger.warning(
                "webhook attempt not queued; the sweep will",
                extra={"delivery_id": row.id, "error_type": type(exc).__name__},
            )
        async with info.context.read() as session:
            attempts = await service.get_attempts(session=session, delivery_ids=[row.id])
        return WebhookDelivery.from_row(row, attempts[row.id])
