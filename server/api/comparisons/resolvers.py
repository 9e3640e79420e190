"""Thin resolvers for comparisons: read the context, call one service function, convert."""

from __future__ import annotations

from typing import cast

import strawberry
from starlette.requests import Request

from server.api.comparisons.input_types import CreateComparisonInput
from server.api.comparisons.preview_types import ComparisonPreview
from server.api.comparisons.progress_types import ComparisonStatus
from server.api.comparisons.types import Comparison
from server.api.context import Context
from server.api.relay import Connection
from server.api.stopping_types import StoppingInput
from server.comparisons import lifecycle, rerun, rerun_preview, service
from server.comparisons.models import ComparisonStatus as ComparisonStatusEnum
from server.errors import NotFound
from server.page_reads import comparison_page, comparisons_list
from server.pagination import check_page_size
from server.spend import service as spend_service
from server.workspaces.roles import Role


@strawberry.type
class ComparisonQuery:
    @strawberry.field(
        description="What the comparison would run and cost, and whether it can start; "
        "writes nothing."
    )
    async def comparison_preview(
        self, info: strawberry.Info[Context], input: CreateComparisonInput
    ) -> ComparisonPreview:
        actor = info.context.require()
        spec = input.to_spec()
        async with info.context.read() as session:
            result = await service.preview(
                session=session,
                actor=actor,
                settings=info.context.settings,
                spec=spec,
                month_spend=spend_service.month_to_date_spend,
            )
        return ComparisonPreview.from_preview(result)

    @strawberry.field(
        description="What a re-run of the comparison would run and cost (the preview of its "
        "own input); writes nothing."
    )
    async def rerun_preview(
        self, info: strawberry.Info[Context], id: strawberry.ID
    ) -> ComparisonPreview:
        actor = info.context.require()
        async with info.context.read() as session:
            result = await rerun_preview.preview(
                session=session,
                actor=actor,
                settings=info.context.settings,
                comparison_id=str(id),
                month_spend=spend_service.month_to_date_spend,
            )
        return ComparisonPreview.from_preview(result)

    @strawberry.field
    async def comparison(self, info: strawberry.Info[Context], id: strawberry.ID) -> Comparison:
        return await page_of(info.context, str(id))

    @strawberry.field(description="The workspace's comparisons, newest first.")
    async def comparisons(
        self,
        info: strawberry.Info[Context],
        first: int | None = None,
        after: str | None = None,
        status: ComparisonStatus | None = None,
    ) -> Connection[Comparison]:
        context = info.context
        actor = context.require()
        size = check_page_size(first, context.settings.max_page_size)
        page = await comparisons_list.read(
            context.fetch,
            dialect=context.app.engine.dialect.name,
            workspace_id=actor.workspace_id,
            first=size,
            after=after,
            status=ComparisonStatusEnum(status) if status is not None else None,
        )
        # The list's read carries the connection's fields under their names, its edges'
        # nodes the rows each `Comparison` is (`Comparison.of`).
        return cast(Connection[Comparison], page)


async def page_of(context: Context, comparison_id: str) -> Comparison:
    """The workspace's comparison as its page's read shows it (the one way a `Comparison`
    is made but for the list's rows); another workspace's or an unknown id is NOT_FOUND."""
    actor = context.require()
    page = await comparison_page.read(
        context.fetch,
        dialect=context.app.engine.dialect.name,
        workspace_id=actor.workspace_id,
        comparison_id=comparison_id,
    )
    if page is None:
        raise NotFound("comparison not found")
    return Comparison.of(page)


@strawberry.type
class ComparisonMutation:
    @strawberry.mutation(description="A SETUP comparison over frozen cases; nothing dispatched.")
    async def create_comparison(
        self, info: strawberry.Info[Context], input: CreateComparisonInput
    ) -> Comparison:
        actor = info.context.require(Role.MEMBER)
        spec = input.to_spec()
        async with info.context.write() as session:
            row = await service.create(
                session=session, actor=actor, settings=info.context.settings, spec=spec
            )
        return await page_of(info.context, row.id)

    @strawberry.mutation(
        description="Start a SETUP comparison; with `background: false`, answer once it ends."
    )
    async def start_comparison(
        self, info: strawberry.Info[Context], id: strawberry.ID, background: bool = True
    ) -> Comparison:
        actor = info.context.require(Role.MEMBER)
        app, request = info.context.app, info.context.request
        row = await lifecycle.start(
            sessionmaker=app.sessionmaker,
            events=app.events,
            queue=app.queue,
            actor=actor,
            comparison_id=str(id),
            background=background,
            caller_gone=request.is_disconnected if isinstance(request, Request) else None,
        )
        return await page_of(info.context, row.id)

    @strawberry.mutation(description="Stop a SETUP or RUNNING comparison before its next call.")
    async def cancel_comparison(
        self, info: strawberry.Info[Context], id: strawberry.ID
    ) -> Comparison:
        actor = info.context.require(Role.MEMBER)
        app = info.context.app
        row = await lifecycle.cancel(
            sessionmaker=app.sessionmaker,
            events=app.events,
            queue=app.queue,
            actor=actor,
            comparison_id=str(id),
        )
        return await page_of(info.context, row.id)

    @strawberry.mutation(
        description="A new SETUP comparison with the same cases and cohorts; `stopping`, "
        "when given, replaces its sequential stopping."
    )
    async def rerun_comparison(
        self,
        info: strawberry.Info[Context],
        id: strawberry.ID,
        stopping: StoppingInput | None = None,
    ) -> Comparison:
        actor = info.context.require(Role.MEMBER)
        async with info.context.write() as session:
            row = await rerun.rerun(
                session=session,
                actor=actor,
                comparison_id=str(id),
                stopping=stopping.to_spec() if stopping else None,
            )
        return await page_of(info.context, row.id)
