"""Sequential stopping through the API (SPEC §4 "Sequential stopping", issue 21): the option
and its checks, the preview, the seeded case order, a clear regression decided early, two
identical cohorts never called different, and a cancel during a sequential run."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import random

import numpy as np
import pytest
from sqlalchemy import select

from server.comparisons import lifecycle
from server.comparisons.dispatch_plan import DispatchPlan, WorkItem
from server.comparisons.dispatch_store import TrialOutcome
from server.comparisons.models import Comparison, ComparisonCase, Trial, TrialState
from server.comparisons.stopping import StoppingRule, StoppingSpec
from server.datasets.models import DatasetCase
from server.workspaces.roles import Role
from tests.factories import actor_for, make_comparison, make_comparison_setup, make_workspace
from tests.fakes.openai_server import Behaviour, FakeOpenAI
from tests.harness import Backend
from tests.server.comparisons.documents import CANCEL
from tests.server.comparisons.test_dispatch import (
    create,
    openai_setup,
    partial_cases,
    start,
    status,
    trial_rows,
    trials_of,
    wait_terminal,
)
from tests.server.comparisons.test_dispatch_lease import HeldQueue, Trials
from tests.server.comparisons.test_dispatch_ranges import TRIALS as RANGE_TRIALS
from tests.server.comparisons.test_dispatch_ranges import _between_sweeps
from tests.server.comparisons.test_dispatch_ranges import _dispatcher as range_dispatcher
from tests.server.reports.api import finalized_comparison
from tests.server.verdicts.scenarios import (
    CREATE,
    run_comparison,
    scripted_setup,
    wait_finalized,
)
from tests.stats.betting_reference import reference_betting_cs

CASES = 300
SEED = 12345
STOPPING = {"rule": "ANYTIME_VALID", "minCases": 50, "lookEveryCases": 25, "caseOrderSeed": SEED}
PREVIEW = """
query($input: CreateComparisonInput!) { comparisonPreview(input: $input) {
  totalCalls mayStopEarly canStart warnings { code message } } }
"""
SEQUENTIAL = """
query($id: ID!) { comparison(id: $id) {
  status stopReason caseCount progress { doneCalls totalCalls }
  stopping { rule alpha minCases lookEveryCases caseOrderSeed looks decidedEarly
             stoppedAtCases callsSaved caseCount note }
  scorecard { usableCases casesNotRun
    stopping { rule alpha looks decidedEarly stoppedAtCases callsSaved caseOrderSeed note }
    significance { baselineCohortIndex method pValue adjustedPValue significant decides }
    verdicts { baselineCohortIndex outcome reason passRateDeltaPoints deltaLow deltaHigh
               outsideNoise decidedEarlyAtCases summary } } } }
"""
RERUN = """
mutation($id: ID!, $stopping: StoppingInput) { rerunComparison(id: $id, stopping: $stopping) {
  id stopping { rule caseOrderSeed minCases } } }
"""


def _regression(cases: int) -> list[list[str]]:
    """A 15-point regression: the baseline passes 90% of cases, the candidate fails a sixth
    of those (and passes none of the others)."""
    rng = random.Random(5)
    baseline, candidate = [], []
    for _ in range(cases):
        base = rng.random() < 0.9
        cand = base and rng.random() >= 1 / 6
        baseline.append("P" if base else "F")
        candidate.append("P" if cand else "F")
    return [candidate, baseline]


async def _sequence_inputs(backend: Backend, comparison_id: str, upto: int) -> list[float]:
    """Candidate − baseline pass fractions of the usable cases 0 … upto−1, in case order."""
    async with backend.sessionmaker() as session:
        rows = (
            await session.execute(
                select(Trial.case_ordinal, Trial.cohort_index, Trial.state, Trial.passed).where(
                    Trial.comparison_id == comparison_id, Trial.case_ordinal < upto
                )
            )
        ).all()
    passed = np.zeros((2, upto))
    completed = np.zeros((2, upto))
    for ordinal, cohort, state, ok in rows:
        if state == TrialState.COMPLETED:
            completed[cohort, ordinal] += 1
            passed[cohort, ordinal] += bool(ok)
    usable = (completed > 0).all(axis=0)
    fractions = passed[:, usable] / completed[:, usable]
    return list(fractions[0] - fractions[1])


async def _case_order(backend: Backend, comparison_id: str) -> list[int]:
    """The dataset ordinal of each frozen case, in dispatch (ordinal) order."""
    async with backend.sessionmaker() as session:
        rows = await session.scalars(
            select(DatasetCase.ordinal)
            .join(ComparisonCase, ComparisonCase.dataset_case_id == DatasetCase.id)
            .where(ComparisonCase.comparison_id == comparison_id)
            .order_by(ComparisonCase.ordinal)
        )
        return list(rows)


@pytest.mark.parametrize(
    ("field", "value"),
    [("alpha", 0.0), ("alpha", 0.25), ("minCases", 19), ("lookEveryCases", 0)],
)
async def test_the_option_is_checked_on_create_preview_and_rerun(
    backend: Backend, field: str, value: float
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    setup = await scripted_setup(backend.sessionmaker, ws, [["P"] * 30, ["F"] * 30])
    member = ws.tokens[Role.MEMBER]
    bad = setup.input(stopping={**STOPPING, field: value})
    for query in (CREATE, PREVIEW):
        result = await backend.gql(query, {"input": bad}, token=member)
        assert result.codes == ["VALIDATION_FAILED"], result.errors
        assert f"stopping.{field}" in result.errors[0]["message"]
    comparison_id = await create(backend, member, setup.input())
    result = await backend.gql(
        RERUN, {"id": comparison_id, "stopping": {**STOPPING, field: value}}, token=member
    )
    assert result.codes == ["VALIDATION_FAILED"], result.errors


async def test_the_preview_says_it_may_stop_early_and_the_most_it_can_cost(
    backend: Backend,
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    setup = await scripted_setup(backend.sessionmaker, ws, [["P"] * 40, ["F"] * 40])
    member = ws.tokens[Role.MEMBER]
    plain = (await backend.gql(PREVIEW, {"input": setup.input()}, token=member)).ok()
    assert plain["comparisonPreview"]["mayStopEarly"] is False
    assert "MAY_STOP_EARLY" not in [w["code"] for w in plain["comparisonPreview"]["warnings"]]
    spec = setup.input(trialsPerCase=3, stopping={"rule": "ANYTIME_VALID"})
    preview = (await backend.gql(PREVIEW, {"input": spec}, token=member)).ok()
    shown = preview["comparisonPreview"]
    assert shown["mayStopEarly"] is True and shown["totalCalls"] == 240
    [note] = [w["message"] for w in shown["warnings"] if w["code"] == "MAY_STOP_EARLY"]
    assert "may stop early" in note and "At most 240 calls" in note
    assert "every 50 cases from 100" in note


async def test_a_clear_regression_stops_early_and_the_verdict_rests_on_the_sequence(
    backend: Backend,
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    setup = await scripted_setup(backend.sessionmaker, ws, _regression(CASES))
    member = ws.tokens[Role.MEMBER]
    comparison_id = await run_comparison(
        backend, member, setup.input(trialsPerCase=1, stopping=STOPPING)
    )
    await wait_finalized(backend, member, comparison_id)
    shown = (await backend.gql(SEQUENTIAL, {"id": comparison_id}, token=member)).ok()
    comparison = shown["comparison"]
    assert (comparison["status"], comparison["stopReason"]) == ("DONE", "DECIDED_EARLY")
    stopping = comparison["stopping"]
    assert stopping["rule"] == "ANYTIME_VALID" and stopping["caseOrderSeed"] == SEED
    assert stopping["decidedEarly"] is True
    stopped_at = stopping["stoppedAtCases"]
    assert stopped_at in range(50, CASES, 25)
    assert stopping["looks"] == (stopped_at - 50) // 25 + 1
    progress = comparison["progress"]
    assert progress["totalCalls"] == 2 * CASES
    assert progress["doneCalls"] < progress["totalCalls"], "fewer calls than planned"
    assert stopping["callsSaved"] == progress["totalCalls"] - progress["doneCalls"]
    assert stopping["note"] == f"Decided early at {stopped_at} of {CASES} cases."

    scorecard = comparison["scorecard"]
    assert scorecard["stopping"]["stoppedAtCases"] == stopped_at
    assert scorecard["stopping"]["callsSaved"] == stopping["callsSaved"]
    assert scorecard["casesNotRun"] == CASES - progress["doneCalls"] // 2 > 0
    [verdict] = scorecard["verdicts"]
    assert verdict["outcome"] == "REGRESSED" and verdict["outsideNoise"] is True
    assert verdict["reason"] == "CONFIDENCE_SEQUENCE"
    assert verdict["decidedEarlyAtCases"] == stopped_at
    assert verdict["summary"].startswith("Regressed vs ")
    assert verdict["summary"].endswith(f", decided early at {stopped_at} of {CASES} cases")
    deciding = [s for s in scorecard["significance"] if s["decides"]]
    assert [s["method"] for s in deciding] == ["CONFIDENCE_SEQUENCE"]
    assert deciding[0]["significant"] is True
    beside = {s["method"] for s in scorecard["significance"] if not s["decides"]}
    assert {"MCNEMAR_MID_P", "Z_TEST"} <= beside, "the fixed-n rows are shown, never deciding"

    # The bounds are the sequence of the recorded trials in case order at the stop.
    x = await _sequence_inputs(backend, comparison_id, stopped_at)
    low, high = reference_betting_cs(x, 0.05)
    assert verdict["deltaLow"] == pytest.approx(low[-1] * 100, abs=1e-9)
    assert verdict["deltaHigh"] == pytest.approx(high[-1] * 100, abs=1e-9)
    assert high[-1] < -0.01
    # and the look before it (if any) had not decided: the stop is the first decided look
    if stopped_at > 50:
        earlier = await _sequence_inputs(backend, comparison_id, stopped_at - 25)
        _, high_before = reference_betting_cs(earlier, 0.05)
        assert high_before[-1] >= -0.01


async def test_identical_cohorts_stop_for_no_change_or_run_to_the_end(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    rng = random.Random(9)
    same = ["P" if rng.random() < 0.8 else "F" for _ in range(CASES)]
    setup = await scripted_setup(backend.sessionmaker, ws, [same, same])
    member = ws.tokens[Role.MEMBER]
    comparison_id = await run_comparison(
        backend, member, setup.input(trialsPerCase=1, stopping=STOPPING)
    )
    await wait_finalized(backend, member, comparison_id)
    comparison = (await backend.gql(SEQUENTIAL, {"id": comparison_id}, token=member)).ok()[
        "comparison"
    ]
    [verdict] = comparison["scorecard"]["verdicts"]
    assert verdict["outcome"] not in ("REGRESSED", "IMPROVED")
    if comparison["stopReason"] == "DECIDED_EARLY":
        assert verdict["outcome"] == "NO_CHANGE"
        assert -5 <= verdict["deltaLow"] <= verdict["deltaHigh"] <= 5
        # all differences are 0: the sequence is within ±5 points at 150 cases (100 is too few)
        assert comparison["stopping"]["stoppedAtCases"] == 150
    else:
        assert comparison["stopReason"] == "COMPLETED"
        assert verdict["summary"].endswith("; ran to the end without an early decision")


async def _sequential_run_order(backend: Backend) -> tuple[str, str, list[int]]:
    ws = await make_workspace(backend.sessionmaker)
    setup = await scripted_setup(backend.sessionmaker, ws, [["P"] * 60, ["F"] * 60])
    member = ws.tokens[Role.MEMBER]
    comparison_id = await create(
        backend, member, setup.input(stopping={**STOPPING, "minCases": 20})
    )
    return member, comparison_id, await _case_order(backend, comparison_id)


async def test_the_seeded_case_order_is_stored_shown_and_kept_by_a_rerun(
    backend: Backend,
) -> None:
    member, comparison_id, order = await _sequential_run_order(backend)
    assert sorted(order) == list(range(60)) and order != sorted(order)
    again = (await backend.gql(RERUN, {"id": comparison_id}, token=member)).ok()
    copy = again["rerunComparison"]
    assert copy["stopping"] == {"rule": "ANYTIME_VALID", "caseOrderSeed": SEED, "minCases": 20}
    assert await _case_order(backend, copy["id"]) == order
    # a rerun with another seed reorders the same cases; NONE runs them in dataset order
    other = {**STOPPING, "caseOrderSeed": SEED + 1}
    reordered = (
        await backend.gql(RERUN, {"id": comparison_id, "stopping": other}, token=member)
    ).ok()["rerunComparison"]
    moved = await _case_order(backend, reordered["id"])
    assert sorted(moved) == list(range(60)) and moved != order
    plain = (
        await backend.gql(RERUN, {"id": comparison_id, "stopping": {"rule": "NONE"}}, token=member)
    ).ok()["rerunComparison"]
    assert plain["stopping"] is None
    assert await _case_order(backend, plain["id"]) == list(range(60))


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
    while (await status(backend, member, comparison_id))["progress"]["doneCalls"] < 4:
        await asyncio.sleep(0.05)
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


def test_the_regression_script_is_about_15_points() -> None:
    candidate, baseline = _regression(CASES)
    delta = (candidate.count("P") - baseline.count("P")) / CASES
    assert -0.19 < delta < -0.11
    assert all(c == "F" or b == "P" for c, b in zip(candidate, baseline, strict=True))


async def test_the_report_and_its_page_show_the_stop(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    f = await finalized_comparison(
        backend, _regression(CASES), ws=ws, stopping=STOPPING, label="sequential"
    )
    report = await f.generate()
    doc = json.loads(report["document"])
    stopping = doc["summary"]["stopping"]
    assert stopping["decidedEarly"] is True and stopping["caseOrderSeed"] == SEED
    at = stopping["stoppedAtCases"]
    assert doc["scorecard"]["stopping"] == stopping
    [chip] = doc["summary"]["chips"]
    assert chip["text"].endswith(f"decided early at {at} of {CASES} cases")
    owner = ws.tokens[Role.OWNER]
    page = await backend.client.get(
        report["pagePath"], headers={"Authorization": f"Bearer {owner}"}
    )
    assert page.status_code == 200
    assert f"Decided early at {at} of {CASES} cases." in page.text
    assert "The verdict rests on the confidence sequence" in page.text


async def test_a_sequential_holdout_comparison_counts_one_look_at_the_holdout(
    backend: Backend,
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    setup = await scripted_setup(backend.sessionmaker, ws, _regression(CASES), split="HOLDOUT")
    member = ws.tokens[Role.MEMBER]
    spec = setup.input(split="HOLDOUT", trialsPerCase=1, stopping={**STOPPING, "lookEveryCases": 5})
    comparison_id = await run_comparison(backend, member, spec)
    await wait_finalized(backend, member, comparison_id)
    query = """query($id: ID!) { comparison(id: $id) { stopReason stopping { looks }
      datasetVersion { holdoutLooks } } }"""
    shown = (await backend.gql(query, {"id": comparison_id}, token=member)).ok()["comparison"]
    assert shown["stopReason"] == "DECIDED_EARLY" and shown["stopping"]["looks"] >= 1
    assert shown["datasetVersion"]["holdoutLooks"] == 1


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
    await _between_sweeps()
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
