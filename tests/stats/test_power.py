"""MDE solved with the power function, against statsmodels; adequacy."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from statsmodels.stats.power import NormalIndPower
from statsmodels.stats.proportion import power_proportions_2indep

from stats import reasons
from stats.power import adequacy, paired_mde, two_proportion_power, unpaired_mde


@pytest.mark.parametrize(("rate", "n"), [(0.5, 100), (0.9, 200), (0.02, 400), (1.0, 50), (0.0, 30)])
def test_unpaired_mde_has_eighty_percent_power_in_statsmodels(rate: float, n: int) -> None:
    mde = unpaired_mde(rate, n)
    direction = 1.0 if rate < 0.5 else -1.0
    power = power_proportions_2indep(direction * mde.value, rate, n, alpha=0.05).power
    assert mde.reason is None
    assert power == pytest.approx(0.8, abs=1e-9)


@pytest.mark.parametrize(("rate", "difference", "n"), [(0.7, -0.1, 150), (0.1, 0.05, 500)])
def test_power_function_matches_statsmodels(rate: float, difference: float, n: int) -> None:
    expected = power_proportions_2indep(difference, rate, n, alpha=0.05).power
    assert two_proportion_power(rate, difference, n) == pytest.approx(expected, rel=1e-12)


def test_unpaired_mde_exceeds_plain_normal_formula_near_the_edges() -> None:
    rate, n = 0.03, 300
    plain = 2.8015852 * math.sqrt(2 * rate * (1 - rate) / n)
    assert unpaired_mde(rate, n).value > 1.2 * plain


def test_unpaired_mde_degenerate_inputs() -> None:
    assert unpaired_mde(0.5, 0).reason == reasons.NO_CASES
    tiny = unpaired_mde(0.5, 3)
    assert (tiny.value, tiny.reason) == (0.5, reasons.POWER_NOT_REACHABLE)


@pytest.mark.parametrize("n", [20, 57, 400])
def test_paired_mde_matches_normal_power_one_sample(n: int) -> None:
    differences = np.random.default_rng(n).integers(-3, 4, size=n) / 3
    effect = NormalIndPower().solve_power(nobs1=n, alpha=0.05, power=0.8, ratio=0)
    expected = effect * differences.std(ddof=1)
    # statsmodels also counts the far tail, Φ(−z₀.₉₇₅ − 2.80) ≈ 1e-6 of power, so its
    # effect is smaller by a few parts per million than SPEC's 2.8016·SD/√n.
    assert paired_mde(differences).value == pytest.approx(expected, rel=2e-5)


def test_paired_mde_is_2_8016_sd_over_root_n() -> None:
    differences = np.array([0.0, 1.0, 0.0, -1.0] * 25)
    expected = 2.8016 * math.sqrt(differences.var(ddof=1) / 100)
    assert paired_mde(differences).value == pytest.approx(expected, rel=1e-4)


@pytest.mark.parametrize(
    ("values", "value", "reason"),
    [
        ([], 1.0, reasons.NO_CASES),
        ([0.2], 1.0, reasons.ONE_CASE),
        ([0.0] * 9, 0.0, reasons.ZERO_VARIANCE),
    ],
)
def test_paired_mde_degenerate(values: list[float], value: float, reason: str) -> None:
    mde = paired_mde(values)
    assert (mde.value, mde.reason) == (value, reason)


@pytest.mark.parametrize(
    ("n", "mde", "expected"),
    [
        (19, 0.01, reasons.INSUFFICIENT),
        (20, 0.06, reasons.UNDERPOWERED),
        (20, 0.05, reasons.ADEQUATE),
        (5000, 0.02, reasons.ADEQUATE),
    ],
)
def test_adequacy(n: int, mde: float, expected: str) -> None:
    assert adequacy(n, mde, target_effect=0.05) == expected


@settings(max_examples=60, deadline=None)
@given(st.floats(min_value=0.0, max_value=1.0), st.integers(min_value=1, max_value=20_000))
def test_unpaired_mde_is_defined_everywhere(rate: float, n: int) -> None:
    mde = unpaired_mde(rate, n)
    assert 0.0 < mde.value <= 1.0
    assert unpaired_mde(rate, n * 4).value <= mde.value + 1e-9
