"""Live comparisons (docs/live.md): a canary's traces graded as they arrive, decided by the
ship policy over anytime-valid sequences; one grade row per (live comparison, trace)."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any

from sqlalchemy import BigInteger, Boolean, Float, ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from server.db import Base, PortableJSON, UTCDateTime, utcnow


class LiveStatus(StrEnum):
    RUNNING = "RUNNING"
    DECIDED = "DECIDED"
    EXPIRED = "EXPIRED"
    CANCELLED = "CANCELLED"


TERMINAL = frozenset({LiveStatus.DECIDED, LiveStatus.EXPIRED, LiveStatus.CANCELLED})


class LiveComparison(Base):
    """What a live comparison watches, under which policy, and what it says now."""

    __tablename__ = "live_comparison"
    __table_args__ = (Index("ix_live_comparison_workspace_id_status", "workspace_id", "status"),)

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    workspace_id: Mapped[str] = mapped_column(ForeignKey("workspace.id", ondelete="CASCADE"))
    label: Mapped[str | None] = mapped_column(String(200))
    service: Mapped[str] = mapped_column(String(200))
    candidate_release: Mapped[str] = mapped_column(String(200))
    baseline_releases: Mapped[list[str]] = mapped_column(PortableJSON)
    checks: Mapped[list[dict[str, Any]]] = mapped_column(PortableJSON)
    judge_sample_rate: Mapped[float] = mapped_column(Float, default=0.1)
    judge_daily_cap_micros: Mapped[int | None] = mapped_column(BigInteger)
    ship_policy: Mapped[dict[str, Any]] = mapped_column(PortableJSON)
    max_days: Mapped[int] = mapped_column(Integer, default=14)
    status: Mapped[str] = mapped_column(String(16), default=LiveStatus.RUNNING.value)
    seq: Mapped[int] = mapped_column(Integer, default=0)
    graded: Mapped[int] = mapped_column(Integer, default=0, comment="grade rows so far")
    arms: Mapped[list[dict[str, Any]]] = mapped_column(PortableJSON, default=list)
    decision: Mapped[dict[str, Any] | None] = mapped_column(PortableJSON)
    sequence: Mapped[list[dict[str, Any]]] = mapped_column(
        PortableJSON, default=list, comment="the first baseline's quality sequence, ≤ 500 points"
    )
    guardrail_alerted: Mapped[bool] = mapped_column(Boolean, default=False)
    created_by_member_id: Mapped[str | None] = mapped_column(String(40))
    started_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    decided_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    ended_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    scanned_at: Mapped[datetime | None] = mapped_column(
        UTCDateTime, comment="grading's cursor: traces written up to here were looked at"
    )
    scanned_trace_id: Mapped[str | None] = mapped_column(String(32))
    settled_at: Mapped[datetime | None] = mapped_column(
        UTCDateTime, comment="traces written up to here were checked again for a late commit"
    )
    settled_trace_id: Mapped[str | None] = mapped_column(String(32))


class LiveGrade(Base):
    """One trace graded for one live comparison: stored once, so a trace is never counted
    twice, even when a worker died after grading it and another graded it again."""

    __tablename__ = "live_grade"
    __table_args__ = (
        Index("ix_live_grade_live_comparison_id_ordinal", "live_comparison_id", "ordinal"),
    )

    live_comparison_id: Mapped[str] = mapped_column(
        ForeignKey("live_comparison.id", ondelete="CASCADE"), primary_key=True
    )
    trace_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    ordinal: Mapped[int] = mapped_column(Integer, comment="arrival order within the comparison")
    release: Mapped[str] = mapped_column(String(200))
    passed: Mapped[float | None] = mapped_column(
        Float, comment="pass fraction of the checks; null when the trace failed or has no output"
    )
    failed_or_missing: Mapped[bool] = mapped_column(Boolean)
    cost_micros: Mapped[int] = mapped_column(BigInteger, default=0)
    output_tokens: Mapped[int] = mapped_column(BigInteger, default=0)
    duration_ms: Mapped[float] = mapped_column(Float, default=0.0)
    judged: Mapped[bool] = mapped_column(Boolean, default=False, comment="in the judge's sample")
    judge_cost_micros: Mapped[int] = mapped_column(BigInteger, default=0)
    trace_started_at: Mapped[datetime] = mapped_column(UTCDateTime)
    graded_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
