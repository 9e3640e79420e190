"""Webhooks, their deliveries (one per event and webhook) and every attempt of a delivery.

The secret is write-only: a Fernet token in `secret_encrypted`, decrypted only to sign.
A delivery keeps the exact payload it sends, so a retry or a redelivery signs the same body
under the same event id (receivers de-duplicate on it).
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any

from sqlalchemy import Boolean, Enum, ForeignKey, Index, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from server.db import AutoIncrementBigInt, Base, PortableJSON, UTCDateTime, utcnow


class WebhookEvent(StrEnum):
    COMPARISON_FINISHED = "COMPARISON_FINISHED"
    COMPARISON_REGRESSED = "COMPARISON_REGRESSED"
    RUN_REGRESSED = "RUN_REGRESSED"
    LIVE_COMPARISON_DECIDED = "live_comparison.decided"
    LIVE_COMPARISON_GUARDRAIL_VIOLATED = "live_comparison.guardrail_violated"


class DeliveryStatus(StrEnum):
    PENDING = "PENDING"
    DELIVERED = "DELIVERED"
    FAILED = "FAILED"


class Webhook(Base):
    __tablename__ = "webhook"
    __table_args__ = (Index("ix_webhook_workspace_id_id", "workspace_id", "id"),)

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    workspace_id: Mapped[str] = mapped_column(ForeignKey("workspace.id", ondelete="CASCADE"))
    experiment_id: Mapped[str | None] = mapped_column(
        ForeignKey("experiment.id", ondelete="CASCADE"),
        comment="only this experiment's events; null: every experiment's",
    )
    url: Mapped[str] = mapped_column(String(2000))
    secret_encrypted: Mapped[str] = mapped_column(
        Text, comment="Fernet token of the signing secret; never returned"
    )
    events: Mapped[list[str]] = mapped_column(PortableJSON)
    enabled: Mapped[bool] = mapped_column(Boolean, default=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    created_by_member_id: Mapped[str | None] = mapped_column(String(40))


class WebhookDelivery(Base):
    __tablename__ = "webhook_delivery"
    __table_args__ = (
        UniqueConstraint("webhook_id", "event_id", name="uq_webhook_delivery_webhook_id_event_id"),
        Index("ix_webhook_delivery_webhook_id_id", "webhook_id", "id"),
        Index("ix_webhook_delivery_status_next_attempt_at", "status", "next_attempt_at"),
    )

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    workspace_id: Mapped[str] = mapped_column(ForeignKey("workspace.id", ondelete="CASCADE"))
    webhook_id: Mapped[str] = mapped_column(ForeignKey("webhook.id", ondelete="CASCADE"))
    event_id: Mapped[str] = mapped_column(String(40))
    event: Mapped[WebhookEvent] = mapped_column(
        Enum(WebhookEvent, name="webhook_event", native_enum=False, length=64)
    )
    subject_id: Mapped[str] = mapped_column(String(40), comment="the comparison or run")
    payload: Mapped[dict[str, Any]] = mapped_column(PortableJSON)
    status: Mapped[DeliveryStatus] = mapped_column(
        Enum(DeliveryStatus, name="webhook_delivery_status", native_enum=False, length=16),
        default=DeliveryStatus.PENDING,
    )
    attempt_count: Mapped[int] = mapped_column(Integer, default=0)
    round_start: Mapped[int] = mapped_column(
        Integer, default=0, comment="attempts made before the current round (a redelivery)"
    )
    next_attempt_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    delivered_at: Mapped[datetime | None] = mapped_column(UTCDateTime)


class WebhookAttempt(Base):
    __tablename__ = "webhook_attempt"
    __table_args__ = (
        UniqueConstraint("delivery_id", "number", name="uq_webhook_attempt_delivery_id_number"),
    )

    id: Mapped[int] = mapped_column(AutoIncrementBigInt, primary_key=True, autoincrement=True)
    delivery_id: Mapped[str] = mapped_column(
        ForeignKey("webhook_delivery.id", ondelete="CASCADE")
    )
    number: Mapped[int] = mapped_column(Integer, comment="1-based, across redeliveries")
    started_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    http_status: Mapped[int | None] = mapped_column(Integer)
    error_code: Mapped[str | None] = mapped_column(String(32))
    duration_ms: Mapped[int | None] = mapped_column(Integer)
