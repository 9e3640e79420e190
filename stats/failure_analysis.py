"""Failure analysis: each case classified candidate vs every baseline (seed 000)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

import numpy as np

from stats.movement import Movement
from stats.trials import CohortTrials, case_outcomes

IMPROVED: Final = Movement.IMPROVED.value
REGRESSED: Final = Movement.REGRESSED.value
BOTH_WRONG: Final = "BOTH_WRONG"
AGREE: Final = "AGREE"
INCOMPLETE: Final = "INCOMPLETE"


@dataclass(frozen=True, slots=True)
class FailureAnalysis:
    """Counts of the four classes and each case's class (INCOMPLETE is not counted)."""

    improved: int
    regressed: int
    both_wrong: int
    agree: int
    incomplete: int
    classifications: tuple[str, ...]


def failure_analysis(candidate: CohortTrials, baselines: Sequence[CohortTrials]) -> FailureAnalysis:
    """Classify cases on binary outcomes (more than half the completed trials pass).

    Improved: the candidate passed and a baseline failed. Regressed: the candidate
    failed and a baseline passed. Both wrong: the candidate and every baseline failed.
    Agree: no divergence (all passed). A case without a completed trial in the
    candidate or in some baseline is INCOMPLETE (seed 000, "Failure analysis").
    """
    for baseline in baselines:
        if len(baseline) != len(candidate):
            raise ValueError("every cohort must have the same cases")
    usable = candidate.completed > 0
    cand = case_outcomes(candidate.passed, candidate.completed)
    any_pass = np.zeros(len(candidate), dtype=np.bool_)
    any_fail = np.zeros(len(candidate), dtype=np.bool_)
    for baseline in baselines:
        usable &= baseline.completed > 0
        outcome = case_outcomes(baseline.passed, baseline.completed)
        any_pass |= outcome
        any_fail |= ~outcome
    labels = np.full(len(candidate), AGREE, dtype=object)
    labels[cand & any_fail] = IMPROVED
    labels[~cand & any_pass] = REGRESSED
    labels[~cand & ~any_pass] = BOTH_WRONG
    labels[~usable] = INCOMPLETE
    classes = tuple(str(label) for label in labels)
    return FailureAnalysis(
        improved=classes.count(IMPROVED),
        regressed=classes.count(REGRESSED),
        both_wrong=classes.count(BOTH_WRONG),
        agree=classes.count(AGREE),
        incomplete=classes.count(INCOMPLETE),
        classifications=classes,
    )


def regressed_cases(candidate: CohortTrials, baseline: CohortTrials) -> tuple[int, ...]:
    """Indices of cases where the candidate failed and this baseline passed (follow-ups)."""
    if len(baseline) != len(candidate):
        raise ValueError("both cohorts must have the same cases")
    usable = (candidate.completed > 0) & (baseline.completed > 0)
    cand = case_outcomes(candidate.passed, candidate.completed)
    base = case_outcomes(baseline.passed, baseline.completed)
    return tuple(int(i) for i in np.flatnonzero(usable & ~cand & base))
