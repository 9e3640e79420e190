"""Live comparisons (docs/statistics.md, "Live comparisons"): anytime-valid sequences over
two independent streams of production traces, and the ship decision read off them.

- `means`: the difference of two bounded means (quality, error rates) and the ratio of two
  nonnegative means (cost per trace, output tokens).
- `quantiles`: a sequential bound for a quantile, and the ratio of two quantiles (p95).

The ship decision read off them is `stats/decision/live.py` (the decision lives in one package).
"""

from __future__ import annotations

from stats.live.means import (
    DifferenceSequence,
    Interval,
    difference_sequence,
    mean_sequence,
    ratio_interval,
    thin,
)
from stats.live.quantiles import quantile_bounds, quantile_ratio_interval

__all__ = [
    "DifferenceSequence",
    "Interval",
    "difference_sequence",
    "mean_sequence",
    "quantile_bounds",
    "quantile_ratio_interval",
    "ratio_interval",
    "thin",
]
