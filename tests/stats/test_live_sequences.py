"""stats.live.means and stats.live.quantiles: anytime-valid sequences of two independent arms.

Coverage is checked by simulation: over ≥ 2,000 streams drawn under the null, the share
whose sequence ever leaves out the truth must stay at or below α. The rate is reported with
its Wilson 95% interval (Wilson 1927), written out here as the reference.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from stats.live import difference_sequence, quantile_bounds, quantile_ratio_interval
from stats.live.means import (
    ever_excludes_difference,
    ever_excludes_mean,
    mean_sequence,
    ratio_interval,
)
from stats.live.quantiles import ever_excludes_quantile

STREAMS = 2_000
ALPHA = 0.05


def wilson(successes: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion."""
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def report(name: str, excluded: np.ndarray) -> float:
    count, n = int(excluded.sum()), int(excluded.size)
    low, high = wilson(count, n)
    print(f"{name}: {count}/{n} = {count / n:.4f} (Wilson 95% {low:.4f} to {high:.4f})")  # noqa: T201
    assert n >= STREAMS
    return count / n


@pytest.mark.parametrize(("p_candidate", "p_baseline"), [(0.7, 0.7), (0.9, 0.6), (0.5, 0.55)])
def test_difference_sequence_ever_excludes_the_truth_at_most_alpha(
    p_candidate: float, p_baseline: float
) -> None:
    rng = np.random.default_rng(47)
    cand = (rng.random((STREAMS, 1_000)) < p_candidate).astype(float)
    base = (rng.random((STREAMS, 1_000)) < p_baseline).astype(float)
    rate = report(
        "difference", ever_excludes_difference(cand, base, p_candidate - p_baseline, ALPHA)
    )
    assert rate <= ALPHA


def test_the_exclusion_check_agrees_with_the_sequence_itself() -> None:
    rng = np.random.default_rng(3)
    cand = (rng.random((60, 300)) < 0.6).astype(float)
    base = (rng.random((60, 300)) < 0.6).astype(float)
    seq = difference_sequence(cand, base, 0.3)  # a loose α, so some streams leave it out
    seen = ((seq.low > 1e-9) | (seq.high < -1e-9)).any(axis=1)
    exact = ever_excludes_difference(cand, base, 0.0, 0.3)
    assert seen.sum() > 0
    # The grid bounds sit one step outside the exact sequence: they exclude no more often.
    assert not (seen & ~exact).any()


def test_mean_sequences_of_bounded_costs_cover_each_arm() -> None:
    rng = np.random.default_rng(11)
    values = rng.beta(2.0, 5.0, size=(STREAMS, 800))
    rate = report("mean", ever_excludes_mean(values, 2.0 / 7.0, ALPHA / 2))
    assert rate <= ALPHA / 2


@pytest.mark.parametrize("p", [0.5, 0.95])
def test_quantile_sequence_ever_excludes_the_true_quantile_at_most_alpha(p: float) -> None:
    rng = np.random.default_rng(95)
    values = rng.exponential(200.0, size=(STREAMS, 1_500))
    truth = -200.0 * math.log(1.0 - p)
    rate = report(f"quantile {p}", ever_excludes_quantile(values, truth, p, ALPHA))
    assert rate <= ALPHA


def test_difference_sequence_narrows_and_holds_the_running_mean() -> None:
    rng = np.random.default_rng(5)
    cand = (rng.random(800) < 0.8).astype(float)
    base = (rng.random(900) < 0.5).astype(float)
    seq = difference_sequence(cand, base, 0.1)
    assert seq.pairs == 800  # the larger arm's extra traces wait for a partner
    assert np.all(np.diff(seq.high) <= 1e-12) and np.all(np.diff(seq.low) >= -1e-12)
    assert np.all(seq.low <= seq.estimate + 1e-9) and np.all(seq.estimate <= seq.high + 1e-9)
    assert seq.low[-1] > 0.1  # a 30-point gain is seen
    assert seq.last().estimate == pytest.approx(cand.mean() - base[:800].mean())


def test_no_pairs_gives_the_whole_range() -> None:
    seq = difference_sequence([1.0, 0.0], [], 0.1)
    assert seq.pairs == 0
    assert seq.last().low == -1.0 and seq.last().high == 1.0 and seq.last().estimate is None


def test_values_outside_the_unit_interval_are_refused() -> None:
    with pytest.raises(ValueError, match="candidate"):
        difference_sequence([1.5], [0.0], 0.1)


def test_ratio_of_means_brackets_a_doubled_cost() -> None:
    rng = np.random.default_rng(8)
    base = rng.uniform(0.8, 1.2, size=400)
    cand = rng.uniform(1.6, 2.4, size=400)
    interval = ratio_interval(cand, base, bound=5.0, alpha=0.1)
    assert interval.low is not None and interval.high is not None
    assert 1.2 < interval.low < 2.0 < interval.high < 3.0
    assert interval.estimate == pytest.approx(cand.mean() / base.mean())
    low, high = mean_sequence(base / 5.0, 0.05)
    assert low[-1] < 0.2 < high[-1]


def test_ratio_without_values_has_no_bounds() -> None:
    interval = ratio_interval([], [1.0], bound=2.0, alpha=0.1)
    assert (interval.estimate, interval.low, interval.high) == (None, None, None)
    with pytest.raises(ValueError, match="bound"):
        ratio_interval([1.0], [1.0], bound=0.0, alpha=0.1)


def test_quantile_bounds_are_order_statistics_around_the_quantile() -> None:
    rng = np.random.default_rng(2)
    values = rng.exponential(100.0, size=2_000)
    interval = quantile_bounds(values, 0.95, 0.05)
    truth = -100.0 * math.log(0.05)
    assert interval.low is not None and interval.high is not None
    assert interval.low < truth < interval.high
    assert interval.low in values and interval.high in values
    few = quantile_bounds(values[:5], 0.95, 0.05)
    assert few.high is None  # five latencies cannot bound a p95 from above


def test_p95_ratio_sees_a_slower_candidate() -> None:
    rng = np.random.default_rng(4)
    base = rng.exponential(100.0, size=1_500)
    cand = rng.exponential(200.0, size=1_500)
    interval = quantile_ratio_interval(cand, base, p=0.95, alpha=0.1)
    assert interval.low is not None and interval.high is not None
    assert 1.2 < interval.low < 2.0 < interval.high
