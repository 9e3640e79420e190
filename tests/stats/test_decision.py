"""The ship decision of docs/decision.md against references computed here with numpy and scipy.

Intervals are Monte Carlo estimates from 9,999 resamples on both sides (ours and
`scipy.stats.bootstrap`'s); an endpoint's resampling SD is about 0.03 bootstrap standard
errors, so they agree within 0.2 SE (over 4 SDs of their difference).
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import numpy.typing as npt
import pytest
from scipy import stats as scipy_stats

from stats import decision as d
from stats.decision import CohortMeasures, QualityBounds, cases_needed, ship_decision
from stats.decision import policy as sp
from stats.decision.policy import Guardrail, ShipPolicy
from stats.trials import CohortTrials

Floats = npt.NDArray[np.float64]


def _cohort(
    passed: npt.ArrayLike,
    trials: int = 1,
    *,
    completed: npt.ArrayLike | None = None,
    cost: npt.ArrayLike | None = None,
    tokens: npt.ArrayLike | None = None,
    latency: Floats | None = None,
) -> CohortMeasures:
    """A cohort; `latency` is cases × trials (one value per completed trial)."""
    passes = np.asarray(passed)
    done = np.full(len(passes), trials) if completed is None else np.asarray(completed)
    cases = np.repeat(np.arange(len(passes)), latency.shape[1]) if latency is not None else None
    return CohortMeasures(
        CohortTrials.of(passes, done, trials),
        cost=None if cost is None else np.asarray(cost, dtype=np.float64),
        output_tokens=None if tokens is None else np.asarray(tokens, dtype=np.float64),
        latency=None if latency is None else latency.ravel(),
        latency_case=cases,
    )


def _scipy_interval(
    statistic: Callable[[npt.NDArray[np.int64]], Floats],
    n: int,
    *,
    method: str,
    confidence: float = 0.9,
) -> tuple[float, float, float]:
    """scipy's bootstrap over case indices: one index array, so both cohorts of a drawn
    case come together (paired). `statistic` takes index rows (resamples × n) and gives
    one figure per row. Returns (low, high, standard error)."""
    result = scipy_stats.bootstrap(
        (np.arange(n),),
        lambda i, axis=-1: statistic(i),  # noqa: ARG005 (scipy passes the axis)
        n_resamples=9_999,
        method=method,
        confidence_level=confidence,
        vectorized=True,
        batch=2_000,
        rng=np.random.default_rng(2024),
    )
    interval = result.confidence_interval
    return float(interval.low), float(interval.high), float(result.standard_error)


def _criterion(
    decision: d.Decision, metric: str, baseline: int = 0, kind: str = d.GUARDRAIL
) -> d.Criterion:
    (found,) = [
        c for c in decision.criteria if (c.metric, c.baseline, c.kind) == (metric, baseline, kind)
    ]
    return found


RNG = np.random.default_rng(33)
N = 80
CAND_PASS = RNG.binomial(3, 0.78, N)
BASE_PASS = RNG.binomial(3, 0.80, N)
BASE_COST = RNG.gamma(2.0, 0.5, N)
CAND_COST = BASE_COST * RNG.uniform(0.4, 0.8, N)
BASE_LATENCY = RNG.gamma(2.0, 200.0, (N, 3))
CAND_LATENCY = RNG.gamma(2.0, 230.0, (N, 3))
BASE_TOKENS = RNG.poisson(120, N).astype(float)
CAND_TOKENS = RNG.poisson(130, N).astype(float)


def _pair() -> tuple[CohortMeasures, CohortMeasures]:
    cand = _cohort(CAND_PASS, 3, cost=CAND_COST, tokens=CAND_TOKENS, latency=CAND_LATENCY)
    base = _cohort(BASE_PASS, 3, cost=BASE_COST, tokens=BASE_TOKENS, latency=BASE_LATENCY)
    return cand, base


ALL_GUARDRAILS = ShipPolicy(
    guardrails=(
        Guardrail(sp.COST_PER_CASE, 0.0),
        Guardrail(sp.LATENCY_P50, 20.0),
        Guardrail(sp.LATENCY_P95, 20.0),
        Guardrail(sp.OUTPUT_TOKENS, 10.0),
        Guardrail(sp.FAILED_OR_MISSING, 5.0),
    )
)


def test_quality_interval_is_bca_at_one_minus_two_alpha() -> None:
    cand, base = _pair()
    decision = ship_decision(cand, [base], ALL_GUARDRAILS, seed=5)
    quality = _criterion(decision, sp.PASS_RATE, kind=d.QUALITY)
    assert quality.low is not None and quality.high is not None
    differences = CAND_PASS / 3 - BASE_PASS / 3
    low, high, se = _scipy_interval(lambda i: differences[i].mean(axis=-1), N, method="BCa")
    assert quality.estimate == pytest.approx(differences.mean() * 100)
    assert abs(quality.low - low * 100) < 0.2 * se * 100
    assert abs(quality.high - high * 100) < 0.2 * se * 100
    assert quality.threshold == -2.0
    # A 90% interval, narrower than the scorecard's 95% one.
    wide_low, wide_high, _ = _scipy_interval(
        lambda i: differences[i].mean(axis=-1), N, method="BCa", confidence=0.95
    )
    assert quality.high - quality.low < (wide_high - wide_low) * 100


def test_quality_level_follows_alpha() -> None:
    cand, base = _pair()
    decision = ship_decision(cand, [base], ShipPolicy(alpha=0.2), seed=5)
    quality = _criterion(decision, sp.PASS_RATE, kind=d.QUALITY)
    assert quality.low is not None and quality.high is not None
    differences = CAND_PASS / 3 - BASE_PASS / 3
    low, high, se = _scipy_interval(
        lambda i: differences[i].mean(axis=-1), N, method="BCa", confidence=0.6
    )
    assert abs(quality.low - low * 100) < 0.2 * se * 100
    assert abs(quality.high - high * 100) < 0.2 * se * 100


@pytest.mark.parametrize(
    ("metric", "cand", "base"),
    [
        (sp.COST_PER_CASE, CAND_COST, BASE_COST),
        (sp.OUTPUT_TOKENS, CAND_TOKENS, BASE_TOKENS),
    ],
)
def test_mean_ratio_guardrails_match_a_paired_scipy_bootstrap(
    metric: str, cand: Floats, base: Floats
) -> None:
    decision = ship_decision(*_pair_list(), ALL_GUARDRAILS, seed=5)
    criterion = _criterion(decision, metric)
    low, high, se = _scipy_interval(
        lambda i: cand[i].mean(axis=-1) / base[i].mean(axis=-1), N, method="percentile"
    )
    assert criterion.estimate == pytest.approx(cand.mean() / base.mean())
    assert criterion.low is not None and criterion.high is not None
    assert abs(criterion.low - low) < 0.2 * se
    assert abs(criterion.high - high) < 0.2 * se


@pytest.mark.parametrize(("metric", "q"), [(sp.LATENCY_P50, 50), (sp.LATENCY_P95, 95)])
def test_latency_ratio_resamples_cases_with_their_trials(metric: str, q: int) -> None:
    decision = ship_decision(*_pair_list(), ALL_GUARDRAILS, seed=5)
    criterion = _criterion(decision, metric)

    def ratio(i: npt.NDArray[np.int64]) -> Floats:
        cand = np.percentile(CAND_LATENCY[i], q, axis=(-2, -1))
        return np.asarray(cand / np.percentile(BASE_LATENCY[i], q, axis=(-2, -1)))

    low, high, se = _scipy_interval(ratio, N, method="percentile")
    expected = np.percentile(CAND_LATENCY, q) / np.percentile(BASE_LATENCY, q)
    assert criterion.estimate == pytest.approx(expected)
    assert criterion.low is not None and criterion.high is not None
    assert abs(criterion.low - low) < 0.2 * se
    assert abs(criterion.high - high) < 0.2 * se
    assert criterion.threshold == pytest.approx(1.2)


def _pair_list() -> tuple[CohortMeasures, list[CohortMeasures]]:
    cand, base = _pair()
    return cand, [base]


def test_pairing_holds_a_fixed_price_ratio_exactly() -> None:
    """Candidate cost is 0.6 × the baseline's on every case: every paired resample gives
    0.6, where resampling the cohorts apart would spread it widely."""
    cost = RNG.gamma(2.0, 1.0, 40)
    cand = _cohort(np.ones(40), cost=0.6 * cost)
    base = _cohort(np.ones(40), cost=cost)
    policy = ShipPolicy(guardrails=(Guardrail(sp.COST_PER_CASE, 0.0),), require_gain=sp.COST)
    decision = ship_decision(cand, [base], policy)
    guard = _criterion(decision, sp.COST_PER_CASE)
    gain = _criterion(decision, sp.COST_PER_CASE, kind=d.GAIN)
    for criterion in (guard, gain):
        assert criterion.status == d.MET
        assert criterion.estimate == pytest.approx(0.6)
        assert criterion.low == pytest.approx(0.6)
        assert criterion.high == pytest.approx(0.6)
    assert (gain.threshold, guard.threshold) == (1.0, 1.0)
    assert decision.outcome == d.SHIP


def test_failed_or_missing_difference_in_points() -> None:
    n = 50
    completed_cand = np.where(RNG.uniform(size=n) < 0.3, 2, 3)
    completed_base = np.where(RNG.uniform(size=n) < 0.05, 2, 3)
    cand = _cohort(np.minimum(completed_cand, 2), 3, completed=completed_cand)
    base = _cohort(np.minimum(completed_base, 2), 3, completed=completed_base)
    decision = ship_decision(cand, [base], ShipPolicy(), seed=9)
    criterion = _criterion(decision, sp.FAILED_OR_MISSING)
    per_case = ((3 - completed_cand) / 3 - (3 - completed_base) / 3) * 100
    low, high, se = _scipy_interval(lambda i: per_case[i].mean(axis=-1), n, method="percentile")
    assert criterion.estimate == pytest.approx(per_case.mean())
    assert criterion.low is not None and criterion.high is not None
    assert abs(criterion.low - low) < 0.2 * se
    assert abs(criterion.high - high) < 0.2 * se
    assert criterion.threshold == 5.0
    expected = d.MET if high <= 5 else d.VIOLATED if low > 5 else d.UNCERTAIN
    assert criterion.status == expected


def test_failed_or_missing_counts_cases_no_trial_of_which_completed() -> None:
    """A case the candidate lost entirely is not usable, but it is what the guardrail
    measures: 10 of 40 cases lost is 25 points more failed-or-missing."""
    completed = np.array([0] * 10 + [1] * 30)
    cand = _cohort(completed, completed=completed)
    base = _cohort(np.ones(40))
    decision = ship_decision(cand, [base], ShipPolicy())
    criterion = _criterion(decision, sp.FAILED_OR_MISSING)
    assert criterion.estimate == pytest.approx(25.0)
    assert criterion.low is not None and criterion.low > 5.0
    assert criterion.status == d.VIOLATED
    assert decision.n == 30
    assert decision.outcome == d.DONT_SHIP


def test_cases_needed_is_the_power_formula() -> None:
    differences = np.array([0.0] * 40 + [-1.0] * 3 + [1.0] * 6 + [-1 / 3] * 6)
    alpha, margin = 0.05, 0.02
    z = scipy_stats.norm.ppf(1 - alpha) + scipy_stats.norm.ppf(0.8)
    expected = math.ceil((z * differences.std(ddof=1) / (differences.mean() + margin)) ** 2)
    assert cases_needed(differences, delta=differences.mean(), margin=margin, alpha=alpha) == (
        expected
    )
    assert cases_needed(differences, delta=-0.03, margin=margin, alpha=alpha) is None
    assert cases_needed(differences, delta=-0.02, margin=margin, alpha=alpha) is None


def test_one_point_drop_asks_for_more_cases() -> None:
    """60 cases, candidate a point worse: not decided either way; the cases needed are the
    formula on the observed per-case differences."""
    base_pass = np.array([1] * 48 + [0] * 12)
    cand_pass = base_pass.copy()
    cand_pass[[0, 1, 2, 3]] = 0
    cand_pass[[48, 49, 50]] = 1  # 4 lost, 3 won: Δ = −1/60
    cand, base = _cohort(cand_pass), _cohort(base_pass)
    decision = ship_decision(cand, [base], ShipPolicy(), seed=11)
    quality = _criterion(decision, sp.PASS_RATE, kind=d.QUALITY)
    assert quality.status == d.UNCERTAIN
    assert decision.outcome == d.MORE_DATA
    differences = (cand_pass - base_pass).astype(float)
    z = scipy_stats.norm.ppf(0.95) + scipy_stats.norm.ppf(0.8)
    expected = math.ceil((z * differences.std(ddof=1) / (differences.mean() + 0.02)) ** 2)
    assert decision.cases_needed == expected
    assert decision.cases_needed is not None and decision.cases_needed > 60
    assert decision.reason is None


def test_a_clear_drop_is_dont_ship_and_unlikely_is_named() -> None:
    base_pass = np.ones(60, dtype=int)
    cand_pass = base_pass.copy()
    cand_pass[:12] = 0  # 20 points worse
    decision = ship_decision(_cohort(cand_pass), [_cohort(base_pass)], ShipPolicy())
    quality = _criterion(decision, sp.PASS_RATE, kind=d.QUALITY)
    assert quality.status == d.VIOLATED
    assert quality.high is not None and quality.high < -2
    assert (decision.outcome, decision.cases_needed) == (d.DONT_SHIP, None)


def test_more_data_with_delta_beyond_the_margin_is_unlikely_to_pass() -> None:
    rng = np.random.default_rng(8)
    base_pass = rng.binomial(1, 0.7, 40)
    cand_pass = base_pass.copy()
    flip = rng.choice(40, 8, replace=False)
    cand_pass[flip] = 1 - cand_pass[flip]  # noisy: Δ near −δ, interval wide
    cand_pass[np.flatnonzero(cand_pass == 1)[:2]] = 0
    decision = ship_decision(_cohort(cand_pass), [_cohort(base_pass)], ShipPolicy())
    quality = _criterion(decision, sp.PASS_RATE, kind=d.QUALITY)
    assert quality.estimate is not None and quality.estimate <= -2
    assert quality.status == d.UNCERTAIN
    assert (decision.outcome, decision.reason, decision.cases_needed) == (
        d.MORE_DATA,
        d.UNLIKELY_TO_PASS,
        None,
    )


def test_cases_needed_is_the_largest_over_uncertain_baselines() -> None:
    base_pass = np.array([1] * 48 + [0] * 12)
    near = base_pass.copy()
    near[[0, 1, 2, 3]] = 0
    near[[48, 49, 50]] = 1
    far = base_pass.copy()
    far[[0, 1, 2, 3, 4, 5]] = 0
    far[[48, 49, 50, 51, 52]] = 1
    decision = ship_decision(_cohort(base_pass), [_cohort(near), _cohort(far)], ShipPolicy())
    z = scipy_stats.norm.ppf(0.95) + scipy_stats.norm.ppf(0.8)
    needed = []
    for other in (near, far):
        diff = (base_pass - other).astype(float)
        needed.append(math.ceil((z * diff.std(ddof=1) / (diff.mean() + 0.02)) ** 2))
    assert decision.outcome == d.MORE_DATA
    assert decision.cases_needed == max(needed)


def test_one_violated_baseline_of_several_is_dont_ship() -> None:
    candidate = np.ones(40, dtype=int)
    fine = np.ones(40, dtype=int)
    much_better = np.ones(40, dtype=int)
    candidate[:10] = 0
    fine[:10] = 0
    baselines = [_cohort(fine), _cohort(much_better)]
    decision = ship_decision(_cohort(candidate), baselines, ShipPolicy())
    statuses = {c.baseline: c.status for c in decision.criteria if c.kind == d.QUALITY}
    assert statuses == {0: d.MET, 1: d.VIOLATED}
    assert decision.outcome == d.DONT_SHIP


def test_ship_when_every_criterion_is_met() -> None:
    rng = np.random.default_rng(3)
    base_pass = rng.binomial(1, 0.6, 200)
    cand_pass = np.maximum(base_pass, rng.binomial(1, 0.3, 200))  # never worse, often better
    decision = ship_decision(
        _cohort(cand_pass), [_cohort(base_pass)], ShipPolicy(require_gain=sp.QUALITY)
    )
    assert {c.status for c in decision.criteria} == {d.MET}
    assert [c.kind for c in decision.criteria] == [d.QUALITY, d.GUARDRAIL, d.GAIN]
    assert decision.outcome == d.SHIP


def test_under_twenty_cases_is_no_decision() -> None:
    decision = ship_decision(_cohort(np.ones(12)), [_cohort(np.ones(12))], ShipPolicy())
    assert (decision.outcome, decision.reason, decision.n) == (
        d.NO_DECISION,
        d.INSUFFICIENT_CASES,
        12,
    )


def test_not_run_to_its_end_is_no_decision() -> None:
    decision = ship_decision(
        _cohort(np.ones(40)), [_cohort(np.ones(40))], ShipPolicy(), ran_to_end=False
    )
    assert (decision.outcome, decision.reason) == (d.NO_DECISION, d.NOT_RUN_TO_END)


def test_no_cases_and_no_baselines() -> None:
    empty = ship_decision(_cohort(np.zeros(0, dtype=int)), [_cohort(np.zeros(0, dtype=int))])
    assert (empty.outcome, empty.reason, empty.n) == (d.NO_DECISION, d.INSUFFICIENT_CASES, 0)
    assert {(c.status, c.reason) for c in empty.criteria} == {(d.UNCERTAIN, d.NOT_MEASURED)}
    assert all(c.estimate is None for c in empty.criteria)
    alone = ship_decision(_cohort(np.ones(30)), [])
    assert (alone.outcome, alone.reason, alone.criteria) == (d.NO_DECISION, d.NO_BASELINE, ())


def test_all_ties() -> None:
    """Identical cohorts: Δ is exactly 0 with a zero-width interval; every guardrail ratio
    is exactly 1. With the default margin the candidate ships; with no margin and a
    quality gain it cannot show the gain, and no number of cases changes that."""
    passed = np.array([1, 0] * 25)
    cost = RNG.gamma(2.0, 1.0, 50)
    cohort = _cohort(passed, cost=cost)
    policy = ShipPolicy(guardrails=(Guardrail(sp.COST_PER_CASE, 0.0),))
    decision = ship_decision(cohort, [cohort], policy)
    quality = _criterion(decision, sp.PASS_RATE, kind=d.QUALITY)
    assert (quality.estimate, quality.low, quality.high) == (0.0, 0.0, 0.0)
    ratio = _criterion(decision, sp.COST_PER_CASE)
    assert ratio.low == pytest.approx(1.0)
    assert ratio.high == pytest.approx(1.0)
    assert ratio.status == d.MET
    assert decision.outcome == d.SHIP
    strict = ship_decision(
        cohort, [cohort], ShipPolicy(quality_margin_points=0.0, require_gain=sp.QUALITY)
    )
    statuses = [(c.kind, c.status) for c in strict.criteria if c.metric == sp.PASS_RATE]
    assert statuses == [(d.QUALITY, d.UNCERTAIN), (d.GAIN, d.VIOLATED)]
    assert strict.outcome == d.DONT_SHIP


def test_zero_costs() -> None:
    policy = ShipPolicy(guardrails=(Guardrail(sp.COST_PER_CASE, 10.0),), require_gain=sp.COST)
    free = _cohort(np.ones(30), cost=np.zeros(30))
    paid = _cohort(np.ones(30), cost=np.full(30, 0.01))
    both_free = ship_decision(free, [free], policy)
    guard = _criterion(both_free, sp.COST_PER_CASE)
    assert (guard.status, guard.reason, guard.estimate) == (d.MET, d.ZERO_BASELINE, None)
    gain = _criterion(both_free, sp.COST_PER_CASE, kind=d.GAIN)
    assert (gain.status, gain.reason) == (d.VIOLATED, d.ZERO_BASELINE)
    over_free = ship_decision(paid, [free], policy)
    assert _criterion(over_free, sp.COST_PER_CASE).status == d.VIOLATED
    assert over_free.outcome == d.DONT_SHIP
    # A free candidate against a paid baseline: the ratio is 0, a gain beyond doubt.
    under_paid = ship_decision(free, [paid], policy)
    assert {c.status for c in under_paid.criteria} == {d.MET}
    assert _criterion(under_paid, sp.COST_PER_CASE).high == 0.0


def test_sparse_costs_give_an_unbounded_interval_not_nan() -> None:
    """A baseline that cost something on one case in 40: many resamples draw no cost at
    all, so the ratio's upper end is unbounded; the figure is None and the status holds."""
    base_cost = np.zeros(40)
    base_cost[0] = 1.0
    cand_cost = np.full(40, 0.05)
    policy = ShipPolicy(guardrails=(Guardrail(sp.COST_PER_CASE, 50.0),))
    decision = ship_decision(
        _cohort(np.ones(40), cost=cand_cost), [_cohort(np.ones(40), cost=base_cost)], policy
    )
    guard = _criterion(decision, sp.COST_PER_CASE)
    assert guard.estimate == pytest.approx(2.0)
    assert guard.high is None
    assert guard.low is not None and math.isfinite(guard.low)
    assert guard.status in (d.UNCERTAIN, d.VIOLATED)


def test_a_metric_not_carried_is_not_measured() -> None:
    policy = ShipPolicy(
        guardrails=(Guardrail(sp.LATENCY_P95, 20.0), Guardrail(sp.OUTPUT_TOKENS, 5.0)),
        require_gain=sp.LATENCY,
    )
    decision = ship_decision(_cohort(np.ones(30)), [_cohort(np.ones(30))], policy)
    rows = [(c.kind, c.metric, c.status, c.reason) for c in decision.criteria[1:]]
    assert rows == [
        (d.GUARDRAIL, sp.LATENCY_P95, d.UNCERTAIN, d.NOT_MEASURED),
        (d.GUARDRAIL, sp.OUTPUT_TOKENS, d.UNCERTAIN, d.NOT_MEASURED),
        (d.GAIN, sp.LATENCY_P50, d.UNCERTAIN, d.NOT_MEASURED),
    ]
    assert (decision.outcome, decision.cases_needed) == (d.MORE_DATA, None)


def test_a_slow_candidate_breaks_the_latency_guardrail() -> None:
    rng = np.random.default_rng(4)
    base_latency = rng.gamma(4.0, 50.0, (40, 2))
    cand_latency = base_latency * 2.0 + rng.uniform(0, 20, (40, 2))
    policy = ShipPolicy(guardrails=(Guardrail(sp.LATENCY_P95, 20.0),))
    decision = ship_decision(
        _cohort(np.full(40, 2), 2, latency=cand_latency),
        [_cohort(np.full(40, 2), 2, latency=base_latency)],
        policy,
    )
    guard = _criterion(decision, sp.LATENCY_P95)
    assert guard.low is not None and guard.low > 1.2
    assert guard.status == d.VIOLATED
    assert decision.outcome == d.DONT_SHIP


def test_a_sequential_stop_decides_from_its_sequence() -> None:
    """The fixed-n bootstrap calls this MET (identical cohorts, Δ exactly 0); the sequence
    at the stop is wider and decides."""
    base_pass = np.array([1, 1, 0] * 40)
    cand_pass = base_pass.copy()
    plain = ship_decision(_cohort(cand_pass), [_cohort(base_pass)], ShipPolicy())
    assert _criterion(plain, sp.PASS_RATE, kind=d.QUALITY).status == d.MET
    bounds = QualityBounds(low=-0.08, high=0.03)
    sequential = ship_decision(
        _cohort(cand_pass), [_cohort(base_pass)], ShipPolicy(), sequence=[bounds]
    )
    quality = _criterion(sequential, sp.PASS_RATE, kind=d.QUALITY)
    assert quality.low == pytest.approx(-8.0)
    assert quality.high == pytest.approx(3.0)
    assert quality.estimate == 0.0
    assert not quality.corrected
    assert quality.status == d.UNCERTAIN
    assert sequential.outcome == d.MORE_DATA


def test_a_corrected_delta_replaces_the_judges() -> None:
    cand, base = _cohort(np.ones(40)), _cohort(np.ones(40))
    corrected = QualityBounds(low=-0.061, high=-0.021, estimate=-0.04, corrected=True)
    decision = ship_decision(cand, [base], ShipPolicy(), corrected=[corrected])
    quality = _criterion(decision, sp.PASS_RATE, kind=d.QUALITY)
    assert quality.corrected
    assert quality.estimate == pytest.approx(-4.0)
    assert quality.status == d.VIOLATED
    assert decision.outcome == d.DONT_SHIP


def test_an_uncalibrated_judge_caps_quality_at_uncertain() -> None:
    cand, base = _cohort(np.ones(40)), _cohort(np.array([1] * 30 + [0] * 10))
    plain = ship_decision(cand, [base], ShipPolicy(require_gain=sp.QUALITY))
    assert plain.outcome == d.SHIP
    decision = ship_decision(
        cand, [base], ShipPolicy(require_gain=sp.QUALITY), judge_uncalibrated=True
    )
    for kind in (d.QUALITY, d.GAIN):
        quality = _criterion(decision, sp.PASS_RATE, kind=kind)
        assert (quality.status, quality.reason) == (d.UNCERTAIN, d.JUDGE_UNCALIBRATED)
    assert (decision.outcome, decision.reason, decision.cases_needed) == (
        d.MORE_DATA,
        d.JUDGE_UNCALIBRATED,
        None,
    )
    worse = _cohort(np.array([0] * 20 + [1] * 20))
    violated = ship_decision(worse, [base], ShipPolicy(), judge_uncalibrated=True)
    assert _criterion(violated, sp.PASS_RATE, kind=d.QUALITY).status == d.VIOLATED
    assert violated.outcome == d.DONT_SHIP


def test_same_seed_same_decision() -> None:
    first = ship_decision(*_pair_list(), ALL_GUARDRAILS, seed=77)
    again = ship_decision(*_pair_list(), ALL_GUARDRAILS, seed=77)
    other = ship_decision(*_pair_list(), ALL_GUARDRAILS, seed=78)
    assert first == again
    assert first.criteria[1].low != other.criteria[1].low


def test_an_invalid_policy_is_refused() -> None:
    with pytest.raises(ValueError, match="alpha"):
        ship_decision(_cohort(np.ones(30)), [_cohort(np.ones(30))], ShipPolicy(alpha=0.5))
