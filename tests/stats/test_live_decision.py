"""stats.decision.live: the ship-policy rule over the live sequences, and its power.

References written here: a 30-point drop must be VIOLATED (so DONT_SHIP) in a median of at
most 300 traces an arm; equal arms under a 10-point margin must be MET in a median of at
most 1,500 traces an arm.
"""

from __future__ import annotations

import numpy as np
import pytest

from stats.decision import DONT_SHIP, MET, MORE_DATA, NO_DECISION, SHIP, VIOLATED
from stats.decision.live import LiveArm, decide_live, quality_sequence, settle
from stats.decision.policy import Guardrail, ShipPolicy
from stats.live import thin

STREAMS = 201


def first_true(flags: np.ndarray) -> np.ndarray:
    """Per row, the 1-based index of the first True (a large number when none)."""
    return np.where(flags.any(axis=1), flags.argmax(axis=1) + 1, 10**9)


def arm(
    release: str, passed: np.ndarray, *, cost: float = 1.0, latency: float = 100.0, seed: int = 0
) -> LiveArm:
    rng = np.random.default_rng(seed)
    n = passed.size
    return LiveArm(
        release=release,
        quality=passed.astype(float),
        errors=np.zeros(n),
        costs=rng.uniform(0.8, 1.2, n) * cost,
        output_tokens=rng.uniform(80, 120, n),
        latencies=rng.exponential(latency, n),
    )


def test_a_thirty_point_drop_is_violated_in_a_median_of_at_most_300_traces() -> None:
    rng = np.random.default_rng(30)
    policy = ShipPolicy()
    cand = LiveArm("v2", quality=(rng.random((STREAMS, 600)) < 0.6).astype(float))
    base = LiveArm("v1", quality=(rng.random((STREAMS, 600)) < 0.9).astype(float))
    seq = quality_sequence(cand, base, policy)
    violated_at = first_true(seq.high * 100 < -policy.quality_margin_points)
    print(f"median traces an arm to VIOLATED: {np.median(violated_at)}")  # noqa: T201
    assert np.median(violated_at) <= 300


@pytest.mark.parametrize("rate", [0.5, 0.8])
def test_equal_arms_with_a_ten_point_margin_are_met_in_a_median_of_at_most_1500(
    rate: float,
) -> None:
    rng = np.random.default_rng(10)
    policy = ShipPolicy(quality_margin_points=10)
    cand = LiveArm("v2", quality=(rng.random((STREAMS, 1_600)) < rate).astype(float))
    base = LiveArm("v1", quality=(rng.random((STREAMS, 1_600)) < rate).astype(float))
    seq = quality_sequence(cand, base, policy)
    met_at = first_true(seq.low * 100 > -policy.quality_margin_points)
    print(f"median traces an arm to MET at {rate}: {np.median(met_at)}")  # noqa: T201
    assert np.median(met_at) <= 1_500
    # And equal arms are never VIOLATED in more than α of the streams.
    assert (seq.high * 100 < -policy.quality_margin_points).any(axis=1).mean() <= policy.alpha


def test_under_twenty_traces_an_arm_there_is_no_decision() -> None:
    decision, _ = decide_live(arm("v2", np.zeros(19)), [arm("v1", np.ones(200))])
    assert decision.outcome == NO_DECISION
    assert decision.reason == "INSUFFICIENT_CASES"
    assert decision.n == 19


def test_a_clear_drop_is_dont_ship_and_stays_so() -> None:
    rng = np.random.default_rng(1)
    cand = arm("v2", rng.random(300) < 0.5)
    base = arm("v1", rng.random(300) < 0.9)
    first, sequences = decide_live(cand, [base])
    assert first.outcome == DONT_SHIP
    quality = first.criteria[0]
    assert quality.status == VIOLATED and quality.high is not None and quality.high < -2
    assert sequences[0].pairs == 300
    recovered, _ = decide_live(arm("v2", np.ones(300)), [arm("v1", np.ones(300))])
    assert recovered.outcome != DONT_SHIP
    assert settle(first, recovered) is first
    assert settle(recovered, first) is first


def test_equal_arms_ship_with_every_criterion_met() -> None:
    rng = np.random.default_rng(2)
    policy = ShipPolicy(quality_margin_points=10)
    cand = arm("v2", rng.random(2_000) < 0.9, seed=1)
    base = arm("v1", rng.random(2_000) < 0.9, seed=2)
    decision, _ = decide_live(cand, [base], policy)
    assert decision.outcome == SHIP
    assert {c.status for c in decision.criteria} == {MET}


def test_a_pricier_candidate_is_stopped_by_its_cost_guardrail() -> None:
    rng = np.random.default_rng(3)
    policy = ShipPolicy(guardrails=(Guardrail("COST_PER_CASE", 20.0),))
    cand = arm("v2", rng.random(200) < 0.9, cost=2.0, seed=1)
    base = arm("v1", rng.random(200) < 0.9, cost=1.0, seed=2)
    decision, _ = decide_live(cand, [base], policy)
    assert decision.outcome == DONT_SHIP
    cost = next(c for c in decision.criteria if c.metric == "COST_PER_CASE")
    assert cost.status == VIOLATED and cost.low is not None and cost.low > 1.2
    assert cost.estimate == pytest.approx(2.0, rel=0.15)


def test_a_slower_p95_is_stopped_by_its_latency_guardrail() -> None:
    rng = np.random.default_rng(4)
    policy = ShipPolicy(guardrails=(Guardrail("LATENCY_P95", 20.0),))
    cand = arm("v2", rng.random(1_500) < 0.9, latency=300.0, seed=1)
    base = arm("v1", rng.random(1_500) < 0.9, latency=100.0, seed=2)
    decision, _ = decide_live(cand, [base], policy)
    p95 = next(c for c in decision.criteria if c.metric == "LATENCY_P95")
    assert p95.status == VIOLATED
    assert decision.outcome == DONT_SHIP


def test_more_data_says_the_traces_needed_at_the_current_rates() -> None:
    rng = np.random.default_rng(5)
    cand = arm("v2", rng.random(60) < 0.8)
    base = arm("v1", rng.random(60) < 0.8)
    decision, _ = decide_live(cand, [base])
    assert decision.outcome == MORE_DATA
    assert decision.cases_needed is None or decision.cases_needed > 60
    assert decision.criteria[0].status not in (MET, VIOLATED)


def test_more_data_is_unlikely_to_pass_when_the_estimate_is_past_the_margin() -> None:
    cand = arm("v2", np.array([1.0, 0.0] * 15))
    base = arm("v1", np.array([1.0, 1.0, 1.0, 0.0] * 8)[:30])
    decision, _ = decide_live(cand, [base], ShipPolicy(quality_margin_points=2))
    assert decision.outcome in (MORE_DATA, DONT_SHIP)
    if decision.outcome == MORE_DATA:
        assert decision.reason == "UNLIKELY_TO_PASS" and decision.cases_needed is None


def test_thin_keeps_at_most_the_limit_and_the_last_point() -> None:
    assert thin(10) == list(range(10))
    picks = thin(5_000, 500)
    assert len(picks) <= 500 and picks[0] == 0 and picks[-1] == 4_999
