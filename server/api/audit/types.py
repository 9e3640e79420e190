"""GraphQL types of the audit log."""

from __future__ import annotations

from datetime import datetime
from typing import cast

import strawberry
from strawberry.scalars import JSON

from server.audit.models import AuditEvent as AuditEventRow


@strawberry.type
class AuditEvent:
    id: strawberry.ID
    action: str
    actor_id: strawberry.ID | None
    actor_role: str | None
    target_type: str
    target_id: strawberry.ID | None
    details: JSON
    created_at: datetime

    @classmethod
    def from_row(cls, row: AuditEventRow) -> AuditEvent:
        return cls(
            id=strawberry.ID(str(row.id)),
            action=row.action,
            actor_id=strawberry.ID(row.actor_member_id) if row.actor_member_id else None,
            actor_role=row.actor_role,
            target_type=row.target_type,
            target_id=strawberry.ID(row.target_id) if row.target_id else None,
            details=cast(JSON, row.details),
            created_at=row.created_at,
        )
