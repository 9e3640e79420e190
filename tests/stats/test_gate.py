"""The docs/statistics.md gate: paired analysis per baseline, Holm across baselines, verdicts."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from statsmodels.stats.contingency_tables import mcnemar
from statsmodels.stats.multitest import multipletests

from stats import reasons
from stats.gate import compare_pair, decide, gate, paired_test
from stats.trials import CohortTrials


def _cohort(seed: int, rate: float, n: int, trials: int = 3) -> CohortTrials:
    rng = np.random.default_rng(seed)
    return CohortTrials.of(rng.binomial(trials, rate, size=n), np.full(n, trials), trials)


def test_clear_regression() -> None:
    (verdict,) = gate(_cohort(1, 0.5, 200), [_cohort(2, 0.8, 200)])
    assert (verdict.outcome, verdict.reason) == (reasons.REGRESSED, reasons.SIGNIFICANT_REGRESSION)
    assert verdict.outside_noise
    assert verdict.pass_rate_delta_points < -20
    assert verdict.delta_low_points < verdict.pass_rate_delta_points < verdict.delta_high_points < 0
    assert verdict.worse_count > verdict.better_count
    assert verdict.worse_count + verdict.better_count + verdict.same_count == verdict.n == 200
    z_row, paired_row = verdict.significance
    assert (z_row.method, z_row.decides, z_row.exact_p_value) == (reasons.Z_TEST, False, None)
    assert (paired_row.method, paired_row.decides) == (reasons.SIGN_FLIP_PERMUTATION, True)
    assert paired_row.exact_p_value == paired_row.p_value < 1e-6
    assert verdict.comparison.test_detail == reasons.EXACT_CONVOLUTION


def test_clear_improvement() -> None:
    (verdict,) = gate(_cohort(2, 0.8, 200), [_cohort(1, 0.5, 200)])
    assert (verdict.outcome, verdict.reason) == (reasons.IMPROVED, reasons.SIGNIFICANT_IMPROVEMENT)


def test_no_change_when_interval_lies_within_target() -> None:
    (verdict,) = gate(_cohort(3, 0.7, 2000), [_cohort(4, 0.7, 2000)])
    assert (verdict.outcome, verdict.reason) == (reasons.NO_CHANGE, reasons.WITHIN_TARGET_EFFECT)
    assert -5 <= verdict.delta_low_points <= verdict.delta_high_points <= 5
    assert verdict.mde_points < 5


def test_underpowered_when_interval_is_wide() -> None:
    (verdict,) = gate(_cohort(5, 0.6, 30, trials=1), [_cohort(6, 0.6, 30, trials=1)])
    assert (verdict.outcome, verdict.reason) == (reasons.NO_VERDICT, reasons.UNDERPOWERED)
    assert verdict.significance[1].method == reasons.MCNEMAR_MID_P


@pytest.mark.parametrize("n", [0, 1, 19])
def test_insufficient_cases(n: int) -> None:
    (verdict,) = gate(_cohort(7, 0.2, n), [_cohort(8, 0.9, n)])
    assert (verdict.outcome, verdict.reason) == (reasons.NO_VERDICT, reasons.INSUFFICIENT_CASES)
    assert verdict.n == n
    values = [verdict.pass_rate_delta_points, verdict.delta_low_points, verdict.delta_high_points]
    assert all(np.isfinite(values))
    assert 0.0 <= verdict.significance[1].p_value <= 1.0


def test_missing_data_blocks_the_verdict_and_sensitivity_counts_it_as_failure() -> None:
    n = 100
    candidate = CohortTrials.of(np.full(n, 2), np.full(n, 2), scheduled=3)  # 1/3 missing
    baseline = CohortTrials.of(np.full(n, 1), np.full(n, 3), scheduled=3)
    (verdict,) = gate(candidate, [baseline])
    assert (verdict.outcome, verdict.reason) == (reasons.NO_VERDICT, reasons.MISSING_DATA)
    assert verdict.pass_rate_delta_points == pytest.approx(100 * (1.0 - 1 / 3))
    assert verdict.sensitivity_delta_points == pytest.approx(100 * (2 / 3 - 1 / 3))
    assert verdict.comparison.candidate_missing_rate == pytest.approx(1 / 3)


def test_one_trial_per_case_decides_by_mcnemar_mid_p() -> None:
    candidate, baseline = _cohort(9, 0.55, 120, trials=1), _cohort(10, 0.7, 120, trials=1)
    (verdict,) = gate(candidate, [baseline])
    row = verdict.significance[1]
    c, b = candidate.passed == 1, baseline.passed == 1
    table = [[np.sum(c & b), np.sum(c & ~b)], [np.sum(~c & b), np.sum(~c & ~b)]]
    assert row.method == reasons.MCNEMAR_MID_P
    assert row.exact_p_value == pytest.approx(mcnemar(table, exact=True).pvalue, rel=1e-12)
    assert row.exact_p_value is not None
    assert row.p_value < row.exact_p_value


def test_holm_across_baselines_matches_statsmodels() -> None:
    candidate = _cohort(11, 0.6, 150)
    baselines = [_cohort(12, 0.65, 150), _cohort(13, 0.7, 150), _cohort(14, 0.62, 150)]
    verdicts = gate(candidate, baselines)
    raw = [v.significance[1].p_value for v in verdicts]
    adjusted = [v.significance[1].adjusted_p_value for v in verdicts]
    assert adjusted == pytest.approx(list(multipletests(raw, method="holm")[1]), rel=1e-12)
    raw_z = [v.significance[0].p_value for v in verdicts]
    adjusted_z = [v.significance[0].adjusted_p_value for v in verdicts]
    assert adjusted_z == pytest.approx(list(multipletests(raw_z, method="holm")[1]), rel=1e-12)


def test_epsilon_bar_keeps_a_tiny_significant_change_inside_the_noise() -> None:
    n = 20_000
    base_passed = np.ones(n, dtype=int)
    cand_passed = base_passed.copy()
    cand_passed[:160] = 0  # Δ = −0.8 points, McNemar p ≈ 1e-48
    candidate = CohortTrials.of(cand_passed, np.ones(n, dtype=int), 1)
    baseline = CohortTrials.of(base_passed, np.ones(n, dtype=int), 1)
    (within,) = gate(candidate, [baseline], epsilon=0.01)
    assert (within.outcome, within.outside_noise) == (reasons.NO_CHANGE, False)
    assert within.significance[1].significant
    (beyond,) = gate(candidate, [baseline], epsilon=0.005)
    assert (beyond.outcome, beyond.outside_noise) == (reasons.REGRESSED, True)


def test_identical_cohorts() -> None:
    cohort = _cohort(15, 0.5, 50)
    (verdict,) = gate(cohort, [cohort])
    assert (verdict.outcome, verdict.pass_rate_delta_points) == (reasons.NO_CHANGE, 0.0)
    assert verdict.significance[1].reason == reasons.ALL_ZERO_DIFFERENCES
    assert verdict.significance[1].exact_p_value == 1.0
    assert verdict.mde_points == 0.0


def test_all_pass_on_both_sides() -> None:
    cohort = CohortTrials.of(np.full(40, 3), np.full(40, 3), 3)
    (verdict,) = gate(cohort, [cohort])
    assert verdict.outcome == reasons.NO_CHANGE
    assert verdict.significance[0].reason == reasons.ALL_PASS
    assert verdict.significance[0].p_value == 1.0


def test_no_discordant_pairs_with_one_trial() -> None:
    cohort = _cohort(16, 0.5, 40, trials=1)
    result = paired_test(cohort, cohort)
    assert (result.method, result.p_value, result.reason) == (
        reasons.MCNEMAR_MID_P,
        1.0,
        reasons.NO_DISCORDANT_PAIRS,
    )


def test_cases_without_a_completed_trial_on_either_side_are_left_out() -> None:
    candidate = CohortTrials.of([1, 2, 0, 3], [3, 3, 0, 3], 3)
    baseline = CohortTrials.of([1, 0, 3, 3], [3, 0, 3, 3], 3)
    comparison = compare_pair(candidate, baseline)
    assert comparison.n == 2
    assert comparison.delta == 0.0


def test_unequal_trial_counts_use_the_exact_lcm_grid() -> None:
    rng = np.random.default_rng(17)
    done = rng.integers(1, 4, size=60)
    candidate = CohortTrials.of(rng.binomial(done, 0.8), done, 3)
    baseline = CohortTrials.of(rng.binomial(3, 0.5, size=60), np.full(60, 3), 3)
    result = paired_test(candidate, baseline)
    assert result.detail == reasons.EXACT_CONVOLUTION
    assert result.delta == pytest.approx(np.mean(candidate.passed / done - baseline.passed / 3))


def test_trial_counts_with_a_huge_lcm_fall_back_to_float_differences() -> None:
    done = np.tile([11, 13, 17, 19, 23, 29, 31, 37], 5)
    rng = np.random.default_rng(18)
    candidate = CohortTrials.of(rng.binomial(done, 0.7), done, 37)
    baseline = CohortTrials.of(rng.binomial(done, 0.4), done, 37)
    result = paired_test(candidate, baseline)
    assert result.method == reasons.SIGN_FLIP_PERMUTATION
    assert result.detail == reasons.MONTE_CARLO
    assert result.exact_p_value is None
    assert result.p_value == pytest.approx(1 / 10_000)


def test_mismatched_cohorts_raise() -> None:
    with pytest.raises(ValueError):
        compare_pair(_cohort(1, 0.5, 10), _cohort(2, 0.5, 11))


def test_decide_order_of_reasons() -> None:
    comparison = compare_pair(_cohort(1, 0.5, 200), _cohort(2, 0.8, 200))
    missing = replace(comparison, baseline_missing_rate=0.06)
    assert decide(missing, adjusted_p_value=1e-9)[:2] == (reasons.NO_VERDICT, reasons.MISSING_DATA)
    assert decide(comparison, adjusted_p_value=0.05)[:2] == (
        reasons.NO_VERDICT,
        reasons.UNDERPOWERED,
    )
    small = replace(comparison, n=19)
    assert decide(small, adjusted_p_value=1e-9)[1] == reasons.INSUFFICIENT_CASES


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3)), min_size=0, max_size=45),
    st.integers(0, 3),
)
def test_swapping_candidate_and_baseline(cases: list[tuple[int, int]], seed: int) -> None:
    first = CohortTrials.of([a for a, _ in cases], [3] * len(cases), 3)
    second = CohortTrials.of([b for _, b in cases], [3] * len(cases), 3)
    forward = compare_pair(first, second, seed=seed)
    backward = compare_pair(second, first, seed=seed)
    assert backward.delta == pytest.approx(-forward.delta)
    assert backward.p_value == forward.p_value
    assert backward.z_test.p_value == pytest.approx(forward.z_test.p_value)
    assert 0.0 <= forward.p_value <= 1.0
    assert 0.0 <= forward.z_test.p_value <= 1.0
    assert backward.low == pytest.approx(-forward.high, abs=1e-9)
    assert backward.high == pytest.approx(-forward.low, abs=1e-9)
    assert (backward.worse_count, backward.better_count) == (
        forward.better_count,
        forward.worse_count,
    )


def test_a_cases_mask_limits_the_analysis_but_not_the_missing_rates() -> None:
    """The usable cases of a three-cohort comparison: the pair is analysed on the mask; the
    missing rates and the sensitivity Δ stay over every case given (counted by hand)."""
    candidate = CohortTrials.of([3, 0, 2, 1, 3], [3, 0, 3, 1, 3], 3)
    baseline = CohortTrials.of([3, 3, 1, 3, 0], [3, 3, 3, 3, 3], 3)
    mask = np.array([True, False, True, False, True])
    masked = compare_pair(candidate, baseline, cases=mask)
    alone = compare_pair(
        CohortTrials.of([3, 2, 3], [3, 3, 3], 3), CohortTrials.of([3, 1, 0], [3, 3, 3], 3)
    )
    assert (masked.n, masked.delta, masked.p_value) == (3, alone.delta, alone.p_value)
    assert masked.delta == pytest.approx((0 + 1 / 3 + 1) / 3, abs=1e-12)
    assert masked.candidate_missing_rate == pytest.approx(5 / 15, abs=1e-12)
    assert masked.baseline_missing_rate == 0.0
    sensitivity = np.mean([3 / 3, 0, 2 / 3, 1 / 3, 3 / 3]) - np.mean([1, 1, 1 / 3, 1, 0])
    assert masked.sensitivity_delta == pytest.approx(sensitivity, abs=1e-12)
    (verdict,) = gate(candidate, [baseline], cases=mask)
    assert verdict.n == 3 and verdict.pass_rate_delta_points == pytest.approx(
        masked.delta * 100, abs=1e-9
    )
    with pytest.raises(ValueError):
        compare_pair(candidate, baseline, cases=[True])
