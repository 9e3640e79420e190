"""The prediction-powered Δ: its formula on literals, and its coverage under a biased judge."""

from __future__ import annotations

import math
import statistics

import numpy as np
import numpy.typing as npt
import pytest
from scipy.stats import norm

from stats import reasons
from stats.prediction_powered import prediction_powered_delta, prediction_powered_interval


def test_formula_on_a_small_example() -> None:
    differences = [1.0, 0.0, 0.0, -1.0, 1.0, 0.0, 1.0, 0.0] * 5
    candidate = [1.0, 0.0, 0.0, 1.0, 0.0] * 3  # the judge passed fails of the candidate
    baseline = [0.0, -1.0, 0.0, 0.0] * 3  # and failed passes of the baseline
    judged = statistics.fmean(differences)
    estimate = judged - (statistics.fmean(candidate) - statistics.fmean(baseline))
    variance = (
        statistics.variance(differences) / 40
        + statistics.variance(candidate) / 15
        + statistics.variance(baseline) / 12
    )
    for confidence in (0.9, 0.95):
        half = float(norm.ppf(0.5 + confidence / 2)) * math.sqrt(variance)
        interval = prediction_powered_delta(differences, candidate, baseline, confidence=confidence)
        assert interval.estimate == pytest.approx(estimate, abs=1e-12)
        assert interval.estimate == pytest.approx(0.25 - 0.4 - 0.25, abs=1e-12)
        assert interval.low == pytest.approx(estimate - half, abs=1e-12)
        assert interval.high == pytest.approx(estimate + half, abs=1e-12)
        assert (interval.n, interval.method, interval.reason) == (
            27,
            reasons.PREDICTION_POWERED,
            None,
        )


def test_from_a_judged_delta_and_variance() -> None:
    interval = prediction_powered_interval(0.10, 0.0004, [0.0, 1.0, 0.0, 0.0], [0.0, 0.0])
    variance = 0.0004 + statistics.variance([0.0, 1.0, 0.0, 0.0]) / 4
    assert interval.estimate == pytest.approx(0.10 - 0.25)
    assert interval.high - interval.estimate == pytest.approx(1.959963984540054 * variance**0.5)


def test_interval_is_clipped_to_the_range_of_a_difference() -> None:
    interval = prediction_powered_interval(0.95, 0.01, [-1.0, -1.0, -1.0], [0.0, 1.0, 0.0])
    assert interval.estimate == 1.0
    assert interval.high == 1.0
    assert -1.0 < interval.low < 1.0


def test_too_few_labels_give_the_whole_range() -> None:
    interval = prediction_powered_delta([0.0, 1.0, 1.0], [1.0], [0.0, 0.0])
    assert (interval.low, interval.high, interval.reason) == (-1.0, 1.0, reasons.TOO_FEW_LABELS)
    assert interval.estimate == pytest.approx(2 / 3)


def test_degenerate_inputs() -> None:
    assert prediction_powered_delta([], [0.0, 0.0], [0.0, 0.0]).reason == reasons.NO_CASES
    assert prediction_powered_delta([1.0], [0.0, 0.0], [0.0, 0.0]).reason == reasons.ONE_CASE
    nan = prediction_powered_delta([0.0, math.nan], [0.0, 0.0], [0.0, 0.0])
    assert nan.reason == reasons.NON_FINITE_INPUT
    exact = prediction_powered_delta([0.5, 0.5], [0.0, 0.0], [0.0, 0.0])
    assert (exact.estimate, exact.low, exact.high) == (0.5, 0.5, 0.5)
    assert exact.reason == reasons.ZERO_VARIANCE
    with pytest.raises(ValueError):
        prediction_powered_interval(0.0, -1.0, [0.0, 0.0], [0.0, 0.0])
    with pytest.raises(ValueError):
        prediction_powered_interval(0.0, 0.0, [2.0, 0.0], [0.0, 0.0])


# The simulation of docs/labels.md: a judge lenient to the candidate (it passes 30% of the
# candidate's fails, 10% of the baseline's) and strict to the baseline's passes.
SIMULATIONS = 500
CASES = 400
LABELS = 120
TRUE_RATES = (0.66, 0.60)  # candidate, baseline: true Δ = +6 points
SENSITIVITY = (0.95, 0.85)
SPECIFICITY = (0.70, 0.90)


def _judge(
    truth: npt.NDArray[np.bool_], cohort: int, rng: np.random.Generator
) -> npt.NDArray[np.bool_]:
    draw = rng.random(truth.shape)
    return np.where(truth, draw < SENSITIVITY[cohort], draw >= SPECIFICITY[cohort])


def test_corrected_interval_covers_the_true_delta_where_the_judged_one_does_not() -> None:
    rng = np.random.default_rng(20261203)
    true_delta = TRUE_RATES[0] - TRUE_RATES[1]
    # Paired cases: one difficulty per case, so the cohorts' truths are correlated.
    difficulty = rng.random((SIMULATIONS, CASES))
    truth = [difficulty < rate for rate in TRUE_RATES]
    judged = [_judge(truth[cohort], cohort, rng) for cohort in (0, 1)]
    rectifiers = [judged[c].astype(float) - truth[c].astype(float) for c in (0, 1)]
    differences = judged[0].astype(float) - judged[1].astype(float)
    # The queue labels a simple random sample of the 2·CASES graded trials.
    order = np.argsort(rng.random((SIMULATIONS, 2 * CASES)), axis=1)[:, :LABELS]
    covered = uncorrected_covered = 0
    for sim in range(SIMULATIONS):
        picked = order[sim]
        candidate_labelled = picked[picked < CASES]
        baseline_labelled = picked[picked >= CASES] - CASES
        interval = prediction_powered_delta(
            differences[sim],
            rectifiers[0][sim, candidate_labelled],
            rectifiers[1][sim, baseline_labelled],
        )
        assert interval.reason is None
        covered += interval.low <= true_delta <= interval.high
        judged_delta = differences[sim].mean()
        half = 1.959963984540054 * differences[sim].std(ddof=1) / math.sqrt(CASES)
        uncorrected_covered += judged_delta - half <= true_delta <= judged_delta + half
    assert covered / SIMULATIONS >= 0.93
    assert uncorrected_covered / SIMULATIONS < 0.5
