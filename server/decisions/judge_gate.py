"""What the ship decision needs of human labels (docs/labels.md; docs/labels.md).

For a comparison whose `passed` a judge check takes part in: each judge check's agreement
and whether it is calibrated under the policy's `judge {minLabels, minKappa}` (else the
quality criterion is at best UNCERTAIN, reason JUDGE_UNCALIBRATED, and the decision says how
many more labels would do), and the queue's labels as rectifiers, from which Δ is corrected
by prediction-powered inference (`stats.prediction_powered_delta`).

The decision engine takes these as `judge_uncalibrated` and, per baseline, the corrected
interval at its level 1 − 2α (`JudgeEvidence.corrected`). The labels are read where they
live (`server/labels/evidence.py`); the gate and its words are here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy.typing as npt

import stats
from stats import reasons

MIN_RECTIFIERS = 2
"""Labels a cohort needs before its judge error has a variance (ddof 1)."""


@dataclass(frozen=True, slots=True)
class CheckCalibration:
    check_key: str
    agreement: stats.Agreement
    calibration: stats.Calibration


@dataclass(frozen=True, slots=True)
class JudgeEvidence:
    """A comparison's judge checks under the policy, and its queue labels per cohort."""

    checks: tuple[CheckCalibration, ...]
    rectifiers: Mapping[int, Sequence[float]]
    min_labels: int
    min_kappa: float

    @property
    def judged(self) -> bool:
        """Whether a judge check takes part in the comparison's `passed`."""
        return bool(self.checks)

    @property
    def uncalibrated(self) -> tuple[CheckCalibration, ...]:
        return tuple(c for c in self.checks if not c.calibration.calibrated)

    @property
    def more_labels(self) -> int | None:
        """Labels still needed by the least calibrated check; None when labels alone would
        not do it (κ at or below the bound, or undefined so far); 0 when calibrated."""
        needed = [c.calibration.more_labels for c in self.uncalibrated]
        if any(n is None for n in needed):
            return None
        return max((n for n in needed if n is not None), default=0)

    @property
    def labels_used(self) -> int:
        """Queue labels in the correction."""
        return sum(len(values) for values in self.rectifiers.values())

    def corrected(
        self, judged_differences: npt.ArrayLike, baseline_cohort_index: int, *, confidence: float
    ) -> stats.Interval | None:
        """Δ (candidate − baseline) corrected with the queue's labels, at `confidence`; None
        without a judge or with fewer than 2 queue labels in either cohort."""
        candidate = self.rectifiers.get(0, ())
        baseline = self.rectifiers.get(baseline_cohort_index, ())
        if not self.judged or min(len(candidate), len(baseline)) < MIN_RECTIFIERS:
            return None
        return stats.prediction_powered_delta(
            judged_differences, candidate, baseline, confidence=confidence
        )


def unlabelled(check_keys: Sequence[str], *, min_labels: int, min_kappa: float) -> JudgeEvidence:
    """The evidence before any label (at finalization: only a finalized comparison's trials
    are labelled), from the keys of the comparison's judge checks alone."""
    none = stats.judge_agreement([], [])
    calibration = stats.judge_calibration(none, min_labels=min_labels, min_kappa=min_kappa)
    return JudgeEvidence(
        tuple(CheckCalibration(key, none, calibration) for key in check_keys),
        {},
        min_labels,
        min_kappa,
    )


def judge_sentence(evidence: JudgeEvidence, *, corrected: bool) -> str | None:
    """What the decision says of its judge: calibrating it, or the correction made."""
    if not evidence.judged:
        return None
    parts = [_uncalibrated_words(c, evidence) for c in evidence.uncalibrated]
    if corrected:
        parts.append(
            f"Quality corrected with {evidence.labels_used} labels for the judge's errors."
        )
    return " ".join(parts) or None


def _uncalibrated_words(check: CheckCalibration, evidence: JudgeEvidence) -> str:
    found, calibration = check.agreement, check.calibration
    kappa = found.kappa
    bound = f"κ's 95% low end at least {evidence.min_kappa:g}"
    if calibration.reason == reasons.KAPPA_BELOW_BOUND:
        return (
            f"Judge {check.check_key} is not calibrated: κ {kappa.estimate:.2f} over "
            f"{found.labels} labels is at or below {evidence.min_kappa:g}, so more labels "
            "would not calibrate it unless it agrees better."
        )
    if calibration.more_labels is None:
        return (
            f"Judge {check.check_key} is not calibrated: its {found.labels} labels and grades "
            "are all one class, so κ is undefined; label more trials."
        )
    now = (
        f"now {found.labels} labels"
        if calibration.reason is not None
        else f"now {found.labels} labels, κ {kappa.estimate:.2f} ({kappa.low:.2f} to "
        f"{kappa.high:.2f})"
    )
    return (
        f"Judge {check.check_key} is not calibrated: {calibration.more_labels} more labels "
        f"needed (at least {evidence.min_labels} and {bound}; {now})."
    )
