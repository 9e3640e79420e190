"""The verdict rules of docs/statistics.md, end to end: NO_VERDICT under 20 usable cases,
MISSING_DATA with its sensitivity Δ, all-pass ties, a run stopped by its budget cap."""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np
import pytest
from sqlalchemy import select

from bench.kit.factories import make_workspace
from bench.kit.harness import Backend
from bench.kit.scenarios import finalized, scripted_setup
from server.comparisons.models import Trial, TrialState
from tests.server.verdicts import reference as ref

CLOSE = 1e-9


def _row(card: dict[str, Any], name: str) -> dict[str, Any]:
    return next(m for m in card["metrics"] if m["name"] == name)


def _values(card: dict[str, Any], name: str) -> list[float]:
    return [v["value"] for v in _row(card, name)["values"]]


async def test_under_twenty_usable_cases_every_outcome_is_no_verdict(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    candidate, baseline = ["F"] * 6 + ["P"] * 6, ["P"] * 12
    setup = await scripted_setup(backend.sessionmaker, ws, [candidate, baseline])
    _, comparison = await finalized(backend, setup, trialsPerCase=1)
    card = comparison["scorecard"]
    (verdict,) = card["verdicts"]
    assert (verdict["outcome"], verdict["reason"]) == ("NO_VERDICT", "INSUFFICIENT_CASES")
    assert verdict["passRateDeltaPoints"] == pytest.approx(-50.0, abs=CLOSE)
    mid_p, exact_p = ref.mcnemar_mid_p(0, 6)
    paired = card["significance"][1]
    assert (paired["pValue"], paired["exactPValue"]) == pytest.approx((mid_p, exact_p), abs=CLOSE)
    assert paired["significant"] == (mid_p < 0.05)
    # Under 20 cases the interval for Δ is Student's t, clipped to [−1, 1].
    differences = np.array([0.0 - 1.0] * 6 + [0.0] * 6)
    low, high = ref.t_interval(differences)
    assert (verdict["deltaLow"], verdict["deltaHigh"]) == pytest.approx(
        (max(low, -1) * 100, min(high, 1) * 100), abs=CLOSE
    )
    assert {c["adequacy"] for c in card["confidence"]} == {"INSUFFICIENT"}
    assert verdict["summary"].endswith(
        "a verdict needs at least 20 usable cases, and this run has 12"
    )


async def test_many_failed_or_missing_trials_give_missing_data(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    candidate = ["PPE"] * 10 + ["PPP"] * 20
    baseline = ["PPP"] * 30
    setup = await scripted_setup(backend.sessionmaker, ws, [candidate, baseline])
    _, comparison = await finalized(backend, setup, trialsPerCase=3)
    card = comparison["scorecard"]
    (verdict,) = card["verdicts"]
    assert (verdict["outcome"], verdict["reason"]) == ("NO_VERDICT", "MISSING_DATA")
    # Over the usable cases the candidate passes every completed trial: Δ = 0.
    assert verdict["passRateDeltaPoints"] == 0.0
    # Counting the 10 missing trials as failures: (10·2/3 + 20)/30 − 1.
    assert verdict["sensitivityDeltaPoints"] == pytest.approx(
        ((10 * 2 / 3 + 20) / 30 - 1) * 100, abs=CLOSE
    )
    assert [t["failedOrMissingTrials"] for t in card["trials"]] == [10, 0]
    assert _values(card, "failed_or_missing_rate") == pytest.approx([10 / 3 / 30, 0.0], abs=CLOSE)
    assert _row(card, "failed_or_missing_rate")["winners"] == [1]
    assert "failed or missing trials differ by 11.1 points" in verdict["summary"]


async def test_all_pass_ties_every_row(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    setup = await scripted_setup(backend.sessionmaker, ws, [["PP"] * 25, ["PP"] * 25])
    _, comparison = await finalized(backend, setup, trialsPerCase=2)
    card = comparison["scorecard"]
    assert _values(card, "pass_rate") == [1.0, 1.0]
    assert _row(card, "pass_rate")["winners"] == [0, 1]
    assert card["overallWinner"] == {"cohortIndex": None, "reason": "NO_VOTES", "votes": [0, 0]}
    z_row, paired = card["significance"]
    assert (z_row["pValue"], z_row["reason"]) == (1.0, "ALL_PASS")
    assert (paired["pValue"], paired["reason"]) == (1.0, "ALL_ZERO_DIFFERENCES")
    (verdict,) = card["verdicts"]
    assert (verdict["outcome"], verdict["reason"]) == ("NO_CHANGE", "WITHIN_TARGET_EFFECT")
    assert (verdict["deltaLow"], verdict["deltaHigh"], verdict["mde"]) == (0.0, 0.0, 0.0)
    assert (verdict["worseCount"], verdict["betterCount"], verdict["sameCount"]) == (0, 0, 25)
    assert verdict["summary"].endswith(": 0.0 points, inside the noise")
    for row in card["confidence"]:
        assert (row["low"], row["high"]) == pytest.approx(ref.wilson(25, 25), abs=CLOSE)
    assert [(t["passHatK"], t["passAtK"], t["flips"]) for t in card["trials"]] == [
        (1.0, 1.0, 0),
        (1.0, 1.0, 0),
    ]
    assert card["failureAnalysis"] == {"improved": 0, "regressed": 0, "bothWrong": 0, "agree": 25}


async def test_a_run_stopped_by_its_budget_cap_finalizes_on_its_balanced_cases(
    backend: Backend,
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    candidate = ["PF"] * 40
    baseline = ["PP"] * 40
    setup = await scripted_setup(
        backend.sessionmaker,
        ws,
        [candidate, baseline],
        output_cents_per_million_tokens=1_000_000.0,  # 1 ¢ per output token
    )
    comparison_id, comparison = await finalized(
        backend, setup, trialsPerCase=2, budgetCapCents=30.0
    )
    assert (comparison["status"], comparison["stopReason"]) == ("DONE", "BUDGET_CAP")
    async with backend.sessionmaker() as session:
        trials = list(
            await session.scalars(select(Trial).where(Trial.comparison_id == comparison_id))
        )
    assert all(t.state == TrialState.COMPLETED for t in trials)
    per_case = Counter(t.case_ordinal for t in trials)
    balanced = sorted(ordinal for ordinal, n in per_case.items() if n == 4)  # 2 cohorts × 2
    assert 0 < len(balanced) < 40
    card = comparison["scorecard"]
    assert card["usableCases"] == len(balanced)
    assert card["casesNotRun"] == 40 - len(balanced)
    assert _values(card, "pass_rate") == [0.5, 1.0]
    (verdict,) = card["verdicts"]
    assert verdict["worseCount"] == len(balanced)
    assert verdict["passRateDeltaPoints"] == pytest.approx(-50.0, abs=CLOSE)
    if len(balanced) < 20:
        assert (verdict["outcome"], verdict["reason"]) == ("NO_VERDICT", "INSUFFICIENT_CASES")
    else:
        assert verdict["outcome"] == "REGRESSED"


async def test_identical_pass_sets_tie_exactly(backend: Backend) -> None:
    """The demo's old bug: two cohorts with the same passes got 0.8166666666666664 and
    0.8166666666666665. Rates now come from integer counts."""
    ws = await make_workspace(backend.sessionmaker)
    outcomes = ["PPP", "PPF", "PFF", "FFF", "PPP", "PPF"] * 10
    setup = await scripted_setup(backend.sessionmaker, ws, [outcomes, list(outcomes)])
    _, comparison = await finalized(backend, setup, trialsPerCase=3)
    rates = [c["passRate"] for c in comparison["cohorts"]]
    assert rates[0] == rates[1] == (3 + 2 + 1 + 0 + 3 + 2) / 18
    card = comparison["scorecard"]
    values = _values(card, "pass_rate")
    assert values[0] == values[1]
    assert _row(card, "pass_rate")["winners"] == [0, 1]
    (verdict,) = card["verdicts"]
    assert verdict["passRateDeltaPoints"] == 0.0
    assert (verdict["worseCount"], verdict["betterCount"], verdict["sameCount"]) == (0, 0, 60)


async def test_the_gate_uses_the_comparisons_epsilon_and_target_effect(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    candidate = ["P"] * 18 + ["F", "F", "P", "P"]
    baseline = ["P"] * 18 + ["P", "P", "F", "F"]
    setup = await scripted_setup(backend.sessionmaker, ws, [candidate, baseline])
    for field, value in (("epsilonPoints", -1.0), ("targetEffectPoints", 0.0)):
        result = await backend.gql(
            "mutation($input: CreateComparisonInput!) { createComparison(input: $input) { id } }",
            {"input": setup.input(trialsPerCase=1, **{field: value})},
            token=ws.owner,
        )
        assert result.codes == ["VALIDATION_FAILED"]
        assert result.errors[0]["extensions"]["field"] == field
    _, default = await finalized(backend, setup, trialsPerCase=1)
    (verdict,) = default["scorecard"]["verdicts"]
    assert verdict["passRateDeltaPoints"] == 0.0
    assert (verdict["outcome"], verdict["reason"]) == ("NO_VERDICT", "UNDERPOWERED")
    assert verdict["deltaLow"] < -5 and verdict["deltaHigh"] > 5
    _, wide = await finalized(backend, setup, trialsPerCase=1, targetEffectPoints=40.0)
    (verdict,) = wide["scorecard"]["verdicts"]
    assert (verdict["outcome"], verdict["reason"]) == ("NO_CHANGE", "WITHIN_TARGET_EFFECT")
    assert -40 <= verdict["deltaLow"] and verdict["deltaHigh"] <= 40
