"""Each run's pass rate with its 95% interval (docs/statistics.md), from aggregates computed in SQL.

One grouped statement per batch of runs sums the per-item pass fractions (and their
squares) over the graded items, so a run of 100,000 items never leaves the database item by
item. One graded trial in every item gives Wilson on the passes; otherwise the clustered CR1
interval from the moments (the same formula as `stats.intervals.clustered_interval`), with
its Wilson-on-effective-n fallback when every item has the same fraction.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from sqlalchemy import Float, cast, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from server.runs.models import RunItem
from stats import reasons
from stats._arrays import clip, two_sided_z
from stats.intervals import Interval, wilson_interval


@dataclass(frozen=True, slots=True)
class PassMoments:
    """Sums over a run's graded items (those with at least one pass/fail grade)."""

    items: int
    passes: int
    most_graded: int
    fraction_sum: float
    fraction_square_sum: float
    lowest_fraction: float
    highest_fraction: float


def interval_of(moments: PassMoments, *, confidence: float = 0.95) -> Interval | None:
    """The pass rate and its interval; None for a run with no graded item."""
    n = moments.items
    if n == 0:
        return None
    if moments.most_graded == 1:
        return wilson_interval(float(moments.passes), n, confidence=confidence)
    mean = clip(moments.fraction_sum / n, 0.0, 1.0)
    if n == 1 or moments.lowest_fraction == moments.highest_fraction:
        fallback = wilson_interval(mean * n, n, confidence=confidence)
        reason = reasons.ONE_CASE if n == 1 else fallback.reason or reasons.ZERO_VARIANCE
        return Interval(mean, fallback.low, fallback.high, n, reasons.WILSON_EFFECTIVE_N, reason)
    # Var with ddof 1 from the moments; rounding can leave a hair below zero.
    variance = max(0.0, (moments.fraction_square_sum - n * mean * mean) / (n - 1))
    se = math.sqrt(variance / n)
    z = two_sided_z(confidence)
    low = min(clip(mean - z * se, 0.0, 1.0), mean)
    high = max(clip(mean + z * se, 0.0, 1.0), mean)
    return Interval(mean, low, high, n, reasons.CLUSTERED_CR1)


async def moments_of(session: AsyncSession, run_ids: list[str]) -> dict[str, PassMoments]:
    """Each run's moments (runs without a graded item are left out)."""
    fraction = cast(RunItem.passed_count, Float) / RunItem.graded_count
    rows = await session.execute(
        select(
            RunItem.run_id,
            func.count(),
            func.sum(RunItem.passed_count),
            func.max(RunItem.graded_count),
            func.sum(fraction),
            func.sum(fraction * fraction),
            func.min(fraction),
            func.max(fraction),
        )
        .where(RunItem.run_id.in_(run_ids), RunItem.graded_count > 0)
        .group_by(RunItem.run_id)
    )
    return {
        str(run_id): PassMoments(
            items=int(items),
            passes=int(passes or 0),
            most_graded=int(most or 0),
            fraction_sum=float(total or 0.0),
            fraction_square_sum=float(squares or 0.0),
            lowest_fraction=float(lowest or 0.0),
            highest_fraction=float(highest or 0.0),
        )
        for run_id, items, passes, most, total, squares, lowest, highest in rows
    }
