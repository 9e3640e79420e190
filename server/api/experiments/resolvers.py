"""Thin resolvers for experiments: read the context, call one service function, convert."""

from __future__ import annotations

import strawberry

from server.api.context import Context
from server.api.experiments.types import CreateExperimentInput, Experiment
from server.api.listing import workspace_connection
from server.api.relay import Connection
from server.experiments import service
from server.workspaces.roles import Role


@strawberry.type
class ExperimentQuery:
    @strawberry.field
    async def experiments(
        self, info: strawberry.Info[Context], first: int | None = None, after: str | None = None
    ) -> Connection[Experiment]:
        return await workspace_connection(
            info.context,
            first=first,
            after=after,
            fetch=service.get_page,
            convert=Experiment.from_row,
        )

    @strawberry.field(description="An experiment of the workspace.")
    async def experiment(self, info: strawberry.Info[Context], id: strawberry.ID) -> Experiment:
        actor = info.context.require()
        async with info.context.read() as session:
            row = await service.get(
                session=session, workspace_id=actor.workspace_id, experiment_id=str(id)
            )
        return Experiment.from_row(row)


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
