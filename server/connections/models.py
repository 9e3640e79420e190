"""Model connections: where model calls go, what they cost, and how many may run at once.

Money is integer micro-dollars (1 cent = 10,000); prices are per million tokens.
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any

from sqlalchemy import BigInteger, Enum, ForeignKey, Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from server.db import Base, PortableJSON, UTCDateTime, utcnow


class ConnectionKind(StrEnum):
    OPENAI_COMPATIBLE = "OPENAI_COMPATIBLE"
    ANTHROPIC = "ANTHROPIC"
    SIMULATED = "SIMULATED"


class ConnectionStatus(StrEnum):
    READY = "READY"
    UNREACHABLE = "UNREACHABLE"
    UNVERIFIED = "UNVERIFIED"


class ModelConnection(Base):
    __tablename__ = "model_connection"
    __table_args__ = (Index("ix_model_connection_workspace_id_id", "workspace_id", "id"),)

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    workspace_id: Mapped[str] = mapped_column(ForeignKey("workspace.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(200))
    kind: Mapped[ConnectionKind] = mapped_column(
        Enum(ConnectionKind, name="connection_kind", native_enum=False, length=24)
    )
    base_url: Mapped[str | None] = mapped_column(String(2000))
    api_key_encrypted: Mapped[str | None] = mapped_column(
        Text, comment="Fernet token of the provider key; never returned"
    )
    headers_encrypted: Mapped[str | None] = mapped_column(
        Text, comment="Fernet token of the extra request headers (a JSON object); never returned"
    )
    header_names: Mapped[list[str] | None] = mapped_column(
        PortableJSON, comment="The extra headers' names, in the order given (values write-only)"
    )
    input_micros_per_million_tokens: Mapped[int] = mapped_column(BigInteger, default=0)
    output_micros_per_million_tokens: Mapped[int] = mapped_column(BigInteger, default=0)
    monthly_cap_micros: Mapped[int | None] = mapped_column(BigInteger)
    max_concurrency: Mapped[int] = mapped_column(Integer, default=8)
    status: Mapped[ConnectionStatus] = mapped_column(
        Enum(ConnectionStatus, name="connection_status", native_enum=False, length=16),
        default=ConnectionStatus.UNVERIFIED,
    )
    checked_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    check_reason: Mapped[str | None] = mapped_column(
        String(32), comment="why the last check gave its status (connections/checks.py)"
    )
    check_http_status: Mapped[int | None] = mapped_column(
        Integer, comment="the HTTP status the last check got, if any"
    )
    simulation: Mapped[dict[str, Any] | None] = mapped_column(
        PortableJSON, comment="SIMULATED: {seed, accuracy, latencyMs, errorRate, script}"
    )
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    created_by_member_id: Mapped[str | None] = mapped_column(String(40))
