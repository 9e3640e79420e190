"""Thin resolvers for model connections: read the context, call one service function, convert."""

from __future__ import annotations

import strawberry

from server.api.connections.types import CreateModelConnectionInput, ModelConnection
from server.api.context import Context
from server.api.listing import workspace_connection
from server.api.relay import Connection
from server.connections import service
from server.workspaces.roles import Role


@strawberry.type
class ConnectionQuery:
    @strawberry.field
    async def model_connections(
        self, info: strawberry.Info[Context], first: int | None = None, after: str | None = None
    ) -> Connection[ModelConnection]:
        return await workspace_connection(
            info.context,
            first=first,
            after=after,
            fetch=service.get_page,
            convert=ModelConnection.from_row,
        )


@strawberry.type
class ConnectionMutation:
    @strawberry.mutation(description="A connection, checked at once; the key is write-only.")
    async def create_model_connection(
        self, info: strawberry.Info[Context], input: CreateModelConnectionInput
    ) -> ModelConnection:
        actor = info.context.require(Role.ADMIN)
        async with info.context.write() as session:
            row = await service.create(
                session=session,
                actor=actor,
                secret_box=info.context.app.secret_box,
                name=input.name,
                kind=input.kind,
                base_url=input.base_url,
                api_key=input.api_key,
                input_cents_per_million_tokens=input.input_cents_per_million_tokens,
                output_cents_per_million_tokens=input.output_cents_per_million_tokens,
                monthly_cap_cents=input.monthly_cap_cents,
                max_concurrency=input.max_concurrency,
                simulation=input.simulation.to_value() if input.simulation else None,
                headers=[(h.name, h.value) for h in input.headers] if input.headers else None,
            )
        return ModelConnection.from_row(row)

    @strawberry.mutation(description="Ask the provider again and record the status.")
    async def check_model_connection(
        self, info: strawberry.Info[Context], id: strawberry.ID
    ) -> ModelConnection:
        actor = info.context.require(Role.ADMIN)
        row = await service.check(
            sessionmaker=info.context.app.sessionmaker,
            actor=actor,
            secret_box=info.context.app.secret_box,
            connection_id=id,
        )
        return ModelConnection.from_row(row)
