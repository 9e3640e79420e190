"""stats.sequential: the hedged betting confidence sequence (Waudby-Smith & Ramdas 2024)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from stats.sequential import betting_cs, decide_sequence, hedged_capital
from tests.stats.betting_reference import reference_betting_cs

FIXED = [
    [1.0, 0.0, -1.0, 0.0, 0.0, 1.0, 1.0, 0.0, -1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0],
    [-1.0] * 6 + [0.0] * 20 + [-1.0, 0.0, -1.0, -1.0, 0.0, 0.0, -1.0, -1.0],
    [0.5, -0.25, 1.0, 1.0, 0.75, 0.0, 1.0, 0.25, 1.0, 1.0, 0.5, 1.0, -0.5, 1.0],
    [1 / 3, -2 / 3, 0.0, 1.0, 0.0, -1 / 3, 0.0, 2 / 3, 1.0, 1.0, 0.0, 1 / 3],
]


@pytest.mark.parametrize("sequence", FIXED)
@pytest.mark.parametrize("alpha", [0.05, 0.0125])
def test_matches_a_straightforward_loop(sequence: list[float], alpha: float) -> None:
    low, high = betting_cs(sequence, alpha)
    want_low, want_high = reference_betting_cs(sequence, alpha)
    assert low.shape == high.shape == (len(sequence),)
    assert low.tolist() == pytest.approx(want_low, abs=1e-12)
    assert high.tolist() == pytest.approx(want_high, abs=1e-12)


def test_a_longer_random_sequence_matches_the_loop() -> None:
    rng = np.random.default_rng(7)
    sequence = rng.choice([-1.0, -0.5, 0.0, 0.5, 1.0], p=[0.2, 0.1, 0.4, 0.1, 0.2], size=150)
    low, high = betting_cs(sequence, 0.05, grid_points=201)
    want_low, want_high = reference_betting_cs(sequence.tolist(), 0.05, grid_points=201)
    assert low.tolist() == pytest.approx(want_low, abs=1e-12)
    assert high.tolist() == pytest.approx(want_high, abs=1e-12)


def test_rows_are_independent_sequences() -> None:
    rows = np.array([FIXED[0][:12], FIXED[2][:12], FIXED[3][:12]])
    low, high = betting_cs(rows, 0.05)
    for row, lo, hi in zip(rows, low, high, strict=True):
        one_low, one_high = betting_cs(row, 0.05)
        assert lo.tolist() == one_low.tolist()
        assert hi.tolist() == one_high.tolist()


def test_bounds_never_widen_and_contain_the_mean_of_a_long_sequence() -> None:
    rng = np.random.default_rng(11)
    sequence = rng.choice([-1.0, 0.0, 1.0], p=[0.15, 0.6, 0.25], size=3000)
    low, high = betting_cs(sequence, 0.05)
    assert np.all(np.diff(low) >= 0) and np.all(np.diff(high) <= 0)
    assert np.all(low <= high)
    assert low[-1] < 0.10 < high[-1]
    assert high[-1] - low[-1] < 0.12


SCENARIOS = [
    # (true mean, P(-1), P(0), P(+1)): paired differences of one-trial outcomes
    (0.0, 0.1, 0.8, 0.1),
    (0.0, 0.0, 1.0, 0.0),
    (-0.092, 0.096, 0.9, 0.004),
    (0.9, 0.02, 0.06, 0.92),
    (-0.95, 0.96, 0.03, 0.01),
]


@pytest.mark.parametrize(("mean", "p_down", "p_same", "p_up"), SCENARIOS)
def test_time_uniform_coverage(mean: float, p_down: float, p_same: float, p_up: float) -> None:
    """2,000 sequences of 2,000: the share that ever excludes the truth ≤ α + 3 MC SE."""
    alpha = 0.05
    rng = np.random.default_rng(int(1000 * (mean + 2)))
    draws = rng.choice([-1.0, 0.0, 1.0], p=[p_down, p_same, p_up], size=(2000, 2000))
    low, high = betting_cs(draws, alpha, grid_points=201)
    ever_out = ((low > mean + 1e-12) | (high < mean - 1e-12)).any(axis=1)
    limit = alpha + 3 * math.sqrt(alpha * (1 - alpha) / draws.shape[0])
    assert ever_out.mean() <= limit
    # the exact test at the truth (no grid) holds too
    capital = hedged_capital(draws, mean, alpha)
    assert (capital[:, -1] >= 1 / alpha).mean() <= limit


def test_empty_and_single_observations() -> None:
    low, high = betting_cs([], 0.05)
    assert low.shape == high.shape == (0,)
    low, high = betting_cs([0.0], 0.05)
    assert low.tolist() == [-1.0] and high.tolist() == [1.0]


@pytest.mark.parametrize("value", [-1.0, 1.0, 0.0, 0.4])
def test_all_equal_observations_narrow_towards_the_value(value: float) -> None:
    low, high = betting_cs([value] * 400, 0.05)
    assert np.isfinite(low).all() and np.isfinite(high).all()
    assert np.all(low <= value + 1e-12) and np.all(high >= value - 1e-12)
    assert high[-1] - low[-1] < 0.1
    if value == -1.0:
        assert low[-1] == -1.0
    if value == 1.0:
        assert high[-1] == 1.0


@pytest.mark.parametrize("bad", [[1.5], [float("nan")], [-1.01, 0.0]])
def test_values_outside_the_range_are_refused(bad: list[float]) -> None:
    with pytest.raises(ValueError):
        betting_cs(bad, 0.05)


def test_alpha_must_be_a_probability() -> None:
    with pytest.raises(ValueError):
        betting_cs([0.0], 0.0)


@pytest.mark.parametrize(
    ("low", "high", "outcome"),
    [
        (-0.30, -0.02, "REGRESSED"),
        (-0.30, 2 * 0.495 - 1, None),  # at −ε up to float noise: not beyond it
        (0.02, 0.30, "IMPROVED"),
        (2 * 0.505 - 1, 0.30, None),
        (-0.04, 0.05, "NO_CHANGE"),
        (-0.06, 0.04, None),
        (-0.04, -0.02, "REGRESSED"),  # beyond −ε takes precedence over within the target
    ],
)
def test_decisions_from_the_bounds(low: float, high: float, outcome: str | None) -> None:
    assert decide_sequence(low, high, epsilon=0.01, target_effect=0.05).outcome == outcome
