"""Input coercion shared by the `stats` modules (private)."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from scipy.special import ndtri

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]


def as_floats(values: npt.ArrayLike, name: str = "values") -> FloatArray:
    """A 1-D float64 copy of `values`; ValueError when it is not 1-D."""
    array = np.asarray(values, dtype=np.float64)
    if array.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional, got shape {array.shape}")
    return array


def as_ints(values: npt.ArrayLike, name: str = "values") -> IntArray:
    """A 1-D int64 array of `values`; ValueError when not 1-D or not whole numbers."""
    raw = np.asarray(values)
    if raw.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional, got shape {raw.shape}")
    array = raw.astype(np.int64)
    if raw.size and not np.array_equal(array, raw):
        raise ValueError(f"{name} must hold whole numbers")
    return array


def as_bools(values: npt.ArrayLike, name: str = "values") -> BoolArray:
    """A 1-D boolean array of `values`; ValueError when it is not 1-D."""
    array = np.asarray(values, dtype=np.bool_)
    if array.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional, got shape {array.shape}")
    return array


def same_length(*arrays: npt.NDArray[np.generic]) -> int:
    """The common length of `arrays`; ValueError when they differ."""
    lengths = {len(array) for array in arrays}
    if len(lengths) != 1:
        raise ValueError(f"arrays must have the same length, got {sorted(lengths)}")
    return lengths.pop()


def all_finite(*values: float | npt.NDArray[np.generic]) -> bool:
    """Whether every number in `values` (scalars or arrays) is neither NaN nor ±inf."""
    return all(bool(np.all(np.isfinite(value))) for value in values)


def two_sided_z(confidence: float) -> float:
    """Φ⁻¹(1 − (1 − confidence)/2), e.g. 1.959964 for 95%."""
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must lie in (0, 1), got {confidence}")
    return float(ndtri(0.5 + confidence / 2.0))


def clip(value: float, low: float, high: float) -> float:
    """`value` limited to [low, high]."""
    return float(min(max(value, low), high))
