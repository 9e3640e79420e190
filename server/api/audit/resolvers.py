"""The `auditEvents` query."""

from __future__ import annotations

import strawberry

from server.api.audit.types import AuditEvent
from server.api.context import Context
from server.api.listing import workspace_connection
from server.api.relay import Connection
from server.audit import service


@strawberry.type
class AuditQuery:
    @strawberry.field(description="The workspace's audit log, newest first.")
    async def audit_events(
        self,
        info: strawberry.Info[Context],
        first: int | None = None,
        after: str | None = None,
        action: str | None = None,
        actor_id: strawberry.ID | None = None,
        target_id: strawberry.ID | None = None,
    ) -> Connection[AuditEvent]:
        return await workspace_connection(
            info.context,
            first=first,
            after=after,
            fetch=service.get_page,
            convert=AuditEvent.from_row,
            action=action,
            actor_id=actor_id,
            target_id=target_id,
        )
