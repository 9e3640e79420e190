"""Percentiles and per-case means for the scorecard's cost, latency and token rows."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import scoreatpercentile

from stats.descriptive import case_means, percentile


@pytest.mark.parametrize("q", [0.0, 5.0, 50.0, 95.0, 100.0])
@pytest.mark.parametrize("values", [[7.0], [3.0, 1.0, 2.0], list(np.linspace(-4, 9, 17)) + [1e6]])
def test_percentile_matches_scipy(values: list[float], q: float) -> None:
    assert percentile(values, q) == pytest.approx(scoreatpercentile(values, q), abs=1e-12)


def test_percentile_of_nothing_is_none_and_q_is_checked() -> None:
    assert percentile([], 50.0) is None
    with pytest.raises(ValueError):
        percentile([1.0], 101.0)


def test_case_means_mark_empty_cases_missing() -> None:
    means = case_means([[6.0, 0.0], [3.0, 5.0]], [[3, 0], [1, 2]])
    assert means[0, 0] == 2.0 and np.isnan(means[0, 1])
    assert list(means[1]) == [3.0, 2.5]
    with pytest.raises(ValueError):
        case_means([1.0, 2.0], [1])
