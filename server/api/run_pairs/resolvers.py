"""Thin resolvers for pairwise judging of two runs."""

from __future__ import annotations

import strawberry

from server.api.context import Context
from server.api.run_pairs.types import PairwiseJob
from server.run_pairs import service
from server.workspaces.roles import Role


@strawberry.type
class PairwiseQuery:
    @strawberry.field(description="A pairwise job of this workspace.")
    async def pairwise_job(self, info: strawberry.Info[Context], id: strawberry.ID) -> PairwiseJob:
        actor = info.context.require()
        async with info.context.read() as session:
            row = await service.get(session=session, workspace_id=actor.workspace_id, job_id=id)
        return PairwiseJob.from_row(row)


@strawberry.type
class PairwiseMutation:
    @strawberry.mutation(
        description="Judge two COMPLETED runs pair by pair, each pair in both orders (a job)."
    )
    async def pairwise_comparison(
        self,
        info: strawberry.Info[Context],
        candidate_run_id: strawberry.ID,
        baseline_run_id: strawberry.ID,
        rubric_version_id: strawberry.ID,
        judge_model_config_version_id: strawberry.ID,
    ) -> PairwiseJob:
        actor = info.context.require(Role.MEMBER)
        async with info.context.write() as session:
            row = await service.create(
                session=session,
                actor=actor,
                candidate_run_id=candidate_run_id,
                baseline_run_id=baseline_run_id,
                rubric_version_id=rubric_version_id,
                judge_model_config_version_id=judge_model_config_version_id,
            )
        await info.context.app.queue.enqueue(service.JOB, row.id, job_id=service.job_id(row.id))
        return PairwiseJob.from_row(row)
