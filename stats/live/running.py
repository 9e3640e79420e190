"""The hedged betting sequence of `stats/sequential.py` kept up to date one block of
observations at a time, in memory that does not grow with the observations.

`betting_cs` walks every observation again on each call: O(n) work (and working memory) a
look, O(n²) over a stream looked at after every block, as a live comparison is. What the
sequence needs to go on is small: the count, the running sums behind the plug-in bets,
and, for each grid point still in, its two capitals; a point that is out only keeps its exit
time. The bounds at any time follow from the exit times (`stats.sequential.bounds_at`).
Every sum and product is carried one term at a time in arrival order, as `betting_cs`
does it, so the bounds are those of `betting_cs` over the same observations bit for bit,
however the stream is cut into blocks.
"""

from __future__ import annotations

from typing import Final

import numpy as np
import numpy.typing as npt

from stats._arrays import FloatArray
from stats.live.means import Interval
from stats.sequential import (
    CHUNK_ELEMENTS,
    FIRST_BLOCK,
    GRID_POINTS,
    TRUNCATION,
    bounds_at,
    carried_product,
)

STILL_IN: Final = np.iinfo(np.int64).max
"""The exit time of a grid point that is still in."""


def _carried_sum(so_far: float, values: FloatArray) -> FloatArray:
    """Running sums of `values` started from `so_far`, one addition a value in order."""
    sums: FloatArray = np.cumsum(np.concatenate([[so_far], values]))[1:]
    return sums


class RunningBets:
    """The sequence for the mean of observations in [−1, 1] at level 1 − α, so far."""

    __slots__ = (
        "_down",
        "_down_cap",
        "_grid",
        "_in",
        "_squares",
        "_total",
        "_up",
        "_up_cap",
        "_variance",
        "alpha",
        "count",
        "first",
    )

    def __init__(self, alpha: float, *, grid_points: int = GRID_POINTS) -> None:
        if not 0.0 < alpha < 1.0:
            raise ValueError("alpha must lie in (0, 1)")
        self.alpha = alpha
        self.count = 0
        self._total = 0.0  # Σ y
        self._squares = 0.0  # Σ (y − μ̂)²
        self._variance = 0.25  # σ̂² after the last observation
        self._grid = np.linspace(0.0, 1.0, grid_points)
        with np.errstate(divide="ignore"):
            self._up_cap = TRUNCATION / self._grid
            self._down_cap = TRUNCATION / (1.0 - self._grid)
        self.first = np.full(grid_points, STILL_IN, dtype=np.int64)
        self._in = np.arange(grid_points)
        self._up = np.ones(grid_points)
        self._down = np.ones(grid_points)

    def extend(self, x: npt.ArrayLike) -> None:
        """Take the next observations (in arrival order)."""
        values = np.asarray(x, dtype=np.float64).reshape(-1)
        if values.size == 0:
            return
        if np.isnan(values).any() or np.abs(values).max() > 1.0 + 1e-12:
            raise ValueError("x must lie in [-1, 1]")
        y = np.clip((values + 1.0) / 2.0, 0.0, 1.0)
        bets = self._bets(y)
        start, width = 0, FIRST_BLOCK
        while start < y.size and self._in.size:
            stop = min(y.size, start + max(1, min(width, CHUNK_ELEMENTS // self._in.size)))
            self._walk(y[start:stop], bets[start:stop], self.count + start)
            start, width = stop, width * 2
        self.count += int(y.size)

    def _bets(self, y: FloatArray) -> FloatArray:
        """λ_t of eq. 26 for the new observations, carrying the sums from the earlier ones."""
        t = np.arange(self.count + 1, self.count + y.size + 1, dtype=np.float64)
        totals = _carried_sum(self._total, y)
        mu_hat = (0.5 + totals) / (t + 1.0)
        squares = _carried_sum(self._squares, (y - mu_hat) ** 2)
        var_hat = (0.25 + squares) / (t + 1.0)
        previous = np.concatenate([[self._variance], var_hat[:-1]])
        self._total, self._squares = float(totals[-1]), float(squares[-1])
        self._variance = float(var_hat[-1])
        bets: FloatArray = np.sqrt(2.0 * np.log(2.0 / self.alpha) / (previous * t * np.log1p(t)))
        return bets

    def _walk(self, y: FloatArray, bets: FloatArray, offset: int) -> None:
        """Move the capitals of the grid points still in over one block."""
        points = self._in
        step = y[None, :] - self._grid[points][:, None]
        up = carried_product(self._up, 1.0 + np.minimum(bets, self._up_cap[points][:, None]) * step)
        down = carried_product(
            self._down, 1.0 - np.minimum(bets, self._down_cap[points][:, None]) * step
        )
        crossed = np.maximum(0.5 * up, 0.5 * down) >= 1.0 / self.alpha
        hit = crossed.any(axis=1)
        self.first[points[hit]] = offset + crossed[hit].argmax(axis=1)
        stay = ~hit
        self._in = points[stay]
        self._up, self._down = up[stay, -1], down[stay, -1]

    def bounds(self, times: npt.ArrayLike) -> tuple[FloatArray, FloatArray]:
        """[low, high] in [−1, 1] after observation t + 1 for each 0-based t < count."""
        at = np.asarray(times, dtype=np.int64)
        low, high = bounds_at(self.first, at)
        return 2.0 * low - 1.0, 2.0 * high - 1.0

    def last(self) -> tuple[float, float]:
        """[low, high] now: [−1, 1] before any observation."""
        if self.count == 0:
            return -1.0, 1.0
        low, high = self.bounds([self.count - 1])
        return float(low[0]), float(high[0])


class RunningDifference:
    """The running sequence of a difference of means read as a `DifferenceSequence` would
    be: `sums` are the running sums of the matched differences it took (`carried_sums`),
    all of them or, when only the last look is read, the last one."""

    __slots__ = ("bets", "sums")

    def __init__(self, bets: RunningBets, sums: FloatArray) -> None:
        if bets.count and not sums.size:
            raise ValueError("no running sum of the differences the sequence took")
        self.bets, self.sums = bets, sums

    @property
    def pairs(self) -> int:
        return self.bets.count

    def last(self) -> Interval:
        if self.pairs == 0:
            return Interval(None, -1.0, 1.0)
        low, high = self.bets.last()
        return Interval(float(self.sums[-1] / self.pairs), low, high)

    def at(self, indices: npt.ArrayLike) -> tuple[FloatArray, FloatArray, FloatArray]:
        """(estimate, low, high) after pair t + 1 for each 0-based t (the running mean as
        `difference_sequence` sums it: one term at a time)."""
        at = np.asarray(indices, dtype=np.int64)
        if self.sums.size != self.pairs:
            raise ValueError("only the last look is kept")
        estimate: FloatArray = self.sums[at] / (at + 1)
        low, high = self.bets.bounds(at)
        return estimate, low, high


def carried_sums(so_far: float, values: FloatArray) -> FloatArray:
    """Running sums of `values` started from `so_far`, one addition a value in order: the
    running sums of a stream cut into blocks are `np.cumsum` of the whole, bit for bit."""
    return _carried_sum(so_far, values)
