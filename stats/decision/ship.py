"""The ship decision for a candidate against every baseline under a policy (docs/decision.md):
the criteria against each baseline, what more cases would take, one outcome."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Final

import numpy as np
import numpy.typing as npt

from stats.bootstrap import BOOTSTRAP_RESAMPLES
from stats.decision import policy as sp
from stats.decision.criteria import Criterion, quality_criterion, quality_gain
from stats.decision.figures import GAIN_METRIC, Figures
from stats.decision.measures import CohortMeasures, QualityBounds
from stats.decision.outcome import Decision, outcome_of
from stats.decision.policy import ShipPolicy
from stats.decision.sample_size import cases_needed
from stats.decision.vocabulary import JUDGE_UNCALIBRATED, POINTS, UNCERTAIN, VIOLATED
from stats.gate import subset


def ship_decision(
    candidate: CohortMeasures,
    baselines: Sequence[CohortMeasures],
    policy: ShipPolicy | None = None,
    *,
    seed: int = 0,
    ran_to_end: bool = True,
    sequence: Sequence[QualityBounds | None] | None = None,
    corrected: Sequence[QualityBounds | None] | None = None,
    judge_uncalibrated: bool = False,
    resamples: int = BOOTSTRAP_RESAMPLES,
) -> Decision:
    """The decision for `candidate` against every baseline under `policy` (docs/decision.md).

    `sequence[b]`: the confidence sequence at a sequential stop, used for Δ instead of the
    bootstrap; `corrected[b]`: a label-corrected Δ (used when there is no sequence);
    `judge_uncalibrated` caps the quality criteria at UNCERTAIN (docs/labels.md). `ran_to_end`
    is False for a cancelled or failed comparison (NO_DECISION).
    """
    policy = policy or ShipPolicy()
    problem = sp.validate(policy)
    if problem is not None:
        raise ValueError(f"{problem.field}: {problem.message}")
    cohorts = [candidate, *baselines]
    if len({len(c.trials) for c in cohorts}) != 1:
        raise ValueError("every cohort must have the same cases")
    usable = np.all([c.trials.completed > 0 for c in cohorts], axis=0)
    n = int(np.count_nonzero(usable))
    criteria: list[Criterion] = []
    needed: list[int | None] = []
    for index, baseline in enumerate(baselines):
        found, cases = _against(
            candidate,
            baseline,
            usable,
            policy,
            seed=seed,
            resamples=resamples,
            bounds=_pick(sequence, index) or _pick(corrected, index),
            judge_uncalibrated=judge_uncalibrated,
            index=index,
        )
        criteria.extend(found)
        if cases is not _DECIDED:
            needed.append(cases if isinstance(cases, int) else None)
    outcome, reason, cases_needed = outcome_of(
        criteria, needed, n=n, baselines=len(baselines), ran_to_end=ran_to_end
    )
    return Decision(outcome, reason, cases_needed, n, tuple(criteria))


_DECIDED: Final = object()
"""No quality criterion of this baseline is open to more cases."""


def _pick(values: Sequence[QualityBounds | None] | None, index: int) -> QualityBounds | None:
    if values is None or index >= len(values):
        return None
    return values[index]


def _against(
    candidate: CohortMeasures,
    baseline: CohortMeasures,
    usable: npt.NDArray[np.bool_],
    policy: ShipPolicy,
    *,
    seed: int,
    resamples: int,
    bounds: QualityBounds | None,
    judge_uncalibrated: bool,
    index: int,
) -> tuple[list[Criterion], object]:
    """The criteria against one baseline, and what more cases would take for its quality
    criterion: a count, None (unlikely to pass) or `_DECIDED`."""
    cand, base = subset(candidate.trials, usable), subset(baseline.trials, usable)
    differences = cand.passed / np.maximum(cand.completed, 1) - base.passed / np.maximum(
        base.completed, 1
    )
    quality = quality_criterion(differences, policy, seed=seed, bounds=bounds, index=index)
    if judge_uncalibrated and quality.status != VIOLATED:
        quality = replace(quality, status=UNCERTAIN, reason=JUDGE_UNCALIBRATED)
    figures = Figures(candidate, baseline, usable, differences, policy, seed, resamples)
    found = [quality]
    found.extend(figures.guardrail(g, index) for g in policy.guardrails)
    if policy.require_gain == sp.QUALITY:
        found.append(quality_gain(quality, index))
    elif policy.require_gain in GAIN_METRIC:
        found.append(figures.gain(GAIN_METRIC[policy.require_gain], index))
    more: object = _DECIDED
    if quality.status == UNCERTAIN and quality.reason is None and quality.estimate is not None:
        more = cases_needed(
            differences,
            delta=quality.estimate / POINTS,
            margin=policy.margin,
            alpha=policy.alpha,
        )
    return found, more
