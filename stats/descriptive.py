"""Descriptive figures of the scorecard's cost, latency and token rows."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from stats._arrays import as_floats


def percentile(values: npt.ArrayLike, q: float) -> float | None:
    """The q-th percentile (0–100) by linear interpolation between order statistics.

    Hyndman & Fan (1996) definition 7, numpy's and scipy's default: with the sorted
    values x₍₀₎ … x₍ₙ₋₁₎ and h = (n − 1)·q/100, x₍⌊h⌋₎ + (h − ⌊h⌋)(x₍⌊h⌋₊₁₎ − x₍⌊h⌋₎).
    No values gives None (no figure, never NaN).
    """
    data = as_floats(values)
    if not 0.0 <= q <= 100.0:
        raise ValueError(f"q must lie in [0, 100], got {q}")
    if len(data) == 0:
        return None
    return float(np.percentile(data, q))


def case_means(sums: npt.ArrayLike, counts: npt.ArrayLike) -> npt.NDArray[np.float64]:
    """Per-case means sums[i]/counts[i]; NaN (a missing value) where counts[i] is 0.

    The matrix form `stats.winners.metric_winners` reads, where NaN marks a missing case.
    """
    totals = np.asarray(sums, dtype=np.float64)
    n = np.asarray(counts, dtype=np.float64)
    if totals.shape != n.shape:
        raise ValueError(f"sums and counts differ in shape: {totals.shape} != {n.shape}")
    out = np.full(totals.shape, np.nan)
    np.divide(totals, n, out=out, where=n > 0)
    return out
