"""GraphQL types of webhooks; the secret is write-only and never a field."""

from __future__ import annotations

from datetime import datetime
from typing import TypeAlias, cast

import strawberry
from strawberry.scalars import JSON

from server.api.context import Context
from server.api.listing import workspace_connection
from server.api.relay import Connection
from server.webhooks import service
from server.webhooks.models import DeliveryStatus as DeliveryStatusEnum
from server.webhooks.models import Webhook as WebhookRow
from server.webhooks.models import WebhookAttempt as WebhookAttemptRow
from server.webhooks.models import WebhookDelivery as WebhookDeliveryRow
from server.webhooks.models import WebhookEvent as WebhookEventEnum

strawberry.enum(WebhookEventEnum, name="WebhookEvent")
WebhookEvent: TypeAlias = WebhookEventEnum
strawberry.enum(DeliveryStatusEnum, name="WebhookDeliveryStatus")
WebhookDeliveryStatus: TypeAlias = DeliveryStatusEnum


@strawberry.type(description="One POST of a delivery; `errorCode` is null when it succeeded.")
class WebhookAttempt:
    number: int = strawberry.field(description="1-based, counted across redeliveries.")
    started_at: datetime
    finished_at: datetime | None
    http_status: int | None
    error_code: str | None = strawberry.field(
        description="HTTP_STATUS, REDIRECT_REFUSED, TIMEOUT, CONNECTION_FAILED, "
        "PRIVATE_ADDRESS, UNRESOLVABLE, INVALID_URL, SECRET_UNREADABLE or INTERRUPTED."
    )
    duration_ms: int | None

    @classmethod
    def from_row(cls, row: WebhookAttemptRow) -> WebhookAttempt:
        return cls(
            number=row.number,
            started_at=row.started_at,
            finished_at=row.finished_at,
            http_status=row.http_status,
            error_code=row.error_code,
            duration_ms=row.duration_ms,
        )


@strawberry.type(description="An event sent to one webhook, with every attempt.")
class WebhookDelivery:
    id: strawberry.ID
    event_id: str = strawberry.field(description="The payload's `id`, for de-duplication.")
    event: WebhookEvent
    subject_id: str = strawberry.field(description="The comparison or run.")
    status: WebhookDeliveryStatus
    attempt_count: int
    next_attempt_at: datetime | None
    created_at: datetime
    delivered_at: datetime | None
    payload: JSON = strawberry.field(description="The JSON body sent (and signed).")
    attempts: list[WebhookAttempt]

    @classmethod
    def from_row(
        cls, row: WebhookDeliveryRow, attempts: list[WebhookAttemptRow]
    ) -> WebhookDelivery:
        return cls(
            id=strawberry.ID(row.id),
            event_id=row.event_id,
            event=row.event,
            subject_id=row.subject_id,
            status=row.status,
            attempt_count=row.attempt_count,
            next_attempt_at=row.next_attempt_at,
            created_at=row.created_at,
            delivered_at=row.delivered_at,
            payload=cast(JSON, row.payload),
            attempts=[WebhookAttempt.from_row(a) for a in attempts],
        )


@strawberry.type
class Webhook:
    id: strawberry.ID
    url: str
    events: list[WebhookEvent]
    experiment_id: strawberry.ID | None = strawberry.field(
        description="Only this experiment's events; null for the whole workspace."
    )
    enabled: bool
    created_at: datetime

    @strawberry.field(description="Deliveries, newest first, each with its attempts.")
    async def deliveries(
        self,
        info: strawberry.Info[Context],
        first: int | None = None,
        after: str | None = None,
        status: WebhookDeliveryStatus | None = None,
    ) -> Connection[WebhookDelivery]:
        return await workspace_connection(
            info.context,
            first=first,
            after=after,
            fetch=service.get_delivery_page,
            convert=lambda pair: WebhookDelivery.from_row(*pair),
            webhook_id=str(self.id),
            status=DeliveryStatusEnum(status) if status is not None else None,
        )

    @classmethod
    def from_row(cls, row: WebhookRow) -> Webhook:
        return cls(
            id=strawberry.ID(row.id),
            url=row.url,
            events=[WebhookEventEnum(e) for e in row.events],
            experiment_id=strawberry.ID(row.experiment_id) if row.experiment_id else None,
            enabled=row.enabled,
            created_at=row.created_at,
        )
