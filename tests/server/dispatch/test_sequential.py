"""Sequential stopping during dispatch (issue 21): a cancel behaves as ever, and two
deliveries over case ranges stop together on whole cases."""

from __future__ import annotations

import asyncio
import dataclasses

import pytest

from bench.kit.factories import actor_for, make_comparison, make_comparison_setup, make_workspace
from bench.kit.harness import Backend
from bench.kit.openai_server import Behaviour, FakeOpenAI
from bench.kit.waiting import eventually
from server.comparisons import lifecycle
from server.comparisons.models import Comparison, TrialState
from server.comparisons.stopping import StoppingRule, StoppingSpec
from server.dispatch.outcomes import TrialOutcome
from server.dispatch.plan import DispatchPlan, WorkItem
from server.workspaces.roles import Role
from tests.server.comparisons.documents import CANCEL
from tests.server.comparisons.test_sequential import SEQUENTIAL, STOPPING
from tests.server.dispatch.api import (
    between_sweeps,
    create,
    openai_setup,
    partial_cases,
    start,
    status,
    trial_rows,
    trials_of,
    wait_terminal,
)
from tests.server.dispatch.by_hand import HeldQueue, Trials, range_dispatcher


async def test_a_cancel_during_a_sequential_run_behaves_as_ever(
    backend: Backend, fake_openai: FakeOpenAI
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    setup = await openai_setup(backend, fake_openai, ws, cases=40, max_concurrency=4)
    fake_openai.behaviour = Behaviour(delay_seconds=0.3)
    member = ws.tokens[Role.MEMBER]
    spec = setup.input(trialsPerCase=2, stopping={**STOPPING, "minCases": 20})
    comparison_id = await create(backend, member, spec)
    await start(backend, member, comparison_id)
    await eventually(
        lambda: status(backend, member, comparison_id),
        until=lambda s: s["progress"]["doneCalls"] >= 4,
        what="4 calls done",
    )
    cancelled = (await backend.gql(CANCEL, {"id": comparison_id}, token=member)).ok()
    admitted_at_cancel = sum((await trial_rows(backend, comparison_id)).values())
    assert cancelled["cancelComparison"]["status"] == "CANCELLED"
    ended = await wait_terminal(backend, member, comparison_id)
    rows = await trial_rows(backend, comparison_id)
    assert (ended["status"], ended["stopReason"]) == ("CANCELLED", None)
    assert sum(rows.values()) == admitted_at_cancel < 40 * 2 * 2
    assert rows.get("ADMITTED", 0) == 0
    shown = (await backend.gql(SEQUENTIAL, {"id": comparison_id}, token=member)).ok()
    stopping = shown["comparison"]["stopping"]
    assert stopping["decidedEarly"] is False and stopping["callsSaved"] is None
    assert shown["comparison"]["scorecard"] is None


RANGE_TRIALS = 2




class _Regressed:
    """Stand-in trials: the candidate fails every fifth case in case order (a 20-point
    regression); everything else passes."""

    def __init__(self) -> None:
        self.trials = Trials(seconds=0.01)

    async def __call__(
        self, plan: DispatchPlan, item: WorkItem, trial_id: int, delivery_id: str
    ) -> TrialOutcome:
        outcome = await self.trials(plan, item, trial_id, delivery_id)
        fails = item.cohort_index == 0 and item.case_ordinal % 5 == 0
        return dataclasses.replace(outcome, passed=not fails)


async def test_two_deliveries_over_case_ranges_stop_together_on_whole_cases(
    backend: Backend,
) -> None:
    if backend.name == "sqlite":
        pytest.skip("deliveries of one comparison run at once on PostgreSQL")
    await between_sweeps()
    queue = HeldQueue()
    ws = await make_workspace(backend.sessionmaker)
    setup = await make_comparison_setup(backend.sessionmaker, ws, cases=200)
    sequential = StoppingSpec(StoppingRule.ANYTIME_VALID, min_cases=40, look_every_cases=20)
    comparison_id = await make_comparison(
        backend.sessionmaker, setup, trials=RANGE_TRIALS, stopping=sequential
    )
    await lifecycle.start(
        sessionmaker=backend.sessionmaker,
        events=backend.state.events,
        queue=queue,
        actor=actor_for(ws, Role.MEMBER),
        comparison_id=comparison_id,
    )
    trials = _Regressed()
    first = range_dispatcher(backend, comparison_id, trials, queue)
    second = range_dispatcher(backend, comparison_id, trials, queue)

    outcomes = await asyncio.gather(first.run(), second.run())

    assert sorted(outcomes) == ["done here", "done: DECIDED_EARLY"]
    rows = await trials_of(backend, comparison_id)
    per_case = 2 * RANGE_TRIALS
    assert 0 < len(rows) < 200 * per_case, "fewer calls than planned"
    assert {t.state for t in rows} == {TrialState.COMPLETED}, "in-flight calls recorded"
    assert {t.delivery_id for t in rows} == {first.delivery_id, second.delivery_id}
    assert partial_cases(rows, per_case=per_case) == [], "a stop never splits a case"
    async with backend.sessionmaker() as session:
        row = await session.get(Comparison, comparison_id)
        assert row is not None and row.looks is not None
        assert (row.status, row.stop_reason) == ("DONE", "DECIDED_EARLY")
        stopped_at = row.looks["stopped_at_cases"]
    assert stopped_at in range(40, 200, 20)
    assert max(t.case_ordinal for t in rows) >= stopped_at - 1
