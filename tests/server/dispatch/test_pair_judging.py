"""The `pairwise` option of a comparison: its judge calls run after the trials (both
orders, neutral names), count in preview, progress and spend, and each baseline's result
is `scorecard.verdicts[].pairwise` — every statistic recomputed here."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from sqlalchemy import select

from bench.kit.factories import make_comparison_setup, make_workspace
from bench.kit.harness import Backend
from bench.kit.scenarios import wait_finalized
from server.comparisons.models import (
    FORWARD,
    REVERSE,
    Comparison,
    ComparisonPairJudgment,
    JudgmentState,
    StopReason,
)
from server.connections.service import Simulation
from server.dispatch.pair_judging import Stage
from server.workspaces.roles import Role
from tests.fakes.judge_server import FakeJudge
from tests.server.run_pairs.api import RESULT_FIELDS, judge_versions
from tests.server.run_pairs.test_run_pairs import SCORES, judge_calls, sign_flip_p, t_interval

CASES = 8
TRIALS = 2
GAP = [0, 0, 2, 2, 1, -1, 2, 0]
"""Candidate (cohort 0) quality minus baseline (cohort 1) quality, per case."""
PREVIEW = "query($i: CreateComparisonInput!) { comparisonPreview(input: $i) { totalCalls } }"
CREATE = "mutation($i: CreateComparisonInput!) { createComparison(input: $i) { id } }"
START = """mutation($id: ID!) { startComparison(id: $id, background: false) {
  status stopReason spentCentsSoFar progress { doneCalls totalCalls failedCalls percent }
} }"""
VERDICTS = (
    "query($id: ID!) { comparison(id: $id) { scorecard { verdicts { baselineCohortIndex "
    "pairwise {" + RESULT_FIELDS + "} } } } }"
)


def script() -> dict[str, Any]:
    """Each case's answer per model: its quality, which only the judge reads."""
    return {
        f"q-{i:03d}": {
            "models": {
                "model-0": f"reply {i} quality={3 + GAP[i]}",
                "model-1": f"reply {i} quality=3",
            }
        }
        for i in range(CASES)
    }


async def test_pairwise_judge_calls_are_counted_and_give_each_baseline_a_result(
    backend: Backend, judge: FakeJudge
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    setup = await make_comparison_setup(
        backend.sessionmaker, ws, cases=CASES, simulation=Simulation(script=script())
    )
    rubric, config = await judge_versions(backend, ws, judge)
    token = ws.tokens[Role.MEMBER]
    spec = setup.input(
        trialsPerCase=TRIALS,
        pairwise={"rubricVersionId": rubric, "judgeModelConfigVersionId": config},
    )
    trials = CASES * TRIALS * 2
    judge_total = CASES * TRIALS * 2  # one baseline, both orders
    preview = (await backend.gql(PREVIEW, {"i": spec}, token=token)).ok()["comparisonPreview"]
    assert preview["totalCalls"] == trials + judge_total
    comparison_id = (await backend.gql(CREATE, {"i": spec}, token=token)).ok()["createComparison"][
        "id"
    ]
    ended = (await backend.gql(START, {"id": comparison_id}, token=token)).ok()["startComparison"]
    assert ended["status"] == "DONE" and ended["stopReason"] == "COMPLETED"
    progress = ended["progress"]
    assert progress["doneCalls"] == progress["totalCalls"] == trials + judge_total
    assert progress["percent"] == 100.0 and progress["failedCalls"] == 0
    assert ended["spentCentsSoFar"] > 0, "the simulated cohorts are free: this is the judge"
    calls = judge_calls(judge)
    assert len(calls) == judge_total, "each (case, trial) pair judged once in each order"
    for request in calls:  # neutral names only
        text = str(request.body)
        assert "model-0" not in text and "model-1" not in text and comparison_id not in text
    async with backend.sessionmaker() as session:
        states = list(
            await session.scalars(
                select(ComparisonPairJudgment.state).where(
                    ComparisonPairJudgment.comparison_id == comparison_id
                )
            )
        )
    assert states == [JudgmentState.DONE] * judge_total

    assert (await wait_finalized(backend, token, comparison_id))["verdictState"] == "FINALIZED"
    data = (await backend.gql(VERDICTS, {"id": comparison_id}, token=token)).ok()
    [verdict] = data["comparison"]["scorecard"]["verdicts"]
    result = verdict["pairwise"]
    pairs = CASES * TRIALS
    assert result["judgedPairs"] == result["totalPairs"] == pairs
    assert result["note"] == f"Judged {pairs} of {pairs} matched pairs"
    scores = np.array([SCORES[g] for g in GAP])
    per_pair = np.repeat(scores, TRIALS)
    assert result["winRate"] == pytest.approx(np.mean(per_pair > 0))
    assert result["tieRate"] == pytest.approx(np.mean(per_pair == 0))
    assert result["lossRate"] == pytest.approx(np.mean(per_pair < 0))
    assert result["orderDisagreementRate"] == pytest.approx(np.mean(np.repeat(GAP, TRIALS) == 0))
    assert result["meanScore"] == pytest.approx(scores.mean())
    low, high = t_interval(scores)
    assert result["low"] == pytest.approx(low) and result["high"] == pytest.approx(high)
    assert result["pValue"] == pytest.approx(sign_flip_p(scores))
    assert result["regression"] is False and result["failures"] == []
    assert result["judgeModel"] == "judge-1"


async def test_without_pairwise_no_judge_call_is_made_and_pairwise_is_null(
    backend: Backend, judge: FakeJudge
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    setup = await make_comparison_setup(
        backend.sessionmaker, ws, cases=CASES, simulation=Simulation(script=script())
    )
    token = ws.tokens[Role.MEMBER]
    spec = setup.input(trialsPerCase=1)
    comparison_id = (await backend.gql(CREATE, {"i": spec}, token=token)).ok()["createComparison"][
        "id"
    ]
    ended = (await backend.gql(START, {"id": comparison_id}, token=token)).ok()["startComparison"]
    assert ended["progress"]["doneCalls"] == ended["progress"]["totalCalls"] == CASES * 2
    await wait_finalized(backend, token, comparison_id)
    data = (await backend.gql(VERDICTS, {"id": comparison_id}, token=token)).ok()
    assert [v["pairwise"] for v in data["comparison"]["scorecard"]["verdicts"]] == [None]
    assert judge_calls(judge) == []


async def test_judge_spend_counts_toward_the_budget_cap_and_stops_further_judge_calls(
    backend: Backend, judge: FakeJudge
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    setup = await make_comparison_setup(
        backend.sessionmaker, ws, cases=CASES, simulation=Simulation(script=script())
    )
    rubric, config = await judge_versions(backend, ws, judge)  # priced: ~15 ¢ a call
    token = ws.tokens[Role.MEMBER]
    trials = 3  # 24 pairs: more than one slice of judge calls
    spec = setup.input(
        trialsPerCase=trials,
        budgetCapCents=1.0,
        pairwise={"rubricVersionId": rubric, "judgeModelConfigVersionId": config},
    )
    comparison_id = (await backend.gql(CREATE, {"i": spec}, token=token)).ok()["createComparison"][
        "id"
    ]
    ended = (await backend.gql(START, {"id": comparison_id}, token=token)).ok()["startComparison"]
    assert ended["status"] == "DONE" and ended["stopReason"] == "BUDGET_CAP"
    assert ended["spentCentsSoFar"] >= 1.0
    sent = len(judge_calls(judge))
    pairs = CASES * trials
    assert 0 < sent < 2 * pairs and sent % 2 == 0, "the cap stopped the later slices"
    progress = ended["progress"]
    assert progress["doneCalls"] == CASES * trials * 2 + sent < progress["totalCalls"]

    await wait_finalized(backend, token, comparison_id)
    data = (await backend.gql(VERDICTS, {"id": comparison_id}, token=token)).ok()
    [verdict] = data["comparison"]["scorecard"]["verdicts"]
    result = verdict["pairwise"]
    judged = sent // 2
    assert result["judgedPairs"] == judged and result["totalPairs"] == pairs
    assert result["note"] == f"Judged {judged} of {pairs} matched pairs"
    assert {f["errorClass"] for f in result["failures"]} == {"not_run"}
    assert len(result["failures"]) == pairs - judged


async def test_an_admitted_judge_call_without_an_outcome_is_never_re_sent(
    backend: Backend, judge: FakeJudge
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    setup = await make_comparison_setup(
        backend.sessionmaker, ws, cases=CASES, simulation=Simulation(script=script())
    )
    rubric, config = await judge_versions(backend, ws, judge)
    token = ws.tokens[Role.MEMBER]
    spec = setup.input(
        trialsPerCase=1, pairwise={"rubricVersionId": rubric, "judgeModelConfigVersionId": config}
    )
    comparison_id = (await backend.gql(CREATE, {"i": spec}, token=token)).ok()["createComparison"][
        "id"
    ]
    (await backend.gql(START, {"id": comparison_id}, token=token)).ok()
    await wait_finalized(backend, token, comparison_id)
    sent = len(judge_calls(judge))
    assert sent == CASES * 2
    # What a worker stopping hard mid-call leaves: case 3's pair admitted, no outcome.
    key = (comparison_id, 1, 3, 0)
    async with backend.sessionmaker() as session, session.begin():
        for order in (FORWARD, REVERSE):
            row = await session.get(ComparisonPairJudgment, (*key, order))
            assert row is not None
            row.state, row.score = JudgmentState.ADMITTED, None
        comparison = await session.get(Comparison, comparison_id)
        assert comparison is not None
        lease_token = comparison.lease_token

    async def nothing(*_: Any) -> None:
        return None

    stage = Stage(backend.sessionmaker, backend.settings)
    settled = await stage.settle(
        comparison_id=comparison_id,
        token=lease_token,
        stop_reason=StopReason.COMPLETED,
        publish=nothing,
        renew=nothing,
    )
    assert settled == StopReason.COMPLETED
    assert len(judge_calls(judge)) == sent, "never re-sent"
    async with backend.sessionmaker() as session:
        for order in (FORWARD, REVERSE):
            row = await session.get(ComparisonPairJudgment, (*key, order))
            assert row is not None and row.state == JudgmentState.ERRORED
            assert row.failure is not None and row.failure["errorClass"] == "outcome_ambiguous"
