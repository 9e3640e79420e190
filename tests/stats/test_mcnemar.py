"""McNemar mid-p and exact conditional p against statsmodels/scipy and literals."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import binom, binomtest
from statsmodels.stats.contingency_tables import mcnemar

from stats import reasons
from stats.mcnemar import mcnemar_from_counts, mcnemar_test


def test_literal_values() -> None:
    # b = 1, c = 7: P(X ≤ 1) = 9/256, P(X = 1) = 8/256 for X ~ Bin(8, ½).
    result = mcnemar_from_counts(1, 7, 30)
    assert result.exact_p_value == pytest.approx(18 / 256, rel=1e-12)
    assert result.p_value == pytest.approx(10 / 256, rel=1e-12)
    assert result.delta == pytest.approx(-6 / 30)


@pytest.mark.parametrize(("improved", "regressed"), [(3, 12), (12, 3), (5, 6), (0, 9), (40, 22)])
def test_matches_statsmodels_and_scipy(improved: int, regressed: int) -> None:
    agree_pass, agree_fail = 30, 25
    table = [[agree_pass, improved], [regressed, agree_fail]]
    n = agree_pass + agree_fail + improved + regressed
    result = mcnemar_from_counts(improved, regressed, n)
    k, m = min(improved, regressed), improved + regressed
    assert result.exact_p_value == pytest.approx(mcnemar(table, exact=True).pvalue, rel=1e-12)
    assert result.exact_p_value == pytest.approx(binomtest(k, m, 0.5).pvalue, rel=1e-12)
    mid_p = 2 * (binom.cdf(k, m, 0.5) - 0.5 * binom.pmf(k, m, 0.5))
    assert result.p_value == pytest.approx(min(1.0, mid_p), rel=1e-12)


def test_from_outcome_arrays() -> None:
    candidate = np.array([1, 1, 0, 0, 1, 0, 1, 1], dtype=bool)
    baseline = np.array([1, 0, 1, 0, 0, 0, 0, 1], dtype=bool)
    result = mcnemar_test(candidate, baseline)
    assert (result.n, result.improved, result.regressed) == (8, 3, 1)
    assert result.delta == pytest.approx(2 / 8)


def test_no_discordant_pairs() -> None:
    result = mcnemar_test([True, False, True], [True, False, True])
    assert (result.p_value, result.exact_p_value, result.reason) == (
        1.0,
        1.0,
        reasons.NO_DISCORDANT_PAIRS,
    )


def test_no_cases() -> None:
    result = mcnemar_test([], [])
    assert (result.n, result.p_value, result.delta, result.reason) == (
        0,
        1.0,
        0.0,
        reasons.NO_CASES,
    )


def test_balanced_discordance_gives_p_one() -> None:
    result = mcnemar_from_counts(6, 6, 20)
    assert result.p_value == pytest.approx(1.0)
    assert result.exact_p_value == 1.0


def test_mismatched_lengths_raise() -> None:
    with pytest.raises(ValueError):
        mcnemar_test([True], [True, False])


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 300), st.integers(0, 300), st.integers(0, 300))
def test_properties(improved: int, regressed: int, agree: int) -> None:
    n = improved + regressed + agree
    forward = mcnemar_from_counts(improved, regressed, n)
    backward = mcnemar_from_counts(regressed, improved, n)
    assert 0.0 <= forward.p_value <= forward.exact_p_value <= 1.0
    assert backward.p_value == forward.p_value
    assert backward.delta == -forward.delta
