"""McNemar's test on paired pass/fail case outcomes: mid-p, with the exact conditional p."""

from __future__ import annotations

from dataclasses import dataclass

import numpy.typing as npt
from scipy.special import bdtr

from stats import reasons
from stats._arrays import all_finite, as_bools, same_length


@dataclass(frozen=True, slots=True)
class McNemarResult:
    """Discordant counts, Δ = (improved − regressed)/n, mid-p and exact conditional p."""

    n: int
    improved: int
    regressed: int
    delta: float
    p_value: float
    exact_p_value: float
    reason: str | None = None


def mcnemar_from_counts(improved: int, regressed: int, n: int) -> McNemarResult:
    """McNemar mid-p test from the discordant counts of n paired cases.

    With b = improved, c = regressed, m = b + c and X ~ Binomial(m, ½):
    exact conditional p = min(1, 2·P(X ≤ min(b, c)));
    mid-p = 2·[P(X ≤ min(b, c)) − ½·P(X = min(b, c))]
    (Fagerland, Lydersen & Laake 2013, "The McNemar test for binary matched-pairs
    data: mid-p and asymptotic are better than exact conditional", BMC Med Res Methodol).
    No discordant pairs gives p = 1 with reason NO_DISCORDANT_PAIRS; a NaN or infinite
    count gives p = 1 with reason NON_FINITE_INPUT.
    """
    if not all_finite(improved, regressed, n):
        return McNemarResult(0, 0, 0, 0.0, 1.0, 1.0, reasons.NON_FINITE_INPUT)
    if min(improved, regressed) < 0 or improved + regressed > n:
        raise ValueError(f"need 0 <= improved + regressed <= n, got {improved}, {regressed}, {n}")
    delta = (improved - regressed) / n if n else 0.0
    discordant = improved + regressed
    if discordant == 0:
        reason = reasons.NO_CASES if n == 0 else reasons.NO_DISCORDANT_PAIRS
        return McNemarResult(n, improved, regressed, 0.0, 1.0, 1.0, reason)
    k = min(improved, regressed)
    tail = float(bdtr(k, discordant, 0.5))  # P(X ≤ k)
    below = float(bdtr(k - 1, discordant, 0.5)) if k > 0 else 0.0  # P(X ≤ k − 1)
    exact = min(1.0, 2.0 * tail)
    mid = min(1.0, tail + below)  # 2·[P(X ≤ k) − ½·P(X = k)], with no subtraction
    return McNemarResult(n, improved, regressed, float(delta), mid, exact)


def mcnemar_test(candidate: npt.ArrayLike, baseline: npt.ArrayLike) -> McNemarResult:
    """McNemar mid-p test on paired boolean case outcomes (candidate vs baseline)."""
    cand = as_bools(candidate, "candidate")
    base = as_bools(baseline, "baseline")
    n = same_length(cand, base)
    improved = int((cand & ~base).sum())
    regressed = int((~cand & base).sum())
    return mcnemar_from_counts(improved, regressed, n)
