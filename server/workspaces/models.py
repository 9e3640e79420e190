"""Workspaces, their members and API tokens."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any

from sqlalchemy import Boolean, Enum, ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from server.db import Base, PortableJSON, UTCDateTime, utcnow
from server.workspaces.roles import Role, TokenScope

RoleColumn = Enum(Role, name="role", native_enum=False, length=16)

CALL_LIMIT_DEFAULT = 20_000
"""A new workspace's `maxCallsPerComparison` (docs/architecture.md, Limits)."""
CALL_LIMIT_MOST = 2_000_000
"""The most an ADMIN may raise `maxCallsPerComparison` to."""
TRACE_RETENTION_DEFAULT = 30
"""A new workspace's `traceRetentionDays`."""
TRACE_RETENTION_MOST = 3650


class AmbiguousOutcomes(StrEnum):
    """What a crash's admitted-but-unrecorded trials do to their run (docs/domain.md, Dispatch)."""

    COUNT_AS_MISSING = "COUNT_AS_MISSING"
    """Each closes as `outcome_ambiguous` (failed-or-missing, cost at its bound); it resumes."""
    FAIL_RUN = "FAIL_RUN"
    """The comparison ends FAILED with `comparison_dispatch_outcome_ambiguous`."""


class Workspace(Base):
    __tablename__ = "workspace"

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    allow_hosted_runs: Mapped[bool] = mapped_column(Boolean, default=True)
    allow_self_sign_off: Mapped[bool] = mapped_column(Boolean, default=False)
    max_running_comparisons: Mapped[int] = mapped_column(Integer, default=2)
    requests_per_minute_per_token: Mapped[int] = mapped_column(Integer, default=600)
    ambiguous_outcomes: Mapped[AmbiguousOutcomes] = mapped_column(
        Enum(AmbiguousOutcomes, name="ambiguous_outcomes", native_enum=False, length=24),
        default=AmbiguousOutcomes.COUNT_AS_MISSING,
        server_default=AmbiguousOutcomes.COUNT_AS_MISSING.value,
    )
    default_ship_policy: Mapped[dict[str, Any] | None] = mapped_column(
        PortableJSON,
        comment="the ship policy of comparisons created without one (null: the defaults)",
    )
    max_calls_per_comparison: Mapped[int] = mapped_column(
        Integer,
        default=CALL_LIMIT_DEFAULT,
        server_default=str(CALL_LIMIT_DEFAULT),
        comment="model calls one comparison may make (QUOTA_EXCEEDED at create)",
    )
    trace_retention_days: Mapped[int] = mapped_column(
        Integer,
        default=TRACE_RETENTION_DEFAULT,
        server_default=str(TRACE_RETENTION_DEFAULT),
        comment="ingested traces older than this are deleted (docs/traces.md)",
    )
    redaction_patterns: Mapped[list[str] | None] = mapped_column(
        PortableJSON, comment="regular expressions redacted from datasets made from traces"
    )


class Member(Base):
    __tablename__ = "member"
    __table_args__ = (Index("ix_member_workspace_id_id", "workspace_id", "id"),)

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    workspace_id: Mapped[str] = mapped_column(ForeignKey("workspace.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(200))
    email: Mapped[str | None] = mapped_column(String(320))
    role: Mapped[Role] = mapped_column(RoleColumn)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    removed_at: Mapped[datetime | None] = mapped_column(UTCDateTime)


class ApiToken(Base):
    __tablename__ = "api_token"
    __table_args__ = (Index("ix_api_token_workspace_id_id", "workspace_id", "id"),)

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    workspace_id: Mapped[str] = mapped_column(ForeignKey("workspace.id", ondelete="CASCADE"))
    member_id: Mapped[str] = mapped_column(ForeignKey("member.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(200))
    prefix: Mapped[str] = mapped_column(String(16))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    scope: Mapped[TokenScope] = mapped_column(
        Enum(TokenScope, name="token_scope", native_enum=False, length=16),
        default=TokenScope.FULL,
        server_default=TokenScope.FULL.value,
    )
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    revoked_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
