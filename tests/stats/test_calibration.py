"""The JUDGE_UNCALIBRATED rule and the labels it needs, checked with statsmodels' κ interval."""

from __future__ import annotations

import numpy as np
import pytest
from statsmodels.stats.inter_rater import cohens_kappa as sm_cohens_kappa

from stats import reasons
from stats.agreement import judge_agreement
from stats.calibration import judge_calibration


def _labels(
    true_pass: int, false_fail: int, false_pass: int, true_fail: int
) -> tuple[list[bool], list[bool]]:
    judge = [True] * true_pass + [False] * false_fail + [True] * false_pass + [False] * true_fail
    human = [True] * (true_pass + false_fail) + [False] * (false_pass + true_fail)
    return judge, human


def _statsmodels_low(table: np.ndarray, total: float) -> float:
    """κ's 95% low end if the table's proportions held over `total` labels."""
    return float(sm_cohens_kappa(table * (total / table.sum())).kappa_low)


@pytest.mark.parametrize("counts", [(20, 3, 4, 13), (30, 2, 3, 15), (14, 2, 1, 8), (30, 6, 5, 19)])
def test_labels_needed_bring_statsmodels_low_end_to_the_bound(
    counts: tuple[int, int, int, int],
) -> None:
    agreement = judge_agreement(*_labels(*counts))
    calibration = judge_calibration(agreement, min_labels=30, min_kappa=0.6)
    table = np.array([[counts[0], counts[1]], [counts[2], counts[3]]], dtype=float)
    n = int(table.sum())
    assert not calibration.calibrated
    assert calibration.more_labels is not None and calibration.more_labels >= 1
    total = n + calibration.more_labels
    # With the proportions as observed: enough at `total`, not enough one label short
    # (unless the floor of 30 labels is what binds).
    assert _statsmodels_low(table, total) >= 0.6
    if total > 30:
        assert _statsmodels_low(table, total - 1) < 0.6


def test_enough_labels_with_a_high_low_end_is_calibrated() -> None:
    agreement = judge_agreement(*_labels(60, 2, 3, 35))
    expected_low = sm_cohens_kappa(np.array([[60, 2], [3, 35]])).kappa_low
    assert expected_low >= 0.6  # the case this test is about
    calibration = judge_calibration(agreement)
    assert (calibration.calibrated, calibration.more_labels, calibration.reason) == (True, 0, None)


def test_the_label_floor_binds_when_kappa_is_already_tight() -> None:
    agreement = judge_agreement(*_labels(12, 0, 0, 8))  # perfect agreement on 20 labels
    calibration = judge_calibration(agreement, min_labels=30, min_kappa=0.6)
    assert (calibration.calibrated, calibration.more_labels) == (False, 10)


def test_kappa_at_or_below_the_bound_cannot_be_fixed_by_labels() -> None:
    agreement = judge_agreement(*_labels(20, 10, 10, 20))  # κ = 1/3
    calibration = judge_calibration(agreement, min_labels=30, min_kappa=0.6)
    assert calibration.calibrated is False
    assert (calibration.more_labels, calibration.reason) == (None, reasons.KAPPA_BELOW_BOUND)


def test_no_labels_need_the_floor() -> None:
    calibration = judge_calibration(judge_agreement([], []), min_labels=30, min_kappa=0.6)
    assert (calibration.calibrated, calibration.more_labels) == (False, 30)
    assert calibration.reason == reasons.NO_CASES


def test_one_class_only_is_undefined() -> None:
    agreement = judge_agreement([True] * 40, [True] * 40)
    calibration = judge_calibration(agreement)
    assert (calibration.calibrated, calibration.more_labels) == (False, None)
    assert calibration.reason == reasons.KAPPA_UNDEFINED


def test_a_bound_of_minus_one_asks_only_for_the_floor() -> None:
    agreement = judge_agreement([True] * 5, [True] * 5)
    assert judge_calibration(agreement, min_labels=5, min_kappa=-1.0).calibrated
    assert not judge_calibration(agreement, min_labels=6, min_kappa=-1.0).calibrated


def test_rejects_bad_policy() -> None:
    agreement = judge_agreement([True], [True])
    with pytest.raises(ValueError):
        judge_calibration(agreement, min_labels=-1)
    with pytest.raises(ValueError):
        judge_calibration(agreement, min_kappa=1.5)
