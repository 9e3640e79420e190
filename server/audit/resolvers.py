"""The `auditEvents` query."""

from __future__ import annotations

import strawberry

from server.audit import service
from server.audit.types import AuditEvent
from server.context import Context
from server.pagination import Connection, check_page_size


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
        actor = info.context.require()
        size = check_page_size(first, info.context.settings.max_page_size)
        async with info.context.read() as session:
            page = await service.get_page(
                session=session,
                workspace_id=actor.workspace_id,
                first=size,
                after=after,
                action=action,
                actor_id=actor_id,
                target_id=target_id,
            )
        return Connection.of(page, AuditEvent.from_row)
