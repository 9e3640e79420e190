"""Thin resolvers for traces: read the context, call one service function, convert."""

from __future__ import annotations

import strawberry

from server.api.context import Context
from server.api.listing import workspace_connection
from server.api.relay import Connection
from server.api.traces.input_types import ModelPriceInput, TraceFilter
from server.api.traces.types import ModelPrice, Trace, TraceFeedback, TraceGroupBy, TraceStats
from server.traces import counts, feedback, reads
from server.traces import prices as price_service
from server.traces.reads import FeedbackRead
from server.workspaces.roles import Role

NO_FILTER = reads.TraceFilter()


@strawberry.type
class TraceQuery:
    @strawberry.field(description="The workspace's ingested traces, newest first.")
    async def traces(
        self,
        info: strawberry.Info[Context],
        filter: TraceFilter | None = None,
        first: int | None = None,
        after: str | None = None,
    ) -> Connection[Trace]:
        return await workspace_connection(
            info.context,
            first=first,
            after=after,
            fetch=reads.get_page,
            convert=Trace.from_row,
            where=filter.to_value() if filter is not None else NO_FILTER,
        )

    @strawberry.field(description="One trace by its hex id, with its steps.")
    async def trace(self, info: strawberry.Info[Context], id: strawberry.ID) -> Trace:
        actor = info.context.require()
        async with info.context.read() as session:
            found = await reads.get_trace(
                session=session, workspace_id=actor.workspace_id, trace_id=str(id)
            )
        return Trace.from_read(found)

    @strawberry.field(description="Traces' figures grouped by release, model or service.")
    async def trace_stats(
        self,
        info: strawberry.Info[Context],
        group_by: TraceGroupBy,
        filter: TraceFilter | None = None,
    ) -> list[TraceStats]:
        actor = info.context.require()
        async with info.context.read() as session:
            rows = await reads.get_stats(
                session=session,
                workspace_id=actor.workspace_id,
                where=filter.to_value() if filter is not None else NO_FILTER,
                group_by=group_by.value,
            )
        return [TraceStats.of(row) for row in rows]

    @strawberry.field(description="The prices traces' model calls are priced with.")
    async def model_prices(self, info: strawberry.Info[Context]) -> list[ModelPrice]:
        actor = info.context.require()
        async with info.context.read() as session:
            rows = await price_service.get_all(session=session, workspace_id=actor.workspace_id)
        return [ModelPrice.from_row(row) for row in rows]


@strawberry.type
class TraceMutation:
    @strawberry.mutation(description="A named score on a trace (MEMBER; audited).")
    async def score_trace(
        self,
        info: strawberry.Info[Context],
        trace_id: strawberry.ID,
        name: str,
        value: float,
        comment: str | None = None,
    ) -> TraceFeedback:
        actor = info.context.require(Role.MEMBER)
        async with info.context.write() as session:
            row = await feedback.score(
                session=session,
                actor=actor,
                trace_id=str(trace_id),
                name=name,
                value=value,
                comment=comment,
            )
        counts.changed(actor.workspace_id)  # committed: `hasFeedback`'s counts count again
        return TraceFeedback.of(
            FeedbackRead(row.name, row.value, row.comment, "API", row.created_at, row.member_id)
        )

    @strawberry.mutation(
        description="Set models' prices, cents per million tokens (ADMIN); traces stored "
        "from then on are priced with them."
    )
    async def set_model_prices(
        self, info: strawberry.Info[Context], prices: list[ModelPriceInput]
    ) -> list[ModelPrice]:
        actor = info.context.require(Role.ADMIN)
        async with info.context.write() as session:
            rows = await price_service.set_prices(
                session=session, actor=actor, prices=[p.to_value() for p in prices]
            )
        return [ModelPrice.from_row(row) for row in rows]
