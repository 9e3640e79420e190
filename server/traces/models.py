"""Ingested traces: their spans as received and normalized, one summary row a trace, feedback
on traces, and the workspace's model prices (docs/traces.md)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, BigInteger, Boolean, Float, ForeignKey, Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from server.db import AutoIncrementBigInt, Base, PortableJSON, UTCDateTime, utcnow


class TraceSpan(Base):
    """One span, stored once by (trace id, span id) within its workspace."""

    __tablename__ = "trace_span"
    # no index but the primary key, which finds a trace's spans (migrations/versions/0027)

    workspace_id: Mapped[str] = mapped_column(
        ForeignKey("workspace.id", ondelete="CASCADE"), primary_key=True
    )
    trace_id: Mapped[str] = mapped_column(String(32), primary_key=True, comment="hex")
    span_id: Mapped[str] = mapped_column(String(16), primary_key=True, comment="hex")
    parent_span_id: Mapped[str | None] = mapped_column(String(16))
    started_at: Mapped[datetime] = mapped_column(UTCDateTime)
    service: Mapped[str | None] = mapped_column(String(200))
    # `json`, not `jsonb`, on PostgreSQL: read whole, stored without JSONB's parse
    # (migrations/versions/0028)
    step: Mapped[dict[str, Any]] = mapped_column(
        JSON, comment="the span as a step (server/traces/steps.py), camelCase keys"
    )
    attributes: Mapped[dict[str, Any]] = mapped_column(
        JSON, comment="resource, span and event attributes (secrets redacted, long cut)"
    )
    received_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class Trace(Base):
    """A trace's summary, recomputed from its spans whenever spans of it arrive."""

    __tablename__ = "trace"
    __table_args__ = (
        Index(
            "ix_trace_workspace_id_started_at_id",
            "workspace_id",
            "started_at",
            "id",
            # the list's count filters on these: an index-only scan (migrations/versions/0025)
            postgresql_include=["step_count", "status", "model_key"],
        ),
        # the list filtered by status, in its order; its count index-only (migrations/versions/0029)
        Index(
            "ix_trace_workspace_id_status_started_at_id",
            "workspace_id",
            "status",
            "started_at",
            "id",
            postgresql_include=["step_count", "model_key"],
        ),
        # live comparisons' grading cursor (server/live/cursor.py)
        Index(
            "ix_trace_workspace_id_service_updated_at_id",
            "workspace_id",
            "service",
            "updated_at",
            "id",
        ),
    )

    workspace_id: Mapped[str] = mapped_column(
        ForeignKey("workspace.id", ondelete="CASCADE"), primary_key=True
    )
    id: Mapped[str] = mapped_column(String(32), primary_key=True, comment="hex trace id")
    service: Mapped[str | None] = mapped_column(String(200))
    release: Mapped[str | None] = mapped_column(String(200))
    started_at: Mapped[datetime] = mapped_column(UTCDateTime)
    duration_ms: Mapped[float] = mapped_column(Float, default=0.0)
    status: Mapped[str] = mapped_column(String(8), default="OK")
    root_name: Mapped[str | None] = mapped_column(String(500))
    input: Mapped[str | None] = mapped_column(Text, comment="the first user message")
    output: Mapped[str | None] = mapped_column(Text, comment="the last assistant text")
    models: Mapped[list[str]] = mapped_column(PortableJSON, default=list)
    model_key: Mapped[str | None] = mapped_column(
        String(500), comment="the models joined by '|', for filtering and grouping"
    )
    step_count: Mapped[int] = mapped_column(Integer, default=0)
    llm_calls: Mapped[int] = mapped_column(Integer, default=0)
    tool_calls: Mapped[int] = mapped_column(Integer, default=0)
    input_tokens: Mapped[int] = mapped_column(BigInteger, default=0)
    output_tokens: Mapped[int] = mapped_column(BigInteger, default=0)
    cost_micros: Mapped[int] = mapped_column(BigInteger, default=0)
    case_id: Mapped[str | None] = mapped_column(String(200))
    expected: Mapped[str | None] = mapped_column(Text)
    span_feedback: Mapped[list[dict[str, Any]]] = mapped_column(
        PortableJSON, default=list, comment="shipwise.feedback.<name> span attributes"
    )
    has_feedback: Mapped[bool] = mapped_column(Boolean, default=False)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class TraceFeedback(Base):
    """A score given to a trace through `scoreTrace`."""

    __tablename__ = "trace_feedback"
    __table_args__ = (Index("ix_trace_feedback_workspace_id_trace_id", "workspace_id", "trace_id"),)

    id: Mapped[int] = mapped_column(AutoIncrementBigInt, primary_key=True, autoincrement=True)
    workspace_id: Mapped[str] = mapped_column(ForeignKey("workspace.id", ondelete="CASCADE"))
    trace_id: Mapped[str] = mapped_column(String(32))
    name: Mapped[str] = mapped_column(String(200))
    value: Mapped[float] = mapped_column(Float)
    comment: Mapped[str | None] = mapped_column(Text)
    member_id: Mapped[str | None] = mapped_column(String(40))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class ModelPrice(Base):
    """A model's price for traces' cost, micro-dollars per million tokens."""

    __tablename__ = "model_price"

    workspace_id: Mapped[str] = mapped_column(
        ForeignKey("workspace.id", ondelete="CASCADE"), primary_key=True
    )
    model: Mapped[str] = mapped_column(String(200), primary_key=True)
    input_micros_per_million_tokens: Mapped[int] = mapped_column(BigInteger, default=0)
    output_micros_per_million_tokens: Mapped[int] = mapped_column(BigInteger, default=0)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
