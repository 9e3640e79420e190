"""Case-resampled bootstrap interval for a mean difference (BCa, percentile fallback)."""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Final

import numpy as np
import numpy.typing as npt
from scipy.special import ndtr, ndtri

from stats import reasons
from stats._arrays import FloatArray, IntArray, all_finite, as_floats, clip
from stats.intervals import Interval, t_interval
from stats.permutation import PAIRED_T_MIN_CASES

BOOTSTRAP_RESAMPLES: Final = 9_999
BOOTSTRAP_MIN_CASES: Final = 20
# Up to this many distinct values, resampling cases is drawing multinomial counts per value.
COMPRESS_MAX_UNIQUE: Final = 256
# Draw counts (per case or per cell) and case indices are handed out in blocks of about this
# many (512 KB of int64). A block's working copies (the draws, their bincount, a consumer's
# float copy or its per-trial weights) are several times that: at 2²² elements, finalizing
# 1,000 cases of which a few were not usable peaked at ~139 MB (docs/benchmarks.md).
BLOCK_ELEMENTS: Final = 1 << 16


def bootstrap_mean_interval(
    values: npt.ArrayLike,
    *,
    confidence: float = 0.95,
    resamples: int = BOOTSTRAP_RESAMPLES,
    seed: int = 0,
    bounds: tuple[float, float] | None = None,
) -> Interval:
    """BCa bootstrap interval for the mean, resampling cases; percentile when BCa degenerates.

    BCa (Efron 1987; Efron & Tibshirani 1993, §14.3): the interval is the
    (α₁, α₂) quantiles of the bootstrap means with αᵢ = Φ(ẑ₀ + (ẑ₀ + z)/(1 − â(ẑ₀ + z))),
    z = ±z₍₁₋α/2₎, ẑ₀ = Φ⁻¹((#{θ* < θ̂} + ½·#{θ* = θ̂})/R) and the jackknife acceleration,
    which for the mean is â = Σ(xᵢ − x̄)³ / (6·(Σ(xᵢ − x̄)²)^(3/2)) (Eq. 14.15). When ẑ₀ or
    the αᵢ are not finite (every resample on one side of θ̂) the percentile interval is
    returned with reason BCA_DEGENERATE. Seeded; resampling with few distinct values
    draws multinomial counts per value, which is the same distribution as drawing cases.
    Fewer than two cases, zero spread, or a NaN or infinite value (reason
    NON_FINITE_INPUT) give the t-interval's answer.
    """
    data = as_floats(values)
    n = len(data)
    if n < 2 or not all_finite(data) or float(np.ptp(data)) == 0.0:
        point = t_interval(data, confidence=confidence, bounds=bounds)
        return Interval(
            point.estimate,
            point.low,
            point.high,
            point.n,
            reasons.BOOTSTRAP_PERCENTILE,
            point.reason,
        )
    if resamples < 1:
        raise ValueError(f"resamples must be positive, got {resamples}")
    estimate = float(data.mean())
    means = _bootstrap_means(data, resamples, np.random.default_rng(seed))
    levels = _bca_levels(data, means, estimate, confidence)
    method, reason = reasons.BOOTSTRAP_BCA, None
    if levels is None:
        tail = (1.0 - confidence) / 2.0
        levels = (tail, 1.0 - tail)
        method, reason = reasons.BOOTSTRAP_PERCENTILE, reasons.BCA_DEGENERATE
    low, high = (float(x) for x in np.quantile(means, levels))
    if bounds is not None:
        low, high = clip(low, *bounds), clip(high, *bounds)
    return Interval(estimate, low, high, n, method, reason)


def delta_interval(
    values: npt.ArrayLike,
    *,
    confidence: float = 0.95,
    resamples: int = BOOTSTRAP_RESAMPLES,
    seed: int = 0,
    bounds: tuple[float, float] | None = None,
) -> Interval:
    """Interval for a mean paired difference as docs/statistics.md chooses it.

    Under 20 cases: the t-interval. From 20 cases: the BCa case bootstrap. For very
    large n with continuous values (n ≥ 10,000 and more than 256 distinct values, the
    threshold at which `stats.permutation` switches to the paired t-test) the
    t-interval, which the bootstrap matches there to well within its own resampling
    error. Clipped to `bounds` when given (e.g. [−1, 1] for pass-rate differences).
    A NaN or infinite value gives the answer for no cases with reason NON_FINITE_INPUT.
    """
    data = as_floats(values)
    n = len(data)
    if n < BOOTSTRAP_MIN_CASES:
        return t_interval(data, confidence=confidence, bounds=bounds)
    if n >= PAIRED_T_MIN_CASES and len(np.unique(data)) > COMPRESS_MAX_UNIQUE:
        return t_interval(data, confidence=confidence, bounds=bounds)
    return bootstrap_mean_interval(
        data, confidence=confidence, resamples=resamples, seed=seed, bounds=bounds
    )


def case_resamples(
    values: npt.ArrayLike,
    *,
    resamples: int = BOOTSTRAP_RESAMPLES,
    seed: int = 0,
    block_elements: int = BLOCK_ELEMENTS,
) -> Iterator[IntArray]:
    """The case resamples `bootstrap_mean_interval` draws for `values` with this seed, as
    per-case draw counts (rows: resamples, columns: cases), a block of rows at a time.

    Other per-case figures of the same cases can be resampled with them, so the pairing
    holds (docs/decision.md's guardrails ride on the Δ resamples). Where the bootstrap draws
    multinomial counts per distinct value, each of a value's draws lands on one of its cases
    uniformly (from a second stream of the seed): given the value totals, that is exactly
    how drawing cases splits them, so the rows are a plain case resample and
    `counts @ values / n` are the bootstrap's resample means. No cases yields nothing.
    """
    data = as_floats(values)
    n = len(data)
    if resamples < 1:
        raise ValueError(f"resamples must be positive, got {resamples}")
    if n == 0:
        return
    rng = np.random.default_rng(seed)
    rows = max(1, block_elements // n)
    compressed = _value_draws(data, resamples, rng) if all_finite(data) else None
    if compressed is None:
        for picks in _index_blocks(n, resamples, rng, block_elements):
            yield _counts_of(picks, n)
        return
    draws, groups = compressed
    split = np.random.default_rng([seed, 1])
    for start in range(0, resamples, rows):
        stop = min(resamples, start + rows)
        block = np.arange(stop - start)
        picked = []
        for value, cases in enumerate(groups):
            totals = draws[start:stop, value]
            # Each of a value's draws lands on one of its cases, uniformly.
            chosen = cases[split.integers(0, len(cases), size=int(totals.sum()))]
            picked.append(np.repeat(block, totals) * n + chosen)
        flat = np.bincount(np.concatenate(picked), minlength=len(block) * n)
        yield np.asarray(flat.reshape(len(block), n), dtype=np.int64)


def tagged_resamples(
    values: npt.ArrayLike,
    tags: npt.ArrayLike,
    *,
    resamples: int = BOOTSTRAP_RESAMPLES,
    seed: int = 0,
) -> tuple[FloatArray, Iterator[IntArray]]:
    """`case_resamples` summed over the cases that share a tag within each distinct value:
    (each cell's tag, blocks of per-cell draw counts). A figure that depends on a case only
    through its tag (a mean of the tags, say) is then resampled in O(cells), not O(cases).

    A value's draws fall on its cells by a multinomial with the cells' shares of its cases,
    which is the distribution the per-case split sums to. Above COMPRESS_MAX_UNIQUE distinct
    values (or with a NaN) the cells are the cases themselves.
    """
    data, tag = as_floats(values), as_floats(tags, "tags")
    if len(tag) != len(data):
        raise ValueError(f"{len(tag)} tags for {len(data)} values")
    if resamples < 1:
        raise ValueError(f"resamples must be positive, got {resamples}")
    rng = np.random.default_rng(seed)
    compressed = _value_draws(data, resamples, rng) if len(data) and all_finite(data) else None
    if compressed is None:
        return tag, case_resamples(data, resamples=resamples, seed=seed)
    draws, groups = compressed
    cells = [np.unique(tag[cases], return_counts=True) for cases in groups]
    cell_tags = np.concatenate([found for found, _ in cells])
    return cell_tags, _cell_blocks(draws, cells, len(cell_tags), seed)


def _cell_blocks(
    draws: IntArray, cells: list[tuple[FloatArray, IntArray]], width: int, seed: int
) -> Iterator[IntArray]:
    split = np.random.default_rng([seed, 2])
    rows = max(1, BLOCK_ELEMENTS // max(1, width))
    for start in range(0, len(draws), rows):
        stop = min(len(draws), start + rows)
        parts = []
        for value, (_, sizes) in enumerate(cells):
            totals = draws[start:stop, value]
            if len(sizes) == 1:
                parts.append(totals[:, None])
            else:
                parts.append(split.multinomial(totals, sizes / sizes.sum()))
        yield np.asarray(np.concatenate(parts, axis=1), dtype=np.int64)


def _value_draws(
    data: FloatArray, resamples: int, rng: np.random.Generator
) -> tuple[IntArray, list[IntArray]] | None:
    """Multinomial counts per distinct value (first-occurrence order) and each value's
    cases, or None above COMPRESS_MAX_UNIQUE distinct values (then cases are drawn)."""
    uniques, first, inverse, counts = np.unique(
        data, return_index=True, return_inverse=True, return_counts=True
    )
    if len(uniques) > COMPRESS_MAX_UNIQUE:
        return None
    # First-occurrence order, so negating the data draws the same counts (swap symmetry).
    order = np.argsort(first)
    draws = rng.multinomial(len(data), counts[order] / len(data), size=resamples)
    position = np.empty_like(order)
    position[order] = np.arange(len(order))
    case_value = position[inverse.reshape(-1)]
    groups = [np.flatnonzero(case_value == value) for value in range(len(order))]
    return np.asarray(draws, dtype=np.int64), groups


def _index_blocks(
    n: int, resamples: int, rng: np.random.Generator, block_elements: int = BLOCK_ELEMENTS
) -> Iterator[IntArray]:
    """Case indices of `resamples` draws of n cases with replacement, in row blocks (the
    generator's stream is the same whatever the blocks, so the draws are too)."""
    rows = max(1, block_elements // n)
    for start in range(0, resamples, rows):
        stop = min(resamples, start + rows)
        yield np.asarray(rng.integers(0, n, size=(stop - start, n)), dtype=np.int64)


def _counts_of(picks: IntArray, n: int) -> IntArray:
    """Per-case draw counts of each row of case indices."""
    offsets = picks + n * np.arange(picks.shape[0])[:, None]
    flat = np.bincount(offsets.reshape(-1), minlength=picks.shape[0] * n)
    return np.asarray(flat.reshape(picks.shape[0], n), dtype=np.int64)


def _bootstrap_means(data: FloatArray, resamples: int, rng: np.random.Generator) -> FloatArray:
    """`resamples` means of n cases drawn with replacement (Efron 1979)."""
    n = len(data)
    compressed = _value_draws(data, resamples, rng)
    if compressed is not None:
        draws, groups = compressed
        support = np.array([data[cases[0]] for cases in groups])
        return np.asarray(draws @ support / n, dtype=np.float64)
    means = np.empty(resamples)
    start = 0
    for picks in _index_blocks(n, resamples, rng):
        means[start : start + len(picks)] = data[picks].mean(axis=1)
        start += len(picks)
    return means


def _bca_levels(
    data: FloatArray, means: FloatArray, estimate: float, confidence: float
) -> tuple[float, float] | None:
    """BCa quantile levels (α₁, α₂), or None when BCa degenerates.

    Resample means within 10⁻¹² of the data's magnitude of θ̂ count as ties (rounding of
    the sums); the tolerance is relative, so scaling the data scales the interval.
    """
    tolerance = 1e-12 * float(np.abs(data).max())
    below = int(np.count_nonzero(means < estimate - tolerance))
    at_or_below = int(np.count_nonzero(means <= estimate + tolerance))
    share = (below + at_or_below) / (2.0 * len(means))
    if not 0.0 < share < 1.0:
        return None
    z0 = float(ndtri(share))
    centred = data - estimate
    spread = float(np.sum(centred**2))
    acceleration = float(np.sum(centred**3)) / (6.0 * spread**1.5)
    z = float(ndtri((1.0 - confidence) / 2.0))
    levels = []
    for z_alpha in (z, -z):
        shifted = z0 + z_alpha
        denominator = 1.0 - acceleration * shifted
        if denominator <= 0.0:
            return None
        level = float(ndtr(z0 + shifted / denominator))
        if not math.isfinite(level):
            return None
        levels.append(level)
    return levels[0], levels[1]
