"""The pairwise stage of a hosted comparison: its judge calls, before it is DONE.

Dispatch calls `Stage.settle` where a run would end DONE (one marked call site in
`server/dispatch/ending.py`), under its lease. Every case has all its trials recorded
by then, so each (baseline, case, trial) pair whose two trials completed is judged in both orders;
a pair with a failed side is SKIPPED (settled, no call). Each slice is checkpointed
(`ComparisonPairJudgment` rows ADMITTED, idempotent per (comparison, baseline, case,
trial, order)) before its calls and recorded after, with its spend; an admitted call
whose outcome was lost is never re-sent (it fails `outcome_ambiguous`). Caps are checked
before every slice; a stage that used its time budget hands over to the next delivery.
"""

from __future__ import annotations

import asyncio
import dataclasses
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from sqlalchemy import func, insert, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.assets.models import AssetVersion
from server.comparisons import counters
from server.comparisons.models import (
    FORWARD,
    REVERSE,
    Comparison,
    ComparisonCase,
    ComparisonCohort,
    ComparisonPairJudgment,
    JudgmentState,
    StopReason,
    Trial,
    TrialState,
)
from server.comparisons.progress import Progress
from server.connections.models import ModelConnection
from server.datasets.models import DatasetCase
from server.db import utcnow
from server.dispatch import store
from server.experiments.models import Experiment
from server.judges.connections import JudgeUnavailable, OpenJudge, SpendMeter, open_judge
from server.judges.pair import PairFailure, PairInput, PairJudgment
from server.security import SecretBox
from server.settings import Settings
from server.spend import ledgers
from server.spend import service as spend

SLICE: Final = 16
AMBIGUOUS: Final = "outcome_ambiguous"
UNAVAILABLE: Final = "connection_not_ready"

Key = tuple[int, int, int]
"""(baseline cohort, case ordinal, trial index)."""
Publish = Callable[[Progress], Awaitable[None]]
Renew = Callable[[], Awaitable[None]]


@dataclass(frozen=True, slots=True)
class _Work:
    comparison: Comparison
    connection: ModelConnection
    config: dict[str, Any]
    rubric: dict[str, Any]
    to_judge: list[tuple[Key, PairInput]]
    to_skip: list[Key]
    orphans: list[Key]


class Stage:
    """The pairwise stage for one dispatch delivery."""

    def __init__(self, sessionmaker: async_sessionmaker[AsyncSession], settings: Settings):
        self.sessionmaker = sessionmaker
        self.secrets = SecretBox(settings.resolved_secret_key())
        self.timeout_seconds = settings.provider_timeout_seconds
        self.budget_seconds = float(settings.dispatch_slice_seconds)

    async def settle(
        self,
        *,
        comparison_id: str,
        token: int,
        stop_reason: StopReason | None,
        publish: Publish,
        renew: Renew,
    ) -> StopReason | None:
        """The stop reason to end DONE with, or None: not settled yet, hand over.

        A run stopped by a cap makes no further calls, pairwise ones included; a run decided
        early (sequential stopping) judges every case it dispatched.
        """
        if stop_reason not in (None, StopReason.COMPLETED, StopReason.DECIDED_EARLY):
            return stop_reason
        work = await self._load(comparison_id)
        if work is None:
            return stop_reason
        if work.orphans or work.to_skip:
            await self._close(comparison_id, token, work)
        if not work.to_judge:
            return stop_reason
        try:
            judge = open_judge(
                connection=work.connection,
                config=work.config,
                rubric=work.rubric,
                secrets=self.secrets,
                timeout_seconds=self.timeout_seconds,
            )
        except JudgeUnavailable:
            judge = None
        began = time.monotonic()
        try:
            for low in range(0, len(work.to_judge), SLICE):
                if low and time.monotonic() - began > self.budget_seconds:
                    return None
                await renew()
                stop = await self._stop(comparison_id, token, work.connection)
                if stop is not None:
                    return stop
                part = work.to_judge[low : low + SLICE]
                await self._admit(comparison_id, token, work.connection.id, [k for k, _ in part])
                judged = await _judge(judge, part, str(work.config.get("model") or ""))
                await publish(await self._record(comparison_id, token, judged))
        finally:
            if judge is not None:
                await judge.aclose()
        return stop_reason

    async def _load(self, comparison_id: str) -> _Work | None:
        async with self.sessionmaker() as session:
            comparison = await session.get(Comparison, comparison_id)
            if comparison is None or comparison.pairwise is None:
                return None
            config = await session.get(
                AssetVersion, comparison.pairwise["judgeModelConfigVersionId"]
            )
            rubric = await session.get(AssetVersion, comparison.pairwise["rubricVersionId"])
            assert config is not None and rubric is not None
            connection = await session.get(ModelConnection, str(config.content["connectionId"]))
            assert connection is not None
            cohorts = int(
                await session.scalar(
                    select(func.count())
                    .select_from(ComparisonCohort)
                    .where(ComparisonCohort.comparison_id == comparison_id)
                )
                or 0
            )
            recorded = {
                (b, c, t): state
                for b, c, t, state in await session.execute(
                    select(
                        ComparisonPairJudgment.baseline_cohort_index,
                        ComparisonPairJudgment.case_ordinal,
                        ComparisonPairJudgment.trial_index,
                        ComparisonPairJudgment.state,
                    ).where(ComparisonPairJudgment.comparison_id == comparison_id)
                )
            }
            trials = await _trials(session, comparison_id)
            inputs = await _case_inputs(session, comparison_id)
        to_judge, to_skip = [], []
        for (case, trial), outputs in sorted(trials.items()):
            candidate = outputs.get(0)
            for baseline in range(1, cohorts):
                key = (baseline, case, trial)
                other = outputs.get(baseline)
                if key in recorded or candidate is None or other is None:
                    continue  # settled before, or never dispatched (the run stopped)
                if candidate[0] and other[0]:
                    to_judge.append((key, PairInput(inputs.get(case), other[1], candidate[1])))
                else:
                    to_skip.append(key)
        orphans = [k for k, state in recorded.items() if state == JudgmentState.ADMITTED]
        return _Work(
            comparison, connection, config.content, rubric.content, to_judge, to_skip, orphans
        )

    async def _close(self, comparison_id: str, token: int, work: _Work) -> None:
        """SKIPPED pairs settle their calls; orphans fail, never re-sent."""
        failure = PairFailure(
            error_class=AMBIGUOUS,
            retryable=False,
            attempts=1,
            message="the judge calls were sent but their outcome was never recorded (not re-sent)",
            model=str(work.config.get("model") or ""),
        ).as_json()
        now = utcnow()
        async with self.sessionmaker() as session, session.begin():
            comparison = await store.lock(session, comparison_id, token)
            for key in work.orphans:
                for order in (FORWARD, REVERSE):
                    row = await session.get(ComparisonPairJudgment, (comparison_id, *key, order))
                    if row is not None and row.state == JudgmentState.ADMITTED:
                        row.state, row.failure, row.completed_at = (
                            JudgmentState.ERRORED,
                            failure,
                            now,
                        )
            if work.to_skip:
                await session.execute(
                    insert(ComparisonPairJudgment),
                    _rows(comparison_id, work.connection.id, work.to_skip, JudgmentState.SKIPPED),
                )
            await counters.recompute(session, comparison)

    async def _stop(
        self, comparison_id: str, token: int, connection: ModelConnection
    ) -> StopReason | None:
        async with self.sessionmaker() as session, session.begin():
            comparison = await store.lock(session, comparison_id, token)
            if comparison.budget_cap_micros is not None and (
                comparison.spent_micros >= comparison.budget_cap_micros
            ):
                return StopReason.BUDGET_CAP
            cap = connection.monthly_cap_micros
            if cap is not None:
                spent = await spend.month_to_date_spend(session, [connection.id])
                if spent[connection.id] >= cap:
                    return StopReason.CONNECTION_CAP
            experiment = await session.get(Experiment, comparison.experiment_id)
            if experiment is not None and experiment.daily_budget_micros is not None:
                today = await spend.experiment_spend_today(session, experiment.id)
                if today >= experiment.daily_budget_micros:
                    return StopReason.DAILY_BUDGET
        return None

    async def _admit(
        self, comparison_id: str, token: int, connection_id: str, keys: Sequence[Key]
    ) -> None:
        """The checkpoint, committed before any of these calls is sent."""
        async with self.sessionmaker() as session, session.begin():
            await store.lock(session, comparison_id, token)
            await session.execute(
                insert(ComparisonPairJudgment),
                _rows(comparison_id, connection_id, keys, JudgmentState.ADMITTED),
            )

    async def _record(
        self,
        comparison_id: str,
        token: int,
        judged: Sequence[tuple[Key, PairJudgment, int]],
    ) -> Progress:
        now = utcnow()
        async with self.sessionmaker() as session, session.begin():
            comparison = await store.lock(session, comparison_id, token)
            by_connection: dict[str, int] = {}
            for key, judgment, cost in judged:
                failure = None if judgment.failure is None else judgment.failure.as_json()
                for order, score, share in (
                    (FORWARD, judgment.forward, cost - cost // 2),
                    (REVERSE, judgment.reverse, cost // 2),
                ):
                    row = await session.get(ComparisonPairJudgment, (comparison_id, *key, order))
                    assert row is not None
                    row.state = JudgmentState.ERRORED if failure else JudgmentState.DONE
                    row.score, row.failure, row.cost_micros, row.completed_at = (
                        score,
                        failure,
                        share,
                        now,
                    )
                    spent = by_connection.get(row.connection_id, 0)
                    by_connection[row.connection_id] = spent + share
            # The caps dispatch reads are ledgers: judge spend goes in with the judgments.
            await ledgers.add(
                session,
                experiment_id=comparison.experiment_id,
                by_connection=by_connection,
                now=now,
            )
            return await counters.recompute(session, comparison)


async def _judge(
    judge: OpenJudge | None, part: Sequence[tuple[Key, PairInput]], model: str
) -> list[tuple[Key, PairJudgment, int]]:
    """Each pair in both orders, at most the connection's concurrency at once; its cost."""
    if judge is None:
        failure = PairFailure(
            UNAVAILABLE, False, 0, "the judge's connection cannot be called", model
        )
        return [(key, PairJudgment(None, None, failure), 0) for key, _ in part]
    gate = asyncio.Semaphore(judge.concurrency)

    async def one(key: Key, pair: PairInput) -> tuple[Key, PairJudgment, int]:
        meter = SpendMeter(judge.meter.prices)
        base = judge.judge.complete

        async def complete(messages: list[dict[str, str]]) -> str:
            reply = await base(messages)
            meter.add(messages, reply)
            return reply

        async with gate:
            judgment = await dataclasses.replace(judge.judge, complete=complete).judge(pair)
        return key, judgment, meter.micros

    return list(await asyncio.gather(*(one(key, pair) for key, pair in part)))


def _rows(
    comparison_id: str, connection_id: str, keys: Sequence[Key], state: JudgmentState
) -> list[dict[str, Any]]:
    return [
        {
            "comparison_id": comparison_id,
            "baseline_cohort_index": baseline,
            "case_ordinal": case,
            "trial_index": trial,
            "order": order,
            "state": state,
            "connection_id": connection_id,
            "cost_micros": 0,
            "completed_at": None if state == JudgmentState.ADMITTED else utcnow(),
        }
        for baseline, case, trial in keys
        for order in (FORWARD, REVERSE)
    ]


async def _trials(
    session: AsyncSession, comparison_id: str
) -> dict[tuple[int, int], dict[int, tuple[bool, Any]]]:
    """(case, trial) → cohort → (completed, output)."""
    found: dict[tuple[int, int], dict[int, tuple[bool, Any]]] = {}
    rows = await session.execute(
        select(
            Trial.case_ordinal, Trial.trial_index, Trial.cohort_index, Trial.state, Trial.output
        ).where(Trial.comparison_id == comparison_id)
    )
    for case, trial, cohort, state, output in rows:
        found.setdefault((case, trial), {})[cohort] = (state == TrialState.COMPLETED, output)
    return found


async def _case_inputs(session: AsyncSession, comparison_id: str) -> dict[int, Any]:
    rows = await session.execute(
        select(ComparisonCase.ordinal, DatasetCase.input)
        .join(DatasetCase, DatasetCase.id == ComparisonCase.dataset_case_id)
        .where(ComparisonCase.comparison_id == comparison_id)
    )
    return {int(ordinal): case_input for ordinal, case_input in rows}
