"""`appendRunItems` on a run with JUDGE_RUBRIC checks: judge first, then write.

1. Read (no transaction kept): the run, the chunk checked, the positions already stored (a
   retried chunk calls no judge again), the judges, and whether a spend limit is reached.
2. Judge the new trials' outputs with no session open (`server.judges.rubric_grade`, the
   code hosted trials are graded with), at most the judge connections' maxConcurrency at
   once; before each call the run's cap is asked (post hoc, as a comparison's: spend is
   known once a call returns).
3. Record what the calls cost in a short transaction of its own (the run's counters, a
   `RunJudgeSpend` row per connection and the spend ledgers), even if the chunk is then
   refused: the calls were made.
4. A limit that stopped a judge call refuses the chunk (QUOTA_EXCEEDED, `reason` BUDGET_CAP,
   CONNECTION_CAP or DAILY_BUDGET; nothing of it stored); else the chunk is written
   (`server.runs.service.append_items`) with the judges' grades.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.comparisons.models import StopReason
from server.connections.models import ModelConnection
from server.errors import QuotaExceeded
from server.experiments.models import Experiment
from server.judges.rubric_grade import Case, Graded, RubricJudge, grade_output, load_judges
from server.money import micros_dollars
from server.providers.base import CallResult, ModelCall
from server.providers.registry import ProviderPool
from server.runs import grading, item_store
from server.runs import service as run_service
from server.runs.items import MAX_POSITION, ItemRow, check_chunk
from server.runs.models import Run, RunSource, RunStatus
from server.spend import ledgers
from server.validation import check_range
from server.workspaces.roles import Actor, Role


@dataclass(frozen=True, slots=True)
class _Work:
    row: ItemRow
    index: int
    output: str
    tool_calls: list[dict[str, Any]]
    trajectory: list[dict[str, Any]] | None


@dataclass(slots=True)
class _Prepared:
    run_id: str
    experiment_id: str
    checks: list[dict[str, Any]]
    cap: int | None
    spent: int
    work: list[_Work]
    judges: dict[tuple[str, str], RubricJudge]
    stop: StopReason | None


@dataclass(slots=True)
class _Judged:
    graded: dict[tuple[int, int], Graded] = field(default_factory=dict)
    spent: int = 0
    calls: int = 0
    by_connection: dict[str, tuple[int, int]] = field(default_factory=dict)
    stopped: bool = False


async def append(
    *,
    sessionmaker: async_sessionmaker[AsyncSession],
    providers: ProviderPool,
    actor: Actor,
    run_id: str,
    items: object,
    position: int | None = None,
) -> tuple[Run, int]:
    """`server.runs.service.append_items`, the run's judges called first (outside any
    transaction) when it has JUDGE_RUBRIC checks."""
    actor.require(Role.MEMBER)
    async with sessionmaker() as session:
        prepared = await _prepare(session, actor, run_id, items, position)
    judged = None
    if prepared is not None:
        if prepared.stop is not None:
            raise _stopped(prepared, prepared.stop, prepared.spent)
        judged = await _judge(prepared, providers)
        if judged.calls:
            async with sessionmaker() as session, session.begin():
                await _record(session, prepared, judged)
        if judged.stopped:
            raise _stopped(prepared, StopReason.BUDGET_CAP, prepared.spent + judged.spent)
    async with sessionmaker() as session, session.begin():
        return await run_service.append_items(
            session=session,
            actor=actor,
            run_id=run_id,
            items=items,
            position=position,
            judged=None if judged is None else judged.graded,
        )


async def _prepare(
    session: AsyncSession, actor: Actor, run_id: str, items: object, position: int | None
) -> _Prepared | None:
    """What to judge; None when nothing is (no judge checks, nothing new, or a run that
    takes no items: the write says why)."""
    run = await run_service.get(session=session, workspace_id=actor.workspace_id, run_id=run_id)
    checks = run.checks
    if (
        not grading.has_judges(checks)
        or run.source != RunSource.IMPORTED
        or run.status != RunStatus.RUNNING
    ):
        return None
    assert checks is not None
    start = run.item_count if position is None else position
    check_range(start, field="position", low=0, high=MAX_POSITION)
    rows = check_chunk(items, start=start)
    stored = await item_store.stored_positions(session, run.id, rows, checks)
    work = [
        _Work(row, index, *found)
        for row in rows
        if row["position"] not in stored
        for index, trial in enumerate(row["trials"])
        if (found := grading.trial_output(trial)) is not None
    ]
    if not work:
        return None
    judges = await load_judges(session, checks)
    return _Prepared(
        run_id=run.id,
        experiment_id=run.experiment_id,
        checks=checks,
        cap=run.budget_cap_micros,
        spent=run.judge_spent_micros,
        work=work,
        judges=judges,
        stop=await _limit_reached(session, run, [j.connection for j in judges.values()]),
    )


async def _limit_reached(
    session: AsyncSession, run: Run, connections: list[ModelConnection]
) -> StopReason | None:
    """The run's cap, a judge connection's monthly cap or the experiment's daily budget,
    when reached (the ledgers a comparison's dispatch reads)."""
    if run.budget_cap_micros is not None and run.judge_spent_micros >= run.budget_cap_micros:
        return StopReason.BUDGET_CAP
    now = datetime.now(UTC)
    capped = {c.id: c.monthly_cap_micros for c in connections if c.monthly_cap_micros is not None}
    if capped:
        spent = await ledgers.connection_month(session, capped, now=now)
        if any(spent[cid] >= cap for cid, cap in capped.items() if cap is not None):
            return StopReason.CONNECTION_CAP
    experiment = await session.get(Experiment, run.experiment_id)
    budget = experiment.daily_budget_micros if experiment is not None else None
    if budget is not None:
        if await ledgers.experiment_day(session, run.experiment_id, now=now) >= budget:
            return StopReason.DAILY_BUDGET
    return None


async def _judge(prepared: _Prepared, providers: ProviderPool) -> _Judged:
    judged = _Judged()
    width = min(max(1, j.connection.max_concurrency) for j in prepared.judges.values())
    gate = asyncio.Semaphore(width)

    def may_call() -> bool:
        return prepared.cap is None or prepared.spent + judged.spent < prepared.cap

    async def call(connection: ModelConnection, model_call: ModelCall) -> CallResult:
        provider = providers.get(connection)
        async with providers.limit(connection.id):
            return await provider.call(model_call)

    async def one(work: _Work) -> None:
        row = work.row
        case = Case(
            input=row["input"],
            expected=row["expected"],
            case_key=row["dataset_item_id"] or "",
            trial_header=f"{prepared.run_id}/{row['position']}/{work.index}",
            delivery_header=prepared.run_id,
        )
        async with gate:
            graded = await grade_output(
                prepared.checks,
                work.output,
                work.tool_calls,
                case,
                trajectory=work.trajectory,
                judges=prepared.judges,
                call=call,
                may_call=may_call,
            )
        judged.graded[(row["position"], work.index)] = graded
        judged.spent += graded.cost_micros
        judged.calls += graded.judge_calls
        judged.stopped = judged.stopped or graded.stopped
        for connection_id, (made, micros) in graded.by_connection.items():
            calls, total = judged.by_connection.get(connection_id, (0, 0))
            judged.by_connection[connection_id] = (calls + made, total + micros)

    await asyncio.gather(*(one(work) for work in prepared.work))
    return judged


async def _record(session: AsyncSession, prepared: _Prepared, judged: _Judged) -> None:
    """The calls' cost on the run (added in SQL: chunks judged side by side both count)
    and in the spend ledgers; the run says BUDGET_CAP once its cap is reached."""
    values: dict[str, object] = {
        "judge_spent_micros": Run.judge_spent_micros + judged.spent,
        "judge_call_count": Run.judge_call_count + judged.calls,
    }
    spent = (
        await session.execute(
            update(Run)
            .where(Run.id == prepared.run_id)
            .values(**values)
            .returning(Run.judge_spent_micros)
            .execution_options(synchronize_session=False)
        )
    ).scalar_one()
    if prepared.cap is not None and spent >= prepared.cap:
        await session.execute(
            update(Run)
            .where(Run.id == prepared.run_id, Run.stop_reason.is_(None))
            .values(stop_reason=StopReason.BUDGET_CAP.value)
            .execution_options(synchronize_session=False)
        )
    await ledgers.add_run_judging(
        session,
        run_id=prepared.run_id,
        experiment_id=prepared.experiment_id,
        by_connection=judged.by_connection,
        now=datetime.now(UTC),
    )


def _stopped(prepared: _Prepared, reason: StopReason, spent: int) -> QuotaExceeded:
    if reason == StopReason.BUDGET_CAP and prepared.cap is not None:
        limit = f"the run's judge budget cap ({micros_dollars(prepared.cap)})"
    elif reason == StopReason.CONNECTION_CAP:
        limit = "a judge connection's monthly cap"
    else:
        limit = "the experiment's daily budget"
    return QuotaExceeded(
        f"{limit} is reached (the run's judge calls have spent {micros_dollars(spent)}): "
        "judging stopped and this chunk was not stored",
        reason=reason.value,
        field="items",
    )
