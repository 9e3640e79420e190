"""What the ship decision needs of human labels (docs/labels.md; docs/labels.md).

For a comparison whose `passed` a judge check takes part in: each judge check's agreement
and whether it is calibrated under the policy's `judge {minLabels, minKappa}` (else the
quality criterion is at best UNCERTAIN, reason JUDGE_UNCALIBRATED, and the decision says how
many more labels would do), and the queue's labels as rectifiers, from which Δ is corrected
by prediction-powered inference (`stats.prediction_powered_delta`).

The decision engine takes these as `judge_uncalibrated` and, per baseline, the corrected
interval at its level 1 − 2α (`JudgeEvidence.corrected`).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
from sqlalchemy import case, func, select
from sqlalchemy.ext.asyncio import AsyncSession

import stats
from server.comparisons.models import Comparison, Trial, TrialState
from server.labels import agreement
from server.labels.judge_checks import judge_checks
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


async def judge_evidence(
    *, session: AsyncSession, comparison: Comparison, min_labels: int, min_kappa: float
) -> JudgeEvidence:
    """The evidence for `comparison` (already scoped) under `judge {minLabels, minKappa}`."""
    if not judge_checks(comparison.checks):
        return JudgeEvidence((), {}, min_labels, min_kappa)
    checks = tuple(
        CheckCalibration(
            found.check_key,
            found.agreement,
            stats.judge_calibration(found.agreement, min_labels=min_labels, min_kappa=min_kappa),
        )
        for found in await agreement.comparison_agreement(session=session, comparison=comparison)
    )
    queued = await agreement.queue_labels(session=session, comparison_id=comparison.id)
    return JudgeEvidence(checks, queued.rectifiers, min_labels, min_kappa)


def unlabelled(
    checks: Sequence[Mapping[str, Any]], *, min_labels: int, min_kappa: float
) -> JudgeEvidence:
    """The evidence before any label (at finalization: only a finalized comparison's trials
    are labelled), from the comparison's check list alone."""
    none = stats.judge_agreement([], [])
    calibration = stats.judge_calibration(none, min_labels=min_labels, min_kappa=min_kappa)
    return JudgeEvidence(
        tuple(CheckCalibration(key, none, calibration) for _, key in judge_checks(checks)),
        {},
        min_labels,
        min_kappa,
    )


async def judged_differences(
    session: AsyncSession, comparison_id: str, cohorts: int
) -> dict[int, npt.NDArray[np.float64]]:
    """Per baseline, the per-case judged pass-fraction differences (candidate − baseline)
    over the usable cases (a completed trial in every cohort), as the scorecard's Δ."""
    completed = Trial.state == TrialState.COMPLETED
    rows = await session.execute(
        select(
            Trial.case_ordinal,
            Trial.cohort_index,
            func.sum(case((completed, 1), else_=0)),
            func.sum(case((completed & Trial.passed.is_(True), 1), else_=0)),
        )
        .where(Trial.comparison_id == comparison_id)
        .group_by(Trial.case_ordinal, Trial.cohort_index)
    )
    fractions: dict[int, dict[int, float]] = defaultdict(dict)
    for ordinal, cohort, done, passed in rows:
        if int(done) > 0:
            fractions[int(ordinal)][int(cohort)] = int(passed) / int(done)
    usable = sorted(o for o, per in fractions.items() if len(per) == cohorts)
    return {
        b: np.array([fractions[o][0] - fractions[o][b] for o in usable], dtype=np.float64)
        for b in range(1, cohorts)
    }


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
