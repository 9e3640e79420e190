"""Reports: frozen versions of a finalized comparison, its follow-ups and the sign-offs.

A version's `document` is JSON text serialized once (sorted keys) and never rewritten, so
what a reviewer read stays byte for byte what was archived. Follow-ups belong to the
comparison (one per baseline and worse case) and are shared by every version; a sign-off
belongs to one version and keeps the follow-up states it saw in `sign_off_follow_up`.
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum

from sqlalchemy import Boolean, Enum, ForeignKey, Index, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from server.db import Base, UTCDateTime, utcnow


class FollowUpState(StrEnum):
    OPEN = "OPEN"
    RESOLVED = "RESOLVED"


class Decision(StrEnum):
    APPROVE = "APPROVE"
    HOLD = "HOLD"
    REQUEST_CHANGES = "REQUEST_CHANGES"


def _enum(enum: type[StrEnum], name: str) -> Enum:
    return Enum(enum, name=name, native_enum=False, length=16)


class Report(Base):
    __tablename__ = "report"
    __table_args__ = (
        UniqueConstraint("comparison_id", "version", name="uq_report_comparison_id_version"),
        Index("ix_report_workspace_id_id", "workspace_id", "id"),
    )

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    workspace_id: Mapped[str] = mapped_column(ForeignKey("workspace.id", ondelete="CASCADE"))
    comparison_id: Mapped[str] = mapped_column(ForeignKey("comparison.id", ondelete="CASCADE"))
    version: Mapped[int] = mapped_column(Integer)
    document: Mapped[str] = mapped_column(Text, comment="JSON, sorted keys; written once")
    document_sha256: Mapped[str] = mapped_column(String(64))
    created_by_member_id: Mapped[str | None] = mapped_column(String(40))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class FollowUp(Base):
    """One (case, baseline) among that baseline's worse cases (docs/statistics.md)."""

    __tablename__ = "follow_up"
    __table_args__ = (
        UniqueConstraint(
            "comparison_id",
            "baseline_cohort_index",
            "case_ordinal",
            name="uq_follow_up_comparison_id_baseline_cohort_index_case_ordinal",
        ),
        Index("ix_follow_up_comparison_id_state", "comparison_id", "state"),
    )

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    workspace_id: Mapped[str] = mapped_column(ForeignKey("workspace.id", ondelete="CASCADE"))
    comparison_id: Mapped[str] = mapped_column(ForeignKey("comparison.id", ondelete="CASCADE"))
    baseline_cohort_index: Mapped[int] = mapped_column(Integer)
    case_ordinal: Mapped[int] = mapped_column(Integer)
    dataset_item_id: Mapped[str] = mapped_column(String(200))
    state: Mapped[FollowUpState] = mapped_column(
        _enum(FollowUpState, "follow_up_state"), default=FollowUpState.OPEN
    )
    note: Mapped[str | None] = mapped_column(Text)
    resolved_by_member_id: Mapped[str | None] = mapped_column(String(40))
    resolved_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class SignOff(Base):
    """The one sign-off of a report version."""

    __tablename__ = "sign_off"

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    workspace_id: Mapped[str] = mapped_column(ForeignKey("workspace.id", ondelete="CASCADE"))
    comparison_id: Mapped[str] = mapped_column(ForeignKey("comparison.id", ondelete="CASCADE"))
    report_id: Mapped[str] = mapped_column(ForeignKey("report.id", ondelete="CASCADE"), unique=True)
    decision: Mapped[Decision] = mapped_column(_enum(Decision, "sign_off_decision"))
    verdict: Mapped[str] = mapped_column(String(16), comment="what it wrote to the comparison")
    override: Mapped[bool] = mapped_column(Boolean, default=False)
    override_justification: Mapped[str | None] = mapped_column(Text)
    open_follow_ups: Mapped[int] = mapped_column(Integer, comment="open when signed")
    resolved_follow_ups: Mapped[int] = mapped_column(Integer, comment="resolved when signed")
    signer_member_id: Mapped[str] = mapped_column(String(40))
    signer_role: Mapped[str] = mapped_column(String(16))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class SignOffFollowUp(Base):
    """A follow-up's state when the sign-off was made (copied in one INSERT … SELECT)."""

    __tablename__ = "sign_off_follow_up"

    sign_off_id: Mapped[str] = mapped_column(
        ForeignKey("sign_off.id", ondelete="CASCADE"), primary_key=True
    )
    follow_up_id: Mapped[str] = mapped_column(
        ForeignKey("follow_up.id", ondelete="CASCADE"), primary_key=True
    )
    state: Mapped[FollowUpState] = mapped_column(_enum(FollowUpState, "follow_up_state"))
    resolved_at: Mapped[datetime | None] = mapped_column(UTCDateTime)


FROZEN_TABLES = ("report", "sign_off", "sign_off_follow_up")
"""Rows written once: a trigger refuses UPDATE on both backends (deletes only cascade)."""


def frozen_trigger_sql(dialect: str) -> list[str]:
    """The statements the migration runs to make `FROZEN_TABLES` refuse UPDATE."""
    if dialect == "postgresql":
        statements = [
            """
            CREATE OR REPLACE FUNCTION shipwise_refuse_update() RETURNS trigger AS $$
            BEGIN
                RAISE EXCEPTION '% rows are frozen', TG_TABLE_NAME;
            END;
            $$ LANGUAGE plpgsql
            """
        ]
        statements += [
            f"CREATE TRIGGER {table}_frozen BEFORE UPDATE ON {table} "
            "FOR EACH ROW EXECUTE FUNCTION shipwise_refuse_update()"
            for table in FROZEN_TABLES
        ]
        return statements
    return [
        f"CREATE TRIGGER {table}_frozen BEFORE UPDATE ON {table} "
        f"BEGIN SELECT RAISE(ABORT, '{table} rows are frozen'); END"
        for table in FROZEN_TABLES
    ]
