"""What labels give the ship decision of a comparison (docs/labels.md): its judge checks'
agreement and calibration under the policy's `judge {minLabels, minKappa}`, and the queue's
labels as rectifiers, as `server/decisions/judge_gate.py`'s `JudgeEvidence`; and the judged
per-case differences those labels correct.
"""

from __future__ import annotations

from collections import defaultdict

import numpy as np
import numpy.typing as npt
from sqlalchemy import case, func, select
from sqlalchemy.ext.asyncio import AsyncSession

import stats
from server.comparisons.models import Comparison, Trial, TrialState
from server.decisions.judge_gate import CheckCalibration, JudgeEvidence
from server.labels import agreement
from server.labels.judge_checks import judge_checks


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
