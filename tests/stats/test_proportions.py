"""Pooled two-proportion z-test against statsmodels `proportions_ztest`."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from statsmodels.stats.proportion import proportions_ztest

from stats import reasons
from stats.proportions import two_proportion_ztest


@pytest.mark.parametrize(
    ("x1", "n1", "x2", "n2"),
    [(45, 60, 30, 60), (10, 20, 11, 20), (1, 50, 9, 50), (99, 100, 100, 100)],
)
def test_matches_statsmodels(x1: int, n1: int, x2: int, n2: int) -> None:
    statistic, p_value = proportions_ztest([x1, x2], [n1, n2])
    result = two_proportion_ztest(x1, n1, x2, n2)
    assert result.z == pytest.approx(statistic, rel=1e-12)
    assert result.p_value == pytest.approx(p_value, rel=1e-12)
    assert result.delta == pytest.approx(x1 / n1 - x2 / n2)


@pytest.mark.parametrize(
    ("x1", "x2", "reason"), [(20, 20, reasons.ALL_PASS), (0, 0, reasons.ALL_FAIL)]
)
def test_both_sides_all_pass_or_all_fail_give_p_one(x1: int, x2: int, reason: str) -> None:
    result = two_proportion_ztest(x1, 20, x2, 20)
    assert (result.p_value, result.z, result.reason) == (1.0, 0.0, reason)


def test_empty_side_gives_p_one() -> None:
    result = two_proportion_ztest(0, 0, 3, 5)
    assert (result.p_value, result.reason) == (1.0, reasons.NO_CASES)


def test_rejects_impossible_counts() -> None:
    with pytest.raises(ValueError):
        two_proportion_ztest(5, 4, 1, 4)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 200), st.integers(0, 200), st.data())
def test_p_in_unit_range_and_swap_symmetric(n1: int, n2: int, data: st.DataObject) -> None:
    x1 = data.draw(st.integers(0, n1))
    x2 = data.draw(st.integers(0, n2))
    forward = two_proportion_ztest(x1, n1, x2, n2)
    backward = two_proportion_ztest(x2, n2, x1, n1)
    assert 0.0 <= forward.p_value <= 1.0
    assert backward.p_value == pytest.approx(forward.p_value)
    assert backward.delta == pytest.approx(-forward.delta)
