"""Thin resolvers for experiments: read the context, call one service function, convert."""

from __future__ import annotations

import strawberry

from server.context import Context
from server.experiments import service
from server.experiments.types import CreateExperimentInput, Experiment
from server.pagination import Connection, check_page_size
from server.workspaces.roles import Role


@strawberry.type
class ExperimentQuery:
    @strawberry.field
    async def experiments(
        self, info: strawberry.Info[Context], first: int | None = None, after: str | None = None
    ) -> Connection[Experiment]:
        actor = info.context.require()
        size = check_page_size(first, info.context.settings.max_page_size)
        async with info.context.read() as session:
            page = await service.get_page(
                session=session, workspace_id=actor.workspace_id, first=size, after=after
            )
        return Connection.of(page, Experiment.from_row)


@strawberry.type
class ExperimentMutation:
    @strawberry.mutation
    async def create_experiment(
        self, info: strawberry.Info[Context], input: CreateExperimentInput
    ) -> Experiment:
        actor = info.context.require(Role.MEMBER)
        async with info.context.write() as session:
            row = await service.create(
                session=session,
                actor=actor,
                name=input.name,
                daily_budget_cents=input.daily_budget_cents,
            )
        return Experiment.from_row(row)
