"""Thin resolvers for live comparisons, and the `liveComparisonProgress` subscription."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncGenerator
from typing import Final

import strawberry

from server.api.context import Context
from server.api.listing import workspace_connection
from server.api.live.types import CreateLiveComparisonInput, LiveComparison, LiveComparisonStatus
from server.api.relay import Connection
from server.live import hooks, service
from server.live.models import TERMINAL, LiveStatus
from server.workspaces.roles import Role

IDLE_SECONDS: Final = 1.0
"""With no event for this long the row is read again (events may be lost)."""


@strawberry.type
class LiveQuery:
    @strawberry.field(description="One live comparison: its arms, decision and sequence.")
    async def live_comparison(
        self, info: strawberry.Info[Context], id: strawberry.ID
    ) -> LiveComparison:
        actor = info.context.require()
        async with info.context.read() as session:
            row = await service.get(
                session=session, workspace_id=actor.workspace_id, live_id=str(id)
            )
        return LiveComparison.from_row(row)

    @strawberry.field(description="The workspace's live comparisons, newest first.")
    async def live_comparisons(
        self,
        info: strawberry.Info[Context],
        first: int | None = None,
        after: str | None = None,
        status: LiveComparisonStatus | None = None,
    ) -> Connection[LiveComparison]:
        return await workspace_connection(
            info.context,
            first=first,
            after=after,
            fetch=service.get_page,
            convert=LiveComparison.from_row,
            status=LiveStatus(status).value if status is not None else None,
        )


@strawberry.type
class LiveMutation:
    @strawberry.mutation(
        description="Watch a service's traces of a candidate release against baselines from "
        "now on, and decide by the ship policy as they arrive (MEMBER; audited)."
    )
    async def create_live_comparison(
        self, info: strawberry.Info[Context], input: CreateLiveComparisonInput
    ) -> LiveComparison:
        actor = info.context.require(Role.MEMBER)
        async with info.context.write() as session:
            row = await service.create(session=session, actor=actor, spec=input.to_spec())
        return LiveComparison.from_row(row)

    @strawberry.mutation(description="Stop watching: no more traces are graded (MEMBER).")
    async def cancel_live_comparison(
        self, info: strawberry.Info[Context], id: strawberry.ID
    ) -> LiveComparison:
        actor = info.context.require(Role.MEMBER)
        async with info.context.write() as session:
            row = await service.cancel(session=session, actor=actor, live_id=str(id))
        await info.context.app.events.publish(hooks.topic(row.id), row.seq, {"seq": row.seq})
        return LiveComparison.from_row(row)


async def live_comparison_progress(
    info: strawberry.Info[Context], id: strawberry.ID
) -> AsyncGenerator[LiveComparison, None]:
    """The live comparison now, then again whenever it changes; ends after it ends."""
    actor = info.context.require()
    app = info.context.app
    changed = asyncio.Event()

    async def follow() -> None:
        async for _ in app.events.subscribe(hooks.topic(str(id))):
            changed.set()

    follower = asyncio.create_task(follow())
    sent = -1
    try:
        while True:
            async with app.read_sessionmaker() as session:
                row = await service.get(
                    session=session, workspace_id=actor.workspace_id, live_id=str(id)
                )
            if row.seq > sent:
                sent = row.seq
                yield LiveComparison.from_row(row)
            if row.status in TERMINAL:
                return
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(changed.wait(), timeout=IDLE_SECONDS)
            changed.clear()
    finally:
        follower.cancel()


@strawberry.type
class LiveSubscription:
    live_comparison_progress: AsyncGenerator[LiveComparison, None] = strawberry.subscription(
        resolver=live_comparison_progress,
        description="A live comparison's state now, then on every change; ends after "
        "DECIDED, EXPIRED or CANCELLED.",
    )
