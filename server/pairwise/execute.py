"""Judging a pairwise job: load both runs, pair them, judge each pair in both orders, store.

Pairs are judged in slices; after each slice the job row shows the pairs judged so far.
A redelivered job that had not finished judges again from the start (nothing of a run pair
is checkpointed per call); a finished one is left alone.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.assets.models import AssetVersion
from server.compare.pair_judging import PairInput, PairJudgment, Sleep
from server.compare.pairing import match
from server.compare.results import Item, LoadError, Run, parse_item
from server.compare.summary import summarize
from server.connections.models import ModelConnection
from server.db import utcnow
from server.pairwise.judges import JudgeUnavailable, open_judge
from server.pairwise.models import PairwiseJob, PairwiseJobStatus
from server.pairwise.result import result_json
from server.runs.models import RunItem
from server.security import SecretBox

SLICE: Final = 64
DUPLICATE_ITEM: Final = "pairwise_unpairable_items"
CONNECTION_NOT_READY: Final = "connection_not_ready"
INTERNAL: Final = "pairwise_internal"


@dataclass(frozen=True, slots=True)
class _Loaded:
    job: PairwiseJob
    candidate: Run
    baseline: Run
    connection: ModelConnection
    config: dict[str, Any]
    rubric: dict[str, Any]


async def judge_job(
    *,
    sessionmaker: async_sessionmaker[AsyncSession],
    secrets: SecretBox,
    job_id: str,
    timeout_seconds: float,
    sleep: Sleep = asyncio.sleep,
) -> str:
    """Judge one job; what happened (`done`, `failed`, `already finished`, `not found`)."""
    try:
        loaded = await _start(sessionmaker, job_id)
    except LoadError:
        await _fail(sessionmaker, job_id, DUPLICATE_ITEM)
        return "failed"
    if isinstance(loaded, str):
        return loaded
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
        matching = match(loaded.baseline, loaded.candidate)
        await _set(sessionmaker, job_id, total_pairs=len(matching.pairs))
        judgments: list[PairJudgment] = []
        pairs = [
            PairInput(p.case_input, p.baseline.output, p.treatment.output) for p in matching.pairs
        ]
        for low in range(0, len(pairs), SLICE):
            judgments += await judge.judge.judge_all(
                pairs[low : low + SLICE], concurrency=judge.concurrency
            )
            judged = sum(1 for j in judgments if j.failure is None)
            await _set(sessionmaker, job_id, judged_pairs=judged, cost_micros=judge.meter.micros)
    except LoadError:
        await _fail(sessionmaker, job_id, DUPLICATE_ITEM)
        return "failed"
    finally:
        await judge.aclose()
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
    result = result_json(summary, simulated=judge.simulated)
    await _set(
        sessionmaker,
        job_id,
        status=PairwiseJobStatus.DONE,
        result=result,
        judged_pairs=summary.judged_pairs,
        total_pairs=summary.matched_pairs,
        cost_micros=judge.meter.micros,
        completed_at=utcnow(),
    )
    return "done"


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
        candidate = await _run(session, job.candidate_run_id, "candidate")
        baseline = await _run(session, job.baseline_run_id, "baseline")
        return _Loaded(job, candidate, baseline, connection, config.content, rubric.content)


async def _run(session: AsyncSession, run_id: str, name: str) -> Run:
    rows = await session.execute(
        select(RunItem.position, RunItem.dataset_item_id, RunItem.input, RunItem.trials)
        .where(RunItem.run_id == run_id)
        .order_by(RunItem.position)
    )
    items: list[Item] = []
    for position, item_id, case_input, trials in rows:
        value = {"position": position, "input": case_input, "trials": trials}
        if item_id is not None:
            value["datasetItemId"] = item_id
        try:
            items.append(parse_item(value))
        except ValueError as exc:
            raise LoadError(f"run {run_id}, position {position}: {exc}") from None
    return Run(name=name, source=Path(f"run {run_id}"), items=tuple(items))


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
