"""Judging a pairwise job: load both runs, pair them, judge each pair in both orders, store.

Pairs are judged in slices. Each slice is checkpointed (`PairwisePair` rows ADMITTED)
before its judge calls are sent and recorded after, with its spend; a redelivered job
resumes from the recorded pairs and never re-sends an admitted pair whose outcome was lost
(it fails with `outcome_ambiguous`, as a dispatch trial would). A job that has worked for
its time budget queues its continuation, so no arq timeout cuts it short.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from sqlalchemy import insert, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.assets.models import AssetVersion
from server.connections.models import ModelConnection
from server.db import utcnow
from server.judges.connections import JudgeUnavailable, OpenJudge, open_judge
from server.judges.pair import PairFailure, PairJudgment, Sleep
from server.offline_compare.judge_input import pair_input
from server.offline_compare.pairing import Matching, match
from server.offline_compare.results import LoadError, Run, stored_item
from server.offline_compare.summary import summarize
from server.run_pairs.models import PairState, PairwiseJob, PairwiseJobStatus, PairwisePair
from server.run_pairs.result import result_json
from server.runs.models import RunItem
from server.runtime.interfaces import JobQueue
from server.security import SecretBox

SLICE: Final = 64
UNPAIRABLE: Final = "pairwise_unpairable_items"
CONNECTION_NOT_READY: Final = "connection_not_ready"
INTERNAL: Final = "pairwise_internal"
AMBIGUOUS: Final = "outcome_ambiguous"
JOB: Final = "judge_run_pair"


@dataclass(frozen=True, slots=True)
class _Loaded:
    candidate: Run
    baseline: Run
    connection: ModelConnection
    config: dict[str, Any]
    rubric: dict[str, Any]
    recorded: dict[int, PairwisePair]


async def judge_job(
    *,
    sessionmaker: async_sessionmaker[AsyncSession],
    queue: JobQueue,
    secrets: SecretBox,
    job_id: str,
    timeout_seconds: float,
    budget_seconds: float,
    sleep: Sleep = asyncio.sleep,
) -> str:
    """Judge one job (or a part of it); what happened (`done`, `handed over`, `failed`…)."""
    try:
        loaded = await _start(sessionmaker, job_id)
        if isinstance(loaded, str):
            return loaded
        matching = match(loaded.baseline, loaded.candidate)
    except LoadError:
        await _fail(sessionmaker, job_id, UNPAIRABLE)
        return "failed"
    try:
        judge = open_judge(
            connection=loaded.connection,
            config=loaded.config,
            rubric=loaded.rubric,
            secrets=secrets,
            timeout_seconds=timeout_seconds,
            sleep=sleep,
        )
    except JudgeUnavailable:
        await _fail(sessionmaker, job_id, CONNECTION_NOT_READY)
        return "failed"
    try:
        recorded = await _close_ambiguous(sessionmaker, job_id, loaded.recorded, judge.judge.model)
        await _set(sessionmaker, job_id, total_pairs=len(matching.pairs))
        pending = [i for i in range(len(matching.pairs)) if i not in recorded]
        began = time.monotonic()
        for low in range(0, len(pending), SLICE):
            if low and time.monotonic() - began > budget_seconds:  # a slice at least
                await queue.enqueue(JOB, job_id, job_id=f"pairwise:{job_id}:{len(recorded)}")
                return "handed over"
            indices = pending[low : low + SLICE]
            if not await _admit(sessionmaker, job_id, indices):
                return "fenced"
            recorded.update(await _judge_slice(sessionmaker, job_id, judge, matching, indices))
    finally:
        await judge.aclose()
    return await _complete(sessionmaker, job_id, matching, recorded, judge)


async def record_failure(
    *, sessionmaker: async_sessionmaker[AsyncSession], job_id: str, error_code: str = INTERNAL
) -> None:
    """Leave the job FAILED with a bounded code (an unexpected error in the job)."""
    await _fail(sessionmaker, job_id, error_code)


async def _start(sessionmaker: async_sessionmaker[AsyncSession], job_id: str) -> _Loaded | str:
    async with sessionmaker() as session, session.begin():
        job = await session.get(PairwiseJob, job_id, with_for_update=True)
        if job is None:
            return "not found"
        if job.status in (PairwiseJobStatus.DONE, PairwiseJobStatus.FAILED):
            return "already finished"
        job.status = PairwiseJobStatus.RUNNING
        job.started_at = job.started_at or utcnow()
        connection = await session.get(ModelConnection, job.connection_id)
        config = await session.get(AssetVersion, job.judge_model_config_version_id)
        rubric = await session.get(AssetVersion, job.rubric_version_id)
        assert connection is not None and config is not None and rubric is not None
        rows = await session.scalars(select(PairwisePair).where(PairwisePair.job_id == job_id))
        return _Loaded(
            candidate=await _run(session, job.candidate_run_id, "candidate"),
            baseline=await _run(session, job.baseline_run_id, "baseline"),
            connection=connection,
            config=config.content,
            rubric=rubric.content,
            recorded={row.pair_index: row for row in rows},
        )


async def _run(session: AsyncSession, run_id: str, name: str) -> Run:
    rows = await session.execute(
        select(RunItem.position, RunItem.dataset_item_id, RunItem.input, RunItem.trials)
        .where(RunItem.run_id == run_id)
        .order_by(RunItem.position)
    )
    items = tuple(
        stored_item(position, item_id, case_input, trials)
        for position, item_id, case_input, trials in rows
    )
    return Run(name=name, source=Path(f"run {run_id}"), items=items)


async def _close_ambiguous(
    sessionmaker: async_sessionmaker[AsyncSession],
    job_id: str,
    recorded: dict[int, PairwisePair],
    model: str,
) -> dict[int, PairwisePair]:
    """Admitted pairs whose outcome never committed fail; their calls are not re-sent."""
    orphans = [i for i, row in recorded.items() if row.state == PairState.ADMITTED]
    if not orphans:
        return dict(recorded)
    failure = PairFailure(
        error_class=AMBIGUOUS,
        retryable=False,
        attempts=1,
        message="the judge calls were sent but their outcome was never recorded (not re-sent)",
        model=model,
    ).as_json()
    closed = dict(recorded)
    async with sessionmaker() as session, session.begin():
        for index in orphans:
            row = await session.get(PairwisePair, (job_id, index))
            assert row is not None
            row.state, row.failure, row.completed_at = PairState.DONE, failure, utcnow()
            closed[index] = row
    return closed


async def _admit(
    sessionmaker: async_sessionmaker[AsyncSession], job_id: str, indices: Sequence[int]
) -> bool:
    """Checkpoint the slice before any call; False when another delivery got there first."""
    try:
        async with sessionmaker() as session, session.begin():
            await session.execute(
                insert(PairwisePair),
                [{"job_id": job_id, "pair_index": i, "state": PairState.ADMITTED} for i in indices],
            )
    except IntegrityError:
        return False
    return True


async def _judge_slice(
    sessionmaker: async_sessionmaker[AsyncSession],
    job_id: str,
    judge: OpenJudge,
    matching: Matching,
    indices: Sequence[int],
) -> dict[int, PairwisePair]:
    """Judge the admitted slice, then record every pair, the judged count and the spend."""
    pairs = [matching.pairs[i] for i in indices]
    spent_before = judge.meter.micros
    judgments = await judge.judge.judge_all(
        [pair_input(p) for p in pairs],
        concurrency=judge.concurrency,
    )
    rows: dict[int, PairwisePair] = {}
    async with sessionmaker() as session, session.begin():
        job = await session.get(PairwiseJob, job_id, with_for_update=True)
        assert job is not None
        for index, judgment in zip(indices, judgments, strict=True):
            row = await session.get(PairwisePair, (job_id, index))
            assert row is not None
            row.state, row.completed_at = PairState.DONE, utcnow()
            row.forward, row.reverse = judgment.forward, judgment.reverse
            row.failure = None if judgment.failure is None else judgment.failure.as_json()
            job.judged_pairs += judgment.failure is None
            rows[index] = row
        job.cost_micros += judge.meter.micros - spent_before
    return rows


async def _complete(
    sessionmaker: async_sessionmaker[AsyncSession],
    job_id: str,
    matching: Matching,
    recorded: dict[int, PairwisePair],
    judge: OpenJudge,
) -> str:
    judgments = [_judgment(recorded[i]) for i in range(len(matching.pairs))]
    summary = await asyncio.get_running_loop().run_in_executor(
        None,
        lambda: summarize(
            baseline="baseline",
            treatment="candidate",
            matching=matching,
            judgments=judgments,
            judge_model=judge.judge.model,
        ),
    )
    await _set(
        sessionmaker,
        job_id,
        status=PairwiseJobStatus.DONE,
        result=result_json(summary, simulated=judge.simulated),
        judged_pairs=summary.judged_pairs,
        total_pairs=summary.matched_pairs,
        completed_at=utcnow(),
    )
    return "done"


def _judgment(row: PairwisePair) -> PairJudgment:
    failure = row.failure
    if failure is None:
        return PairJudgment(forward=row.forward, reverse=row.reverse)
    return PairJudgment(
        None,
        None,
        PairFailure(
            error_class=failure["errorClass"],
            retryable=bool(failure["retryable"]),
            attempts=int(failure["attempts"]),
            message=failure["message"],
            model=failure["model"],
            other_messages=tuple(failure.get("otherMessages", ())),
        ),
    )


async def _set(sessionmaker: async_sessionmaker[AsyncSession], job_id: str, **fields: Any) -> None:
    async with sessionmaker() as session, session.begin():
        job = await session.get(PairwiseJob, job_id, with_for_update=True)
        if job is None or job.status in (PairwiseJobStatus.DONE, PairwiseJobStatus.FAILED):
            return
        for name, value in fields.items():
            setattr(job, name, value)


async def _fail(sessionmaker: async_sessionmaker[AsyncSession], job_id: str, code: str) -> None:
    await _set(
        sessionmaker,
        job_id,
        status=PairwiseJobStatus.FAILED,
        error_code=code,
        completed_at=utcnow(),
    )
