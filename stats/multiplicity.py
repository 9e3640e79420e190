"""Holm's step-down adjustment across baselines (and across evaluators in a run diff)."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from stats._arrays import as_floats


def holm(p_values: npt.ArrayLike) -> tuple[float, ...]:
    """Holm-adjusted p-values, in the input order.

    With p₍₁₎ ≤ … ≤ p₍ₘ₎: p̃₍ᵢ₎ = max_{j ≤ i} min(1, (m − j + 1)·p₍ⱼ₎)
    (Holm 1979, "A simple sequentially rejective multiple test procedure"). Rejecting
    p̃ < α controls the family-wise error rate at α. An empty input gives ().
    """
    values = as_floats(p_values, "p_values")
    if np.any(~np.isfinite(values)) or np.any((values < 0.0) | (values > 1.0)):
        raise ValueError("p-values must lie in [0, 1]")
    m = len(values)
    if m == 0:
        return ()
    order = np.argsort(values, kind="stable")
    scaled = np.minimum(1.0, values[order] * (m - np.arange(m)))
    adjusted = np.empty(m)
    adjusted[order] = np.maximum.accumulate(scaled)
    return tuple(float(p) for p in adjusted)
