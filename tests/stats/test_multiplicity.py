"""Holm adjustment against statsmodels `multipletests`."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from statsmodels.stats.multitest import multipletests

from stats.multiplicity import holm


@pytest.mark.parametrize(
    "p_values",
    [[0.01, 0.04, 0.03], [0.5], [0.001, 0.001, 0.2, 0.9], [0.04, 0.01, 0.02, 0.03, 0.05]],
)
def test_matches_statsmodels(p_values: list[float]) -> None:
    expected = multipletests(p_values, method="holm")[1]
    assert holm(p_values) == pytest.approx(tuple(expected), rel=1e-12)


def test_literal() -> None:
    assert holm([0.01, 0.04, 0.03]) == pytest.approx((0.03, 0.06, 0.06))


def test_empty() -> None:
    assert holm([]) == ()


def test_rejects_values_outside_unit_range() -> None:
    with pytest.raises(ValueError):
        holm([0.2, 1.5])


@settings(max_examples=100, deadline=None)
@given(st.lists(st.floats(min_value=0.0, max_value=1.0), min_size=1, max_size=12))
def test_properties(p_values: list[float]) -> None:
    adjusted = holm(p_values)
    assert all(0.0 <= a <= 1.0 for a in adjusted)
    assert all(a >= p for a, p in zip(adjusted, p_values, strict=True))
    order = np.argsort(p_values, kind="stable")
    assert np.all(np.diff(np.array(adjusted)[order]) >= 0.0)
