"""`playgroundRun`, `stopPlaygroundRun` and the `playgroundRunProgress` subscription."""

from __future__ import annotations

from collections.abc import AsyncGenerator

import strawberry

from server.api.context import Context
from server.api.playground.types import PlaygroundRun, PlaygroundRunInput
from server.errors import NotFound
from server.ids import new_id
from server.playground import service
from server.playground.runs import RUNS
from server.providers.http import provider_timeout
from server.providers.streaming import StreamingCaller
from server.workspaces.roles import Role


@strawberry.type
class PlaygroundMutation:
    @strawberry.mutation(
        description="Call every pane on the same input (or a dataset's first cases) through "
        "its connection, streamed: follow it with `playgroundRunProgress` (MEMBER, audited "
        "as `playground.run`, counted against each connection's cap)."
    )
    async def playground_run(
        self, info: strawberry.Info[Context], input: PlaygroundRunInput
    ) -> PlaygroundRun:
        actor = info.context.require(Role.MEMBER)
        app = info.context.app
        run_id = new_id("pgr")
        async with info.context.write() as session:
            plan = await service.prepare(
                session=session, actor=actor, spec=input.to_spec(), run_id=run_id
            )
        run = service.new_run(actor, plan, run_id)
        caller = StreamingCaller(
            app.secret_box,
            app.providers,
            timeout=provider_timeout(app.settings.provider_timeout_seconds),
        )
        service.Runner(app.sessionmaker, caller, actor).start(run, plan)
        return PlaygroundRun.of(run.snapshot())

    @strawberry.mutation(description="Stop a Playground run: its calls in flight are cancelled.")
    async def stop_playground_run(
        self, info: strawberry.Info[Context], id: strawberry.ID
    ) -> PlaygroundRun:
        actor = info.context.require(Role.MEMBER)
        run = await service.stop(actor=actor, run_id=str(id))
        return PlaygroundRun.of(run.snapshot())


async def playground_run_progress(
    info: strawberry.Info[Context], id: strawberry.ID
) -> AsyncGenerator[PlaygroundRun, None]:
    """The run's snapshot now, then one per change, ending after the last (VIEWER)."""
    actor = info.context.require()
    run = RUNS.get(str(id), actor.workspace_id)
    if run is None:
        raise NotFound("playground run not found")
    async for snapshot in run.snapshots():
        yield PlaygroundRun.of(snapshot)


@strawberry.type
class PlaygroundSubscription:
    playground_run_progress: AsyncGenerator[PlaygroundRun, None] = strawberry.subscription(
        resolver=playground_run_progress,
        description="A Playground run's snapshots: each pane's output as it streams, with "
        "tokens, cost and time; ends after the run ends or stops.",
    )
