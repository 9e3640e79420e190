"""How many cases an undecided quality criterion would take (docs/decision.md, MORE_DATA)."""

from __future__ import annotations

import math
from typing import Final

import numpy.typing as npt
from scipy.special import ndtri

from stats._arrays import as_floats

POWER: Final = 0.8


def cases_needed(
    differences: npt.ArrayLike, *, delta: float, margin: float, alpha: float
) -> int | None:
    """n = ⌈((z₁₋α + z₀.₈)·sd ÷ (Δ + δ))²⌉: the cases at which a one-sided test at α of
    Δ > −δ has 80% power if Δ and the SD of the per-case differences (ddof 1) stay as
    observed (the one-sample normal design; Chow, Shao & Wang 2008, §3.1). None when
    Δ ≤ −δ (no number of cases makes the criterion pass) or under two differences."""
    data = as_floats(differences, "differences")
    if delta + margin <= 0 or len(data) < 2:
        return None
    spread = float(data.std(ddof=1))
    z = float(ndtri(1.0 - alpha)) + float(ndtri(POWER))
    return math.ceil((z * spread / (delta + margin)) ** 2)
