"""Whether a judge has been checked enough to decide, and how many labels would do it.

docs/labels.md: a judge check is calibrated when it has at least `min_labels` labels and
κ's low end (95%) is at least `min_kappa`; otherwise the quality criterion cannot be
better than UNCERTAIN (reason JUDGE_UNCALIBRATED).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from stats import reasons
from stats._arrays import two_sided_z
from stats.agreement import Agreement


@dataclass(frozen=True, slots=True)
class Calibration:
    """Whether the judge may decide; `more_labels` to calibrate it (0 when it is).

    `more_labels` is None when more labels would not help if κ stayed as observed
    (κ ≤ `min_kappa`, reason KAPPA_BELOW_BOUND) or when κ is undefined so far
    (every label and grade one class, reason KAPPA_UNDEFINED). With no labels it is
    `min_labels` (reason NO_CASES), None when that is 0.
    """

    calibrated: bool
    labels: int
    more_labels: int | None
    reason: str | None = None


def judge_calibration(
    agreement: Agreement,
    *,
    min_labels: int = 30,
    min_kappa: float = 0.6,
    confidence: float = 0.95,
) -> Calibration:
    """The JUDGE_UNCALIBRATED rule and the labels it still needs.

    With κ and its SE held as observed over n labels, SE scales as 1/√N, so κ's low
    end reaches `min_kappa` at N = ⌈n·(z·SE/(κ − min_kappa))²⌉ labels; the labels
    needed are max(N, `min_labels`) − n. `agreement.kappa` must be at `confidence`.
    """
    if min_labels < 0:
        raise ValueError(f"min_labels must be >= 0, got {min_labels}")
    if not -1.0 <= min_kappa <= 1.0:
        raise ValueError(f"min_kappa must lie in [-1, 1], got {min_kappa}")
    n = agreement.labels
    kappa = agreement.kappa
    if min_kappa <= -1.0 and n >= min_labels:
        return Calibration(True, n, 0)  # a bound of −1 asks nothing of κ
    if n == 0:
        return Calibration(False, 0, min_labels or None, reasons.NO_CASES)
    if kappa.reason == reasons.KAPPA_UNDEFINED:
        return Calibration(False, n, None, reasons.KAPPA_UNDEFINED)
    calibrated = n >= min_labels and kappa.low >= min_kappa
    if calibrated:
        return Calibration(True, n, 0)
    if kappa.estimate <= min_kappa:
        return Calibration(False, n, None, reasons.KAPPA_BELOW_BOUND)
    spread = two_sided_z(confidence) * agreement.kappa_se * math.sqrt(n)
    # A small relative slack keeps ⌈·⌉ from stepping up on rounding at exact integers.
    needed = math.ceil(((spread / (kappa.estimate - min_kappa)) ** 2) * (1.0 - 1e-12))
    return Calibration(False, n, max(max(needed, min_labels) - n, 1))
