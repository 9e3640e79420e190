"""Sign-flip permutation test: enumeration, convolution, Monte Carlo and paired t."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import signal as scipy_signal
from scipy import stats as scipy_stats

from stats import permutation, reasons
from stats.convolution import convolution_feasible, convolution_p_value
from stats.permutation import (
    ENUMERATION_MAX_CASES,
    PAIRED_T_MIN_CASES,
    common_denominator,
    enumeration_p_value,
    lattice_steps,
    monte_carlo_p_value,
    sign_bytes,
    sign_flip_test,
    sign_flip_test_lattice,
)


def _scipy_sign_flip(values: np.ndarray, resamples: float, seed: int = 0) -> float:
    result = scipy_stats.permutation_test(
        (values,),
        lambda x, axis: np.mean(x, axis=axis),
        permutation_type="samples",
        vectorized=True,
        n_resamples=resamples,
        alternative="two-sided",
        rng=np.random.default_rng(seed),
    )
    return float(result.pvalue)


def _exact_null_p(steps: np.ndarray) -> float:
    """P(|Σ sᵢkᵢ| ≥ |Σkᵢ|) by direct convolution of scaled binomial pmfs (scipy + numpy)."""
    magnitudes = np.abs(steps[steps != 0])
    observed = abs(int(steps.sum()))
    law = np.array([1.0])  # law of U = Σ v·B_v, index = value
    for value in np.unique(magnitudes):
        count = int(np.count_nonzero(magnitudes == value))
        component = np.zeros(value * count + 1)
        component[:: int(value)] = scipy_stats.binom.pmf(np.arange(count + 1), count, 0.5)
        law = np.convolve(law, component)
    total = int(magnitudes.sum())
    statistic = 2 * np.arange(len(law)) - total
    return float(min(1.0, law[np.abs(statistic) >= observed].sum()))


@pytest.mark.parametrize(("n", "seed"), [(2, 0), (5, 1), (12, 2), (16, 3)])
def test_enumeration_matches_scipy_exact(n: int, seed: int) -> None:
    values = np.random.default_rng(seed).normal(0.3, 1.0, size=n)
    result = sign_flip_test(values)
    assert result.method == reasons.EXACT_ENUMERATION
    assert result.p_value == pytest.approx(_scipy_sign_flip(values, np.inf), rel=1e-12)


def test_enumeration_matches_scipy_exact_with_ties_on_a_grid() -> None:
    values = np.array([0.2, -0.4, 0.0, 0.6, 1.0, 0.2, 0.4, -0.2, 0.6, 0.2, 0.0, 0.4, 0.8, -0.6])
    expected = _scipy_sign_flip(values, np.inf)
    assert sign_flip_test(values).p_value == pytest.approx(expected, rel=1e-12)
    assert enumeration_p_value(values) == pytest.approx(expected, rel=1e-12)


def test_monte_carlo_agrees_with_scipy_within_resampling_error() -> None:
    rng = np.random.default_rng(5)
    values = rng.normal(0.25, 1.0, size=60)
    result = sign_flip_test(values, seed=11)
    expected = _scipy_sign_flip(values, 9_999, seed=12)
    assert result.method == reasons.MONTE_CARLO
    assert result.resamples == 9_999
    # Two independent estimates of the same p, each with SD √(p(1−p)/9999).
    tolerance = 5 * np.sqrt(2 * expected * (1 - expected) / 9_999) + 1e-4
    assert abs(result.p_value - expected) < tolerance


def test_monte_carlo_p_is_never_zero_and_is_seeded() -> None:
    values = np.linspace(1.0, 2.0, 30)
    first = monte_carlo_p_value(values, resamples=999, seed=4)
    assert first == pytest.approx(1 / 1000)
    assert monte_carlo_p_value(values, resamples=999, seed=4) == first
    noisy = np.random.default_rng(0).normal(size=30)
    assert monte_carlo_p_value(noisy, seed=1) == monte_carlo_p_value(noisy, seed=1)


@pytest.mark.parametrize(("n", "k"), [(1000, 600), (1000, 700), (100_000, 51_000), (31, 29)])
def test_convolution_single_magnitude_is_the_binomial_test(n: int, k: int) -> None:
    steps = np.array([1] * k + [-1] * (n - k))
    expected = scipy_stats.binomtest(k, n, 0.5).pvalue
    assert convolution_p_value(steps) == pytest.approx(expected, rel=1e-9)


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_convolution_matches_direct_convolution(seed: int) -> None:
    rng = np.random.default_rng(seed)
    steps = rng.integers(-5, 6, size=300) + (rng.random(300) < 0.1)
    assert convolution_p_value(steps) == pytest.approx(_exact_null_p(steps), rel=1e-9)


def _exact_null_p_fft(steps: np.ndarray) -> float:
    """`_exact_null_p` for wide grids: the same convolution by scipy's FFT convolution."""
    magnitudes = np.abs(steps[steps != 0])
    observed = abs(int(steps.sum()))
    law = np.array([1.0])
    for value in np.unique(magnitudes):
        count = int(np.count_nonzero(magnitudes == value))
        component = np.zeros(value * count + 1)
        component[:: int(value)] = scipy_stats.binom.pmf(np.arange(count + 1), count, 0.5)
        law = np.clip(scipy_signal.fftconvolve(law, component), 0.0, None)
    statistic = 2 * np.arange(len(law)) - int(magnitudes.sum())
    return float(min(1.0, law[np.abs(statistic) >= observed].sum()))


@pytest.mark.parametrize(("shift", "seed"), [(0.0, 0), (0.7, 1), (1.0, 2), (1.3, 3)])
def test_convolution_on_a_wide_grid_matches_direct_convolution(shift: float, seed: int) -> None:
    """Per-case means of token counts: ~150 magnitudes, a window of ~10⁵ points, where most
    frequencies of the characteristic function are dropped as negligible."""
    rng = np.random.default_rng(seed)
    steps = np.rint(rng.normal(shift, 30.0, size=3000)).astype(np.int64)
    assert convolution_feasible(steps)
    assert len(np.unique(np.abs(steps))) > 80
    expected = _exact_null_p_fft(steps)
    assert 1e-4 < expected <= 1.0
    assert convolution_p_value(steps) == pytest.approx(expected, rel=1e-9)


def test_convolution_keeps_relative_precision_far_in_the_tail() -> None:
    rng = np.random.default_rng(9)
    steps = np.abs(rng.integers(1, 6, size=400))
    steps[:30] *= -1
    expected = _exact_null_p(steps)
    assert expected < 1e-60
    assert convolution_p_value(steps) == pytest.approx(expected, rel=1e-8)


def test_sign_flip_uses_convolution_on_trial_fraction_grids() -> None:
    rng = np.random.default_rng(3)
    passed_candidate = rng.binomial(5, 0.6, size=5_000)
    passed_baseline = rng.binomial(5, 0.55, size=5_000)
    differences = (passed_candidate - passed_baseline) / 5
    result = sign_flip_test(differences)
    assert result.method == reasons.EXACT_CONVOLUTION
    assert result.exact
    lattice = sign_flip_test_lattice(passed_candidate - passed_baseline, 5)
    assert lattice.p_value == result.p_value
    assert lattice.estimate == pytest.approx(differences.mean())


def test_paired_t_for_very_large_continuous_samples() -> None:
    values = np.random.default_rng(8).normal(0.01, 1.0, size=PAIRED_T_MIN_CASES)
    result = sign_flip_test(values)
    assert result.method == reasons.PAIRED_T
    assert result.p_value == pytest.approx(scipy_stats.ttest_1samp(values, 0.0).pvalue, rel=1e-9)


def test_large_continuous_sample_with_a_dominant_case_stays_monte_carlo() -> None:
    values = np.random.default_rng(8).normal(0.0, 0.01, size=PAIRED_T_MIN_CASES)
    values[0] = 100.0
    assert sign_flip_test(values, resamples=99).method == reasons.MONTE_CARLO


def test_lattice_steps_detection() -> None:
    steps = lattice_steps(np.array([1 / 3, -2 / 3, 0.0, 1.0]))
    assert steps is not None
    assert steps.tolist() == [1, -2, 0, 3]
    same_magnitude = lattice_steps(np.array([np.pi, -np.pi, np.pi]))
    assert same_magnitude is not None
    assert same_magnitude.tolist() == [1, -1, 1]
    assert lattice_steps(np.random.default_rng(0).normal(size=50)) is None
    for scale in (1e-13, 1e13, 7.0):
        scaled = lattice_steps(np.array([1 / 3, -2 / 3, 0.0, 1.0]) * scale)
        assert scaled is not None
        assert scaled.tolist() == [1, -2, 0, 3]
    assert lattice_steps(np.random.default_rng(0).normal(size=50) * 1e-13) is None
    tokens = lattice_steps(np.array([13_001.0, 13_002.0, -5.0]))
    assert tokens is not None
    assert tokens.tolist() == [13_001, 13_002, -5]


def test_common_denominator() -> None:
    assert common_denominator([3, 5, 2, 3]) == 30
    assert common_denominator([]) == 1
    assert common_denominator([11, 13, 17, 19, 23, 29, 31, 37]) is None
    with pytest.raises(ValueError):
        common_denominator([0, 3])


def test_convolution_budget() -> None:
    assert convolution_feasible(np.ones(100_000, dtype=np.int64) * 5)
    assert not convolution_feasible(np.arange(1, 200_001, dtype=np.int64) * 2_520)


@pytest.mark.parametrize(
    ("values", "reason", "p_value"),
    [
        ([], reasons.NO_CASES, 1.0),
        ([0.0] * 50, reasons.ALL_ZERO_DIFFERENCES, 1.0),
        ([0.0, 0.0, 0.0], reasons.ALL_ZERO_DIFFERENCES, 1.0),
        ([0.4], reasons.ONE_CASE, 1.0),
    ],
)
def test_degenerate_inputs(values: list[float], reason: str, p_value: float) -> None:
    result = sign_flip_test(values)
    assert (result.reason, result.p_value) == (reason, p_value)
    assert np.isfinite(result.estimate)


def test_all_same_sign_is_two_to_the_one_minus_n() -> None:
    assert sign_flip_test([0.2] * 10).p_value == pytest.approx(2.0**-9)
    assert sign_flip_test([0.2] * 40).p_value == pytest.approx(2.0**-39, rel=1e-12)
    tiny = sign_flip_test([1.0] * 5_000).p_value
    assert 0.0 < tiny <= 1e-300


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_non_finite_differences_give_p_one_with_a_reason(bad: float) -> None:
    result = sign_flip_test([0.1, bad, 0.3])
    assert (result.p_value, result.estimate, result.n) == (1.0, 0.0, 0)
    assert result.reason == reasons.NON_FINITE_INPUT


def test_malformed_differences_are_a_programmer_error() -> None:
    with pytest.raises(ValueError, match="one-dimensional"):
        sign_flip_test([[0.1, np.nan]])


@pytest.mark.parametrize("scale", [1.0, 1e-13, 1e13, 3.7e-7])
def test_convolution_p_does_not_depend_on_the_scale_of_the_differences(scale: float) -> None:
    rng = np.random.default_rng(21)
    steps = rng.binomial(3, 0.65, size=60) - rng.binomial(3, 0.5, size=60)
    result = sign_flip_test(steps / 3 * scale)
    assert result.method == reasons.EXACT_CONVOLUTION
    assert result.p_value == pytest.approx(_exact_null_p(steps), rel=1e-9)
    assert result.p_value < 0.05


@pytest.mark.parametrize("scale", [1.0, 1e-13, 1e13])
def test_enumeration_p_does_not_depend_on_the_scale_of_the_differences(scale: float) -> None:
    steps = np.array([1, 2, 0, 3, -1, 2, 1, 1, 3, 2, -2, 1, 2, 0, 1])
    expected = _exact_null_p(steps)
    assert expected == pytest.approx(_scipy_sign_flip(steps / 3.0, np.inf), rel=1e-9)
    result = sign_flip_test(steps / 3.0 * scale)
    assert result.method == reasons.EXACT_ENUMERATION
    assert result.p_value == pytest.approx(expected, rel=1e-9)
    assert result.p_value < 0.05


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.integers(min_value=-12, max_value=12), min_size=0, max_size=ENUMERATION_MAX_CASES)
)
def test_convolution_agrees_with_enumeration(steps: list[int]) -> None:
    array = np.array(steps, dtype=np.int64)
    assert convolution_p_value(array) == pytest.approx(enumeration_p_value(array), rel=1e-9)


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.floats(min_value=-1.0, max_value=1.0, allow_nan=False), min_size=0, max_size=45),
    st.integers(min_value=0, max_value=3),
)
def test_p_in_unit_range_and_swap_keeps_p(values: list[float], seed: int) -> None:
    array = np.array(values)
    forward = sign_flip_test(array, resamples=499, seed=seed)
    backward = sign_flip_test(-array, resamples=499, seed=seed)
    assert 0.0 <= forward.p_value <= 1.0
    assert backward.p_value == forward.p_value
    assert backward.estimate == pytest.approx(-forward.estimate)


@pytest.mark.parametrize("n", [1 + 20, 37, 64, 203])
def test_monte_carlo_counts_the_sums_of_its_sign_matrix(n: int) -> None:
    """The look-up-table sums equal Σ sᵢdᵢ computed directly from the same seeded bits
    (bit k of byte j is case 8j + k, set = +1), also when n is not a multiple of 8."""
    rng = np.random.default_rng(n)
    values = rng.normal(0.3, 1.0, size=n)
    resamples, seed = 2_999, 11
    width = (n + 7) // 8
    signs = np.concatenate(
        [
            np.unpackbits(block, axis=1, bitorder="little")
            for block in sign_bytes(seed, resamples, width)
        ]
    )[:, :n]
    assert signs.shape == (resamples, n)
    sums = (2.0 * signs - 1.0) @ values
    extreme = int(np.count_nonzero(np.abs(sums) >= abs(values.sum()) - 1e-9))
    expected = (extreme + 1) / (resamples + 1)
    assert monte_carlo_p_value(values, resamples=resamples, seed=seed) == expected
    assert monte_carlo_p_value(-values, resamples=resamples, seed=seed) == expected


def test_sign_matrix_is_the_same_cached_or_drawn_again(monkeypatch: pytest.MonkeyPatch) -> None:
    values = np.random.default_rng(3).normal(0.05, 1.0, size=500)
    cached = monte_carlo_p_value(values, resamples=4_999, seed=7)
    monkeypatch.setattr(permutation, "SIGN_CACHE_BYTES", 0)
    assert monte_carlo_p_value(values, resamples=4_999, seed=7) == cached
    other = monte_carlo_p_value(values, resamples=4_999, seed=8)
    assert abs(other - cached) < 4 * np.sqrt(cached * (1 - cached) / 4_999) + 1e-3


def test_monte_carlo_is_within_resampling_error_of_scipy_at_n_5000() -> None:
    """The cost and latency rows' case: continuous per-case means at n = 5,000."""
    rng = np.random.default_rng(21)
    values = rng.gamma(2.0, 1.0, 5000) - rng.gamma(2.0, 1.0, 5000) + 0.04
    ours = monte_carlo_p_value(values, seed=5)
    # 2,999 of scipy's resamples: 9,999 of 5,000 signs each took 16 s (43 s on a loaded host).
    reference = _scipy_sign_flip(values, 2_999, seed=5)
    spread = np.sqrt(reference * (1 - reference) * (1 / 9_999 + 1 / 2_999))
    assert 0.01 < reference < 0.9
    assert abs(ours - reference) < 4 * spread
