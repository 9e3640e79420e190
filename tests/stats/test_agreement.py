"""Cohen's κ and its interval, sensitivity and specificity, against statsmodels."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import norm
from statsmodels.stats.inter_rater import cohens_kappa as sm_cohens_kappa
from statsmodels.stats.proportion import proportion_confint

from stats import reasons
from stats.agreement import cohens_kappa, judge_agreement, kappa_standard_error

TABLES = [
    [[20, 5], [10, 15]],
    [[45, 3], [7, 25]],
    [[88, 14], [10, 8]],
    [[30, 0], [4, 16]],
    [[12, 9], [11, 10]],
    [[3, 17], [15, 5]],
    [[25, 3, 2], [4, 30, 6], [1, 5, 24]],
]


@pytest.mark.parametrize("table", TABLES)
def test_kappa_and_interval_match_statsmodels(table: list[list[int]]) -> None:
    expected = sm_cohens_kappa(np.array(table))
    interval = cohens_kappa(table)
    assert interval.estimate == pytest.approx(expected.kappa, abs=1e-12)
    assert interval.low == pytest.approx(max(expected.kappa_low, -1.0), abs=1e-12)
    assert interval.high == pytest.approx(min(expected.kappa_upp, 1.0), abs=1e-12)
    assert kappa_standard_error(table) == pytest.approx(expected.std_kappa, abs=1e-12)
    assert interval.n == int(np.sum(table))
    assert interval.method == reasons.FLEISS_COHEN_EVERITT
    assert interval.reason is None


def test_kappa_literal_value() -> None:
    # p_o = 35/50 = 0.7, p_e = 0.5·0.6 + 0.5·0.4 = 0.5, κ = 0.2/0.5 = 0.4.
    assert cohens_kappa([[20, 5], [10, 15]]).estimate == pytest.approx(0.4, abs=1e-12)


@pytest.mark.parametrize("confidence", [0.8, 0.9, 0.99])
def test_kappa_interval_at_other_levels_matches_statsmodels(confidence: float) -> None:
    table = np.array([[45, 3], [7, 25]])
    expected = sm_cohens_kappa(table)
    expected_std = float(expected.std_kappa)
    half = norm.ppf(0.5 + confidence / 2) * expected_std
    interval = cohens_kappa(table, confidence=confidence)
    assert interval.low == pytest.approx(expected.kappa - half, abs=1e-12)
    assert interval.high == pytest.approx(expected.kappa + half, abs=1e-12)


def test_kappa_interval_is_clipped_to_minus_one_one() -> None:
    table = np.array([[9, 0], [1, 1]])
    expected = sm_cohens_kappa(table)
    assert expected.kappa_upp > 1.0  # the unclipped normal interval leaves κ's range
    interval = cohens_kappa(table)
    assert interval.high == 1.0
    assert interval.low == pytest.approx(expected.kappa_low, abs=1e-12)


def test_kappa_degenerate_tables() -> None:
    empty = cohens_kappa([[0, 0], [0, 0]])
    assert (empty.estimate, empty.low, empty.high, empty.reason) == (0.0, -1.0, 1.0, "NO_CASES")
    one_class = cohens_kappa([[12, 0], [0, 0]])
    assert (one_class.low, one_class.high, one_class.n) == (-1.0, 1.0, 12)
    assert one_class.reason == reasons.KAPPA_UNDEFINED
    assert kappa_standard_error([[12, 0], [0, 0]]) == 0.0
    perfect = cohens_kappa([[7, 0], [0, 5]])
    assert (perfect.estimate, perfect.low, perfect.high) == pytest.approx((1.0, 1.0, 1.0))
    assert perfect.reason == reasons.ZERO_VARIANCE
    constant_judge = cohens_kappa([[0, 10], [0, 20]])  # the judge fails everything
    assert (constant_judge.estimate, constant_judge.reason) == (0.0, reasons.ZERO_VARIANCE)


def test_kappa_rejects_bad_tables() -> None:
    with pytest.raises(ValueError):
        cohens_kappa([[1, 2, 3], [4, 5, 6]])
    with pytest.raises(ValueError):
        cohens_kappa([[1, -2], [3, 4]])


def test_agreement_counts_rates_and_wilson_intervals() -> None:
    # 10 labelled trials: human pass on the first 6; the judge passes 5 of those
    # and 2 of the 4 human fails.
    human = [True] * 6 + [False] * 4
    judge = [True, True, True, True, True, False, True, True, False, False]
    agreement = judge_agreement(judge, human)
    assert agreement.labels == 10
    assert (agreement.true_pass, agreement.false_fail) == (5, 1)
    assert (agreement.false_pass, agreement.true_fail) == (2, 2)
    assert agreement.agreement == pytest.approx(0.7)
    sens_low, sens_high = proportion_confint(5, 6, alpha=0.05, method="wilson")
    spec_low, spec_high = proportion_confint(2, 4, alpha=0.05, method="wilson")
    assert agreement.sensitivity.estimate == pytest.approx(5 / 6)
    assert (agreement.sensitivity.low, agreement.sensitivity.high) == pytest.approx(
        (sens_low, sens_high), abs=1e-12
    )
    assert agreement.specificity.estimate == pytest.approx(0.5)
    assert (agreement.specificity.low, agreement.specificity.high) == pytest.approx(
        (spec_low, spec_high), abs=1e-12
    )
    expected = sm_cohens_kappa(np.array([[5, 1], [2, 2]]))
    assert agreement.kappa.estimate == pytest.approx(expected.kappa, abs=1e-12)
    assert agreement.kappa_se == pytest.approx(expected.std_kappa, abs=1e-12)


def test_agreement_without_labels() -> None:
    agreement = judge_agreement([], [])
    assert (agreement.labels, agreement.agreement) == (0, 0.0)
    assert agreement.kappa.reason == reasons.NO_CASES
    assert agreement.sensitivity.reason == reasons.NO_CASES
    assert agreement.specificity.reason == reasons.NO_CASES


def test_agreement_rejects_unpaired_inputs() -> None:
    with pytest.raises(ValueError):
        judge_agreement([True, False], [True])


@pytest.mark.filterwarnings("ignore:invalid value:RuntimeWarning")  # statsmodels' √(−1e-16)
@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.booleans(), st.booleans()), min_size=1, max_size=300))
def test_agreement_matches_statsmodels_on_any_labels(pairs: list[tuple[bool, bool]]) -> None:
    judge = np.array([j for j, _ in pairs])
    human = np.array([h for _, h in pairs])
    agreement = judge_agreement(judge, human)
    table = np.array(
        [
            [np.sum(human & judge), np.sum(human & ~judge)],
            [np.sum(~human & judge), np.sum(~human & ~judge)],
        ]
    )
    assert agreement.agreement == pytest.approx(np.mean(judge == human))
    if agreement.kappa.reason == reasons.KAPPA_UNDEFINED:
        # Both raters used one class only: p_e = 1 and κ = 0/0.
        assert len(set(judge.tolist()) | set(human.tolist())) == 1
        return
    expected = sm_cohens_kappa(table)
    assert agreement.kappa.estimate == pytest.approx(expected.kappa, abs=1e-9)
    if agreement.kappa.reason == reasons.ZERO_VARIANCE:
        # statsmodels' variance is 0 up to rounding (its √ may be NaN from −1e-16).
        assert abs(expected.var_kappa) < 1e-12
        assert agreement.kappa.low == agreement.kappa.high == agreement.kappa.estimate
        return
    assert agreement.kappa.low == pytest.approx(max(-1.0, expected.kappa_low), abs=1e-9)
    assert agreement.kappa.high == pytest.approx(min(1.0, expected.kappa_upp), abs=1e-9)
