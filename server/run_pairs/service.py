"""`pairwiseComparison` and `pairwiseJob`: create a job on two COMPLETED runs, read it back.

The judging itself is the `judge_run_pair` job (`server.run_pairs.execute`); creating only
checks, records and audits, and the caller enqueues once the row is committed.
"""

from __future__ import annotations

from typing import Final

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from server.audit import service as audit
from server.comparisons.resolution import resolve_judge
from server.errors import NotFound, ValidationFailed
from server.ids import new_id
from server.run_pairs import execute
from server.run_pairs.models import PairwiseJob, PairwiseJobStatus
from server.runs import diff as run_diff
from server.workspaces.roles import Actor, Role

JOB: Final = execute.JOB


def job_id(pairwise_job_id: str) -> str:
    """The arq job id: one judging job per pairwise job while it is queued or running."""
    return f"pairwise:{pairwise_job_id}"


async def create(
    *,
    session: AsyncSession,
    actor: Actor,
    candidate_run_id: str,
    baseline_run_id: str,
    rubric_version_id: str,
    judge_model_config_version_id: str,
) -> PairwiseJob:
    """A QUEUED job; CONFLICT (RUN_NOT_COMPLETED) unless both runs are COMPLETED."""
    actor.require(Role.MEMBER)
    if candidate_run_id == baseline_run_id:
        raise ValidationFailed(
            "the candidate and the baseline must be different runs", field="baselineRunId"
        )
    candidate, baseline = await run_diff.completed_pair(
        session=session,
        workspace_id=actor.workspace_id,
        candidate_run_id=candidate_run_id,
        baseline_run_id=baseline_run_id,
    )
    judge = await resolve_judge(
        session=session,
        workspace_id=actor.workspace_id,
        rubric_id=rubric_version_id,
        config_id=judge_model_config_version_id,
        where="",  # the mutation's own arguments
    )
    job = PairwiseJob(
        id=new_id("pwj"),
        workspace_id=actor.workspace_id,
        candidate_run_id=candidate.id,
        baseline_run_id=baseline.id,
        rubric_version_id=judge.rubric.id,
        judge_model_config_version_id=judge.config.id,
        connection_id=judge.connection.id,
        status=PairwiseJobStatus.QUEUED,
        judged_pairs=0,
        total_pairs=0,
        cost_micros=0,
        created_by_member_id=actor.member_id,
    )
    session.add(job)
    await session.flush()
    await audit.record(
        session=session,
        actor=actor,
        action="pairwise.create",
        target_type="pairwise_job",
        target_id=job.id,
        details={
            "candidateRunId": candidate.id,
            "baselineRunId": baseline.id,
            "rubricVersionId": judge.rubric.id,
            "judgeModelConfigVersionId": judge.config.id,
            "connectionId": judge.connection.id,
        },
    )
    return job


async def get(*, session: AsyncSession, workspace_id: str, job_id: str) -> PairwiseJob:
    """The workspace's job; another workspace's or an unknown id is NOT_FOUND."""
    job = await session.scalar(
        select(PairwiseJob).where(
            PairwiseJob.id == job_id, PairwiseJob.workspace_id == workspace_id
        )
    )
    if job is None:
        raise NotFound("pairwise job not found")
    return job
