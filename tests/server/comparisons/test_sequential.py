"""Sequential stopping through the API (docs/statistics.md "Sequential stopping"): the option
and its checks, the preview, the seeded case order, a clear regression decided early on
the sequence (the numbers recomputed here by an independent implementation), two identical
cohorts never called different, two baselines, the holdout's one look and the report.
During dispatch (a cancel, case ranges): test_sequential_dispatch.py."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest
from sqlalchemy import select

from bench.kit.factories import make_workspace
from bench.kit.harness import Backend
from bench.kit.scenarios import (
    CREATE,
    run_comparison,
    scripted_setup,
    wait_finalized,
)
from server.comparisons.models import ComparisonCase, Trial, TrialState
from server.datasets.models import DatasetCase
from server.workspaces.roles import Role
from tests.server.dispatch.api import create
from tests.server.reports.api import finalized_comparison
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


def regression_tensor(cases: int) -> list[list[str]]:
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


async def sequence_inputs(
    backend: Backend, comparison_id: str, upto: int, *, cohorts: int = 2, baseline: int = 1
) -> list[float]:
    """Candidate − baseline pass fractions of the usable cases 0 … upto−1, in case order."""
    async with backend.sessionmaker() as session:
        rows = (
            await session.execute(
                select(Trial.case_ordinal, Trial.cohort_index, Trial.state, Trial.passed).where(
                    Trial.comparison_id == comparison_id, Trial.case_ordinal < upto
                )
            )
        ).all()
    passed = np.zeros((cohorts, upto))
    completed = np.zeros((cohorts, upto))
    for ordinal, cohort, state, ok in rows:
        if state == TrialState.COMPLETED:
            completed[cohort, ordinal] += 1
            passed[cohort, ordinal] += bool(ok)
    usable = (completed > 0).all(axis=0)
    fractions = passed[:, usable] / completed[:, usable]
    return list(fractions[0] - fractions[baseline])


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
    setup = await scripted_setup(backend.sessionmaker, ws, regression_tensor(CASES))
    member = ws.tokens[Role.MEMBER]
    comparison_id = await run_comparison(
        backend, member, setup.input(trialsPerCase=1, stopping=STOPPING), background=True
    )
    await wait_finalized(backend, member, comparison_id, timeout=120)
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
    x = await sequence_inputs(backend, comparison_id, stopped_at)
    low, high = reference_betting_cs(x, 0.05)
    assert verdict["deltaLow"] == pytest.approx(low[-1] * 100, abs=1e-9)
    assert verdict["deltaHigh"] == pytest.approx(high[-1] * 100, abs=1e-9)
    assert high[-1] < -0.01
    # and the look before it (if any) had not decided: the stop is the first decided look
    if stopped_at > 50:
        earlier = await sequence_inputs(backend, comparison_id, stopped_at - 25)
        _, high_before = reference_betting_cs(earlier, 0.05)
        assert high_before[-1] >= -0.01


async def test_identical_cohorts_stop_for_no_change_or_run_to_the_end(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    rng = random.Random(9)
    same = ["P" if rng.random() < 0.8 else "F" for _ in range(CASES)]
    setup = await scripted_setup(backend.sessionmaker, ws, [same, same])
    member = ws.tokens[Role.MEMBER]
    comparison_id = await run_comparison(
        backend, member, setup.input(trialsPerCase=1, stopping=STOPPING), background=True
    )
    await wait_finalized(backend, member, comparison_id, timeout=120)
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


def test_the_regression_script_is_about_15_points() -> None:
    candidate, baseline = regression_tensor(CASES)
    delta = (candidate.count("P") - baseline.count("P")) / CASES
    assert -0.19 < delta < -0.11
    assert all(c == "F" or b == "P" for c, b in zip(candidate, baseline, strict=True))


async def test_the_report_and_its_page_show_the_stop(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    f = await finalized_comparison(
        backend, regression_tensor(CASES), ws=ws, stopping=STOPPING, label="sequential"
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
    setup = await scripted_setup(
        backend.sessionmaker, ws, regression_tensor(CASES), split="HOLDOUT"
    )
    member = ws.tokens[Role.MEMBER]
    spec = setup.input(split="HOLDOUT", trialsPerCase=1, stopping={**STOPPING, "lookEveryCases": 5})
    comparison_id = await run_comparison(backend, member, spec, background=True)
    await wait_finalized(backend, member, comparison_id, timeout=120)
    query = """query($id: ID!) { comparison(id: $id) { stopReason stopping { looks }
      datasetVersion { holdoutLooks } } }"""
    shown = (await backend.gql(query, {"id": comparison_id}, token=member)).ok()["comparison"]
    assert shown["stopReason"] == "DECIDED_EARLY" and shown["stopping"]["looks"] >= 1
    assert shown["datasetVersion"]["holdoutLooks"] == 1


async def test_two_baselines_each_get_half_the_error_rate(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    candidate, baseline = regression_tensor(CASES)
    setup = await scripted_setup(backend.sessionmaker, ws, [candidate, baseline, baseline])
    member = ws.tokens[Role.MEMBER]
    comparison_id = await run_comparison(
        backend, member, setup.input(trialsPerCase=1, stopping=STOPPING), background=True
    )
    await wait_finalized(backend, member, comparison_id, timeout=120)
    comparison = (await backend.gql(SEQUENTIAL, {"id": comparison_id}, token=member)).ok()[
        "comparison"
    ]
    assert comparison["stopReason"] == "DECIDED_EARLY"
    stopped_at = comparison["stopping"]["stoppedAtCases"]
    verdicts = comparison["scorecard"]["verdicts"]
    assert [v["outcome"] for v in verdicts] == ["REGRESSED", "REGRESSED"]
    for verdict in verdicts:
        b = verdict["baselineCohortIndex"]
        x = await sequence_inputs(backend, comparison_id, stopped_at, cohorts=3, baseline=b)
        low, high = reference_betting_cs(x, 0.05 / 2)
        assert verdict["deltaLow"] == pytest.approx(low[-1] * 100, abs=1e-9)
        assert verdict["deltaHigh"] == pytest.approx(high[-1] * 100, abs=1e-9)
