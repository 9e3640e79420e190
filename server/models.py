"""Every aggregate's models, imported in one place for Alembic and the test schema."""

from server.audit.models import AuditEvent
from server.db import Base
from server.ops.models import WorkerHeartbeat
from server.workspaces.models import ApiToken, Member, Workspace

__all__ = ["ApiToken", "AuditEvent", "Base", "Member", "WorkerHeartbeat", "Workspace"]
