"""`finalizeComparison`: retry a comparison's finalization (ADMIN and up)."""

from __future__ import annotations

import strawberry

from server.api.comparisons.resolvers import page_of
from server.api.comparisons.types import Comparison
from server.api.context import Context
from server.verdicts import service
from server.workspaces.roles import Role


@strawberry.type
class VerdictMutation:
    @strawberry.mutation(
        description="Queue the finalization of a DONE comparison under a fresh job id; a "
        "no-op once FINALIZED; CONFLICT (reason CASES_ERASED) after its cases were erased."
    )
    async def finalize_comparison(
        self, info: strawberry.Info[Context], id: strawberry.ID
    ) -> Comparison:
        actor = info.context.require(Role.ADMIN)
        app = info.context.app
        row = await service.retry_finalize(
            sessionmaker=app.sessionmaker, queue=app.queue, actor=actor, comparison_id=str(id)
        )
        return await page_of(info.context, row.id)
