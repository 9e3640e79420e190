"""The append-only audit log (a trigger refuses UPDATE and DELETE on both backends)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import ForeignKey, Index, String
from sqlalchemy.orm import Mapped, mapped_column

from server.db import AutoIncrementBigInt, Base, PortableJSON, UTCDateTime, utcnow


class AuditEvent(Base):
    __tablename__ = "audit_event"
    __table_args__ = (
        Index("ix_audit_event_workspace_id_id", "workspace_id", "id"),
        Index("ix_audit_event_workspace_id_action", "workspace_id", "action"),
    )

    id: Mapped[int] = mapped_column(AutoIncrementBigInt, primary_key=True, autoincrement=True)
    workspace_id: Mapped[str] = mapped_column(ForeignKey("workspace.id", ondelete="RESTRICT"))
    actor_member_id: Mapped[str | None] = mapped_column(String(40))
    actor_token_id: Mapped[str | None] = mapped_column(String(40))
    actor_role: Mapped[str | None] = mapped_column(String(16))
    action: Mapped[str] = mapped_column(String(64))
    target_type: Mapped[str] = mapped_column(String(40))
    target_id: Mapped[str | None] = mapped_column(String(40))
    details: Mapped[dict[str, Any]] = mapped_column(PortableJSON, default=dict)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


APPEND_ONLY_TRIGGER_SQL = {
    "postgresql": [
        """
        CREATE OR REPLACE FUNCTION audit_event_append_only() RETURNS trigger AS $$
        BEGIN
            RAISE EXCEPTION 'audit_event is append-only';
        END;
        $$ LANGUAGE plpgsql
        """,
        """
        CREATE TRIGGER audit_event_append_only
        BEFORE UPDATE OR DELETE ON audit_event
        FOR EACH ROW EXECUTE FUNCTION audit_event_append_only()
        """,
    ],
    "sqlite": [
        """
        CREATE TRIGGER audit_event_no_update BEFORE UPDATE ON audit_event
        BEGIN SELECT RAISE(ABORT, 'audit_event is append-only'); END
        """,
        """
        CREATE TRIGGER audit_event_no_delete BEFORE DELETE ON audit_event
        BEGIN SELECT RAISE(ABORT, 'audit_event is append-only'); END
        """,
    ],
}
"""Executed by the migration that creates the table."""
