"""Anytime-valid confidence sequences for a bounded mean: the hedged betting sequence.

Waudby-Smith & Ramdas (2024), "Estimating means of bounded random variables by
betting", JRSS-B 86(1) — Theorem 3 (hedged capital) with the predictable plug-in
bets of §5 (eq. 26–27). Observations x ∈ [−1, 1] (paired differences of pass
fractions) are mapped to y = (x + 1)/2 ∈ [0, 1]; the bounds are mapped back by 2m − 1.

For a candidate mean m ∈ [0, 1], with θ = 1/2 and c = 1/2:

    μ̂_t  = (1/2 + Σ_{i≤t} y_i) / (t + 1)                       (μ̂_0 = 1/2)
    σ̂²_t = (1/4 + Σ_{i≤t} (y_i − μ̂_i)²) / (t + 1)              (σ̂²_0 = 1/4)
    λ_t  = √(2 log(2/α) / (σ̂²_{t−1} · t · log(1 + t)))          (predictable)
    λ⁺_t(m) = min(λ_t, c/m),  λ⁻_t(m) = min(λ_t, c/(1 − m))
    K⁺_t(m) = Π_{i≤t} (1 + λ⁺_i(m)(y_i − m)),  K⁻_t(m) = Π_{i≤t} (1 − λ⁻_i(m)(y_i − m))
    K±_t(m) = max(θ K⁺_t(m), (1 − θ) K⁻_t(m))

K± is a nonnegative supermartingale at the true mean, so by Ville's inequality
P(∃t: K±_t(μ) ≥ 1/α) ≤ α and C_t = {m : K±_s(m) < 1/α for every s ≤ t} (the running
intersection: bounds never widen) covers μ at all times at once with probability ≥ 1 − α.

C_t is found on a grid of candidate means m_j = j/(G − 1). A grid point is out once
its capital has reached 1/α. The reported bounds are one grid step outside the
outermost grid points still in, so they contain the exact sequence; while no grid
point is in (the sequence is narrower than a step) the bounds stay where they were.
Before any observation the bounds are [−1, 1].
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

import numpy as np
import numpy.typing as npt

from stats._arrays import FloatArray
from stats.movement import Movement

GRID_POINTS: Final = 1001
"""Candidate means on [0, 1]: a step of 0.002 in difference units (0.2 points)."""
TRUNCATION: Final = 0.5
"""c: a bet never risks more than half the capital."""
CHUNK_ELEMENTS: Final = 1 << 21
"""Working-set bound: (sequence, grid point) pairs still in × observations per block."""
FIRST_BLOCK: Final = 16
DECISION_TOLERANCE: Final = 1e-9
"""Bounds are grid points mapped by 2m − 1: a bound "beyond ε" must be beyond it by more
than float noise (2 · 0.495 − 1 is −0.0100000000000000009, which is not beyond −0.01)."""


def plug_in_bets(y: FloatArray, alpha: float) -> FloatArray:
    """λ_t of eq. 26 for each observation (last axis), from y_1 … y_{t−1} only."""
    n = y.shape[-1]
    t = np.arange(1, n + 1, dtype=np.float64)
    mu_hat = (0.5 + np.cumsum(y, axis=-1)) / (t + 1.0)
    var_hat = (0.25 + np.cumsum((y - mu_hat) ** 2, axis=-1)) / (t + 1.0)
    previous = np.concatenate([np.full(y.shape[:-1] + (1,), 0.25), var_hat[..., :-1]], axis=-1)
    bets: FloatArray = np.sqrt(2.0 * np.log(2.0 / alpha) / (previous * t * np.log1p(t)))
    return bets


def first_exclusions(y: FloatArray, alpha: float, grid: FloatArray) -> npt.NDArray[np.int64]:
    """For each sequence (rows of a 2-D y) and grid point, the first index t (0-based) at
    which K±_t(m) ≥ 1/α, or n when it never does. Shape: (rows, G).

    Time is walked in growing blocks and a grid point leaves the work once it is out, so
    the cost follows the sum of exit times rather than rows × n × G."""
    rows, n = y.shape
    bets = plug_in_bets(y, alpha)
    target = 1.0 / alpha
    first = np.full((rows, grid.size), n, dtype=np.int64)
    # c/m and c/(1 − m) are infinite at the ends of the grid: the bet is then λ_t.
    with np.errstate(divide="ignore"):
        up_cap = TRUNCATION / grid
        down_cap = TRUNCATION / (1.0 - grid)
    row = np.repeat(np.arange(rows), grid.size)
    point = np.tile(np.arange(grid.size), rows)
    up_so_far = np.ones(row.size)
    down_so_far = np.ones(row.size)
    start, width = 0, FIRST_BLOCK
    while start < n and row.size:
        stop = min(n, start + max(1, min(width, CHUNK_ELEMENTS // row.size)))
        step = y[:, start:stop][row] - grid[point][:, None]
        block_bets = bets[:, start:stop][row]
        # Products, not sums of logs: a factor is at least 1 − c, never 0; a capital that
        # underflows to 0 could never have climbed back to 1/α. Multiplied one factor at a
        # time from the capital so far, so the blocks do not change the rounding.
        up = carried_product(up_so_far, 1.0 + np.minimum(block_bets, up_cap[point][:, None]) * step)
        down = carried_product(
            down_so_far, 1.0 - np.minimum(block_bets, down_cap[point][:, None]) * step
        )
        crossed = np.maximum(0.5 * up, 0.5 * down) >= target
        hit = crossed.any(axis=1)
        first[row[hit], point[hit]] = start + crossed[hit].argmax(axis=1)
        stay = ~hit
        row, point = row[stay], point[stay]
        up_so_far, down_so_far = up[stay, -1], down[stay, -1]
        start, width = stop, width * 2
    return first


def carried_product(so_far: FloatArray, factors: FloatArray) -> FloatArray:
    """Running products of each row's factors (rows × steps) started from `so_far`, one
    multiplication a step in order, as a loop would: how the work is cut into blocks does
    not change a single bit of the capital."""
    rows = np.concatenate([so_far[:, None], factors], axis=1)
    products: FloatArray = np.cumprod(rows, axis=1)[:, 1:]
    return products


def bounds_at(
    first: npt.NDArray[np.int64], times: npt.NDArray[np.int64]
) -> tuple[FloatArray, FloatArray]:
    """[low, high] on [0, 1] of one sequence at the given (0-based) times from its grid
    points' exit times (a point is in at t while its exit time is > t)."""
    size = first.size
    step = 1.0 / (size - 1)
    # The lowest grid point still in at t: the first j whose running max of exit times > t.
    from_below = np.maximum.accumulate(first)
    lowest = np.searchsorted(from_below, times, side="right")
    from_above = np.maximum.accumulate(first[::-1])
    highest = size - 1 - np.searchsorted(from_above, times, side="right")
    empty = lowest >= size
    low = np.clip((lowest - 1) * step, 0.0, 1.0)
    high = np.clip((highest + 1) * step, 0.0, 1.0)
    if empty.any():  # narrower than a step: the bounds of the last time a point was in
        last_in = int(first.max()) - 1
        if last_in >= 0:
            kept_low, kept_high = bounds_at(first, np.array([last_in]))
            low[empty], high[empty] = kept_low[0], kept_high[0]
        else:
            low[empty], high[empty] = 0.0, 1.0
    return low, high


def _bounds_from_exclusions(first: npt.NDArray[np.int64], n: int) -> tuple[FloatArray, FloatArray]:
    """Running [low, high] on [0, 1] for one sequence from its grid points' exit times."""
    return bounds_at(first, np.arange(n))


def betting_cs(
    x: npt.ArrayLike, alpha: float = 0.05, *, grid_points: int = GRID_POINTS
) -> tuple[FloatArray, FloatArray]:
    """Running lower and upper bounds of the hedged betting confidence sequence for the
    mean of x ∈ [−1, 1] after each observation (the last axis; leading axes are
    independent sequences), at level α, intersected over time."""
    values = np.asarray(x, dtype=np.float64)
    if values.ndim == 0:
        raise ValueError("x must have at least one dimension")
    if not 0.0 < alpha < 1.0:
        raise ValueError("alpha must lie in (0, 1)")
    if grid_points < 3:
        raise ValueError("grid_points must be at least 3")
    if values.size and (np.isnan(values).any() or np.abs(values).max() > 1.0 + 1e-12):
        raise ValueError("x must lie in [-1, 1]")
    n = values.shape[-1]
    if n == 0 or values.size == 0:
        return np.empty(values.shape), np.empty(values.shape)
    y = np.clip((values + 1.0) / 2.0, 0.0, 1.0)
    grid = np.linspace(0.0, 1.0, grid_points)
    flat_first = first_exclusions(y.reshape(-1, n), alpha, grid)
    low = np.empty((flat_first.shape[0], n))
    high = np.empty((flat_first.shape[0], n))
    for row in range(flat_first.shape[0]):
        low[row], high[row] = _bounds_from_exclusions(flat_first[row], n)
    return (2.0 * low - 1.0).reshape(values.shape), (2.0 * high - 1.0).reshape(values.shape)


def hedged_capital(x: npt.ArrayLike, mean: float, alpha: float = 0.05) -> FloatArray:
    """Running maximum of K±_t at one candidate mean (in [−1, 1] units) for each sequence:
    the sequence has excluded `mean` by t exactly when this reaches 1/α."""
    values = np.asarray(x, dtype=np.float64)
    y = np.clip((values + 1.0) / 2.0, 0.0, 1.0)
    m = (mean + 1.0) / 2.0
    bets = plug_in_bets(y, alpha)
    with np.errstate(divide="ignore"):
        up_bet = np.minimum(bets, TRUNCATION / m) if m > 0 else bets
        down_bet = np.minimum(bets, TRUNCATION / (1.0 - m)) if m < 1 else bets
    up = np.cumprod(1.0 + up_bet * (y - m), axis=-1)
    down = np.cumprod(1.0 - down_bet * (y - m), axis=-1)
    return np.maximum.accumulate(np.maximum(0.5 * up, 0.5 * down), axis=-1)


@dataclass(frozen=True, slots=True)
class SequentialDecision:
    """What a look at one baseline's sequence says: an outcome, or None (look again)."""

    outcome: str | None
    low: float
    high: float


def decide_sequence(
    low: float, high: float, *, epsilon: float, target_effect: float
) -> SequentialDecision:
    """docs/statistics.md: REGRESSED when the sequence lies entirely below −ε, IMPROVED entirely
    above +ε, NO_CHANGE entirely within ± the target effect, else undecided (None)."""
    tol = DECISION_TOLERANCE
    if high < -epsilon - tol:
        return SequentialDecision(Movement.REGRESSED.value, low, high)
    if low > epsilon + tol:
        return SequentialDecision(Movement.IMPROVED.value, low, high)
    if -target_effect - tol <= low and high <= target_effect + tol:
        return SequentialDecision(Movement.NO_CHANGE.value, low, high)
    return SequentialDecision(None, low, high)


def look_at(
    x: FloatArray,
    low: FloatArray,
    high: FloatArray,
    n: int,
    *,
    alpha: float,
    epsilon: float,
    target_effect: float,
) -> tuple[SequentialDecision, float]:
    """One baseline's look after the first `n` cases of its sequence `x` (its confidence
    sequence `low`, `high`): the decision, and the anytime-valid p for "no difference",
    min(1, 1 / max K±(0)) over those cases."""
    if n == 0:
        return SequentialDecision(None, -1.0, 1.0), 1.0
    decision = decide_sequence(
        float(low[n - 1]), float(high[n - 1]), epsilon=epsilon, target_effect=target_effect
    )
    capital = float(hedged_capital(x[:n], 0.0, alpha)[-1])
    return decision, min(1.0, 1.0 / max(capital, 1.0))


def look_points(n: int, *, min_cases: int, look_every: int) -> list[int]:
    """The case counts at which a run looks: min_cases, then every look_every, up to n."""
    if n < min_cases:
        return []
    return list(range(min_cases, n + 1, max(1, look_every)))
