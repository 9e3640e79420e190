"""The decision's words (server/decisions/wording.py): the sentence the portal and the CLI
both show, as `comparison.decision.sentence` serves it."""

from __future__ import annotations

import numpy as np

import stats
from server.decisions.document import to_document
from stats.decision import CohortMeasures, ship_decision
from stats.decision.policy import ShipPolicy
from stats.trials import CohortTrials

CASES = 40


def _cohort(passing: range) -> CohortMeasures:
    passed = np.array([1 if case in passing else 0 for case in range(CASES)])
    return CohortMeasures(CohortTrials.of(passed, np.ones(CASES, dtype=int), 1))


def test_an_estimate_past_the_margin_says_which_way_more_cases_lean() -> None:
    """Δ beyond the margin while the interval still crosses it: "More data needed", and the
    words say more cases would most likely end in Don't ship, never that they would not help."""
    baseline, candidate = range(0, 31), range(5, 35)  # 31 and 30 of 40 cases pass
    delta = 100 * (len(candidate) - len(baseline)) / CASES
    assert delta == -2.5  # past the 2-point margin
    decision = ship_decision(_cohort(candidate), [_cohort(baseline)], ShipPolicy(), seed=3)
    (quality,) = [c for c in decision.criteria if c.kind == stats.decision.QUALITY]
    low, high = quality.low, quality.high
    assert low is not None and high is not None and quality.estimate is not None
    assert quality.status == stats.decision.UNCERTAIN and high > -2 > quality.estimate
    assert (decision.outcome, decision.reason) == ("MORE_DATA", "UNLIKELY_TO_PASS")

    document = to_document(
        decision, policy=ShipPolicy(), labels={1: "quiz v1"}, candidate="quiz v2"
    )
    interval = f"{low:+.1f} to {high:+.1f}".replace("-", "−")
    assert document["sentence"] == (
        "More data needed before shipping quiz v2: not shown within 2 points of quiz v1 "
        f"(Δ −2.5 points, 90% interval {interval}). The estimate is already past the 2-point "
        "margin: more cases would most likely show quiz v2 more than 2 points worse than "
        "quiz v1, and the decision would then be Don't ship."
    )
    assert "unlikely to help" not in document["sentence"]


def test_an_estimate_on_the_margin_leans_neither_way() -> None:
    """Δ exactly −δ: as likely worse as within, said so."""
    baseline, candidate = range(0, 30), range(4, 33)  # 30 and 29 of 40: Δ −2.5; margin 2.5
    policy = ShipPolicy(quality_margin_points=100 * (len(baseline) - len(candidate)) / CASES)
    decision = ship_decision(_cohort(candidate), [_cohort(baseline)], policy, seed=3)
    assert (decision.outcome, decision.reason) == ("MORE_DATA", "UNLIKELY_TO_PASS")
    document = to_document(decision, policy=policy, labels={1: "v1"}, candidate="v2")
    assert document["sentence"].endswith(
        "The estimate sits on the 2.5-point margin: more cases are as likely to show v2 more "
        "than 2.5 points worse than v1 as within it."
    )
