"""An independent, deliberately plain implementation of the hedged betting confidence
sequence (Waudby-Smith & Ramdas 2024, Theorem 3 with the predictable plug-in bets of
eq. 26–27) on the grid convention of `stats.sequential`, written with Python loops and
the `math` module only. Tests use it to check `stats.sequential` and the numbers that
the service shows; it shares no code with `stats/`.
"""

from __future__ import annotations

import math


def reference_betting_cs(
    x: list[float], alpha: float, *, grid_points: int = 1001
) -> tuple[list[float], list[float]]:
    """Running (low, high) in [−1, 1] after each observation of x."""
    y = [(value + 1.0) / 2.0 for value in x]
    n = len(y)
    bets: list[float] = []
    total, squares = 0.0, 0.0
    variance_before = 0.25
    for t in range(1, n + 1):
        bets.append(math.sqrt(2 * math.log(2 / alpha) / (variance_before * t * math.log(1 + t))))
        total += y[t - 1]
        mean_now = (0.5 + total) / (t + 1)
        squares += (y[t - 1] - mean_now) ** 2
        variance_before = (0.25 + squares) / (t + 1)
    grid = [j / (grid_points - 1) for j in range(grid_points)]
    out_at = []  # first time each grid point is out (n when never)
    for m in grid:
        up, down, exit_time = 1.0, 1.0, n
        for t in range(n):
            up_bet = bets[t] if m == 0 else min(bets[t], 0.5 / m)
            down_bet = bets[t] if m == 1 else min(bets[t], 0.5 / (1 - m))
            up *= 1 + up_bet * (y[t] - m)
            down *= 1 - down_bet * (y[t] - m)
            if max(0.5 * up, 0.5 * down) >= 1 / alpha:
                exit_time = t
                break
        out_at.append(exit_time)
    step = 1.0 / (grid_points - 1)
    lows: list[float] = []
    highs: list[float] = []
    low, high = 0.0, 1.0
    for t in range(n):
        still_in = [j for j in range(grid_points) if out_at[j] > t]
        if still_in:  # no grid point in: the bounds stay where they were
            low = max(0.0, (min(still_in) - 1) * step)
            high = min(1.0, (max(still_in) + 1) * step)
        lows.append(2 * low - 1)
        highs.append(2 * high - 1)
    return lows, highs
