"""A comparison's scorecard (the portal's `ComparisonScorecard`): the verdict row's stored
scorecard document, as one frozen value.

The value's attributes are the `Scorecard` type's GraphQL fields in snake case: the
`Comparison.scorecard` field builds its type from `card_of` of the document its read holds
(`server.page_reads.comparison_page`). A new field of the scorecard is one attribute here
(read from the stored document in `card_of`) and one field of the type. Sub-documents the
type reads as its own objects (a baseline's `pairwise`, the `stopping`) are carried as
stored.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from server.db import utcnow
from server.verdicts import wording
from server.verdicts.models import VerdictState
from stats.movement import Movement


@dataclass(frozen=True, slots=True)
class MetricValueRead:
    cohort_index: int
    value: float | None


@dataclass(frozen=True, slots=True)
class MetricRowRead:
    name: str
    direction: str
    """HIGHER_IS_BETTER or LOWER_IS_BETTER (the type's `MetricDirection`)."""
    values: tuple[MetricValueRead, ...]
    winners: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class OverallWinnerRead:
    cohort_index: int | None
    reason: str | None
    votes: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class StalenessRead:
    days: int
    note: str


@dataclass(frozen=True, slots=True)
class SignificanceRead:
    baseline_cohort_index: int
    method: str
    """The type's `SignificanceMethod`, by name."""
    p_value: float
    exact_p_value: float | None
    adjusted_p_value: float
    significant: bool
    decides: bool
    reason: str | None


@dataclass(frozen=True, slots=True)
class ConfidenceRead:
    cohort_index: int
    pass_rate: float
    low: float
    high: float
    n: int
    adequacy: str
    """The type's `Adequacy`, by name."""
    mde: float
    interval_method: str


@dataclass(frozen=True, slots=True)
class TrialSummaryRead:
    cohort_index: int
    k: int
    pass_hat_k: float
    pass_at_k: float
    flips: int
    failed_or_missing_trials: int


@dataclass(frozen=True, slots=True)
class FailureAnalysisRead:
    improved: int
    regressed: int
    both_wrong: int
    agree: int


@dataclass(frozen=True, slots=True)
class BaselineVerdictRead:
    baseline_cohort_index: int
    outcome: Movement
    reason: str
    pass_rate_delta_points: float
    delta_low: float
    delta_high: float
    outside_noise: bool
    mde: float
    worse_count: int
    better_count: int
    same_count: int
    sensitivity_delta_points: float
    pairwise: dict[str, Any] | None
    """As stored (the type's `PairwiseResult` reads it)."""
    summary: str
    decided_early_at_cases: int | None


@dataclass(frozen=True, slots=True)
class ScorecardRead:
    """A finalized comparison's scorecard, as stored, with its staleness as of now."""

    usable_cases: int
    cases_not_run: int
    finalized_at: datetime
    metrics: tuple[MetricRowRead, ...]
    overall_winner: OverallWinnerRead
    staleness: StalenessRead | None
    significance: tuple[SignificanceRead, ...]
    confidence: tuple[ConfidenceRead, ...]
    trials: tuple[TrialSummaryRead, ...]
    failure_analysis: FailureAnalysisRead
    verdicts: tuple[BaselineVerdictRead, ...]
    stopping: dict[str, Any] | None
    """As stored (the type's `ComparisonStopping` reads it)."""
    document: dict[str, Any]
    """The stored document, as is."""


def _float(value: Any) -> float | None:
    return None if value is None else float(value)


def verdict_of(v: dict[str, Any]) -> BaselineVerdictRead:
    """One baseline's verdict from the stored scorecard's `verdicts` entry."""
    return BaselineVerdictRead(
        v["baselineCohortIndex"],
        Movement(v["outcome"]),
        v["reason"],
        float(v["passRateDeltaPoints"] or 0.0),
        float(v["deltaLow"] or 0.0),
        float(v["deltaHigh"] or 0.0),
        bool(v["outsideNoise"]),
        float(v["mde"] or 0.0),
        int(v["worseCount"]),
        int(v["betterCount"]),
        int(v["sameCount"]),
        float(v["sensitivityDeltaPoints"] or 0.0),
        v.get("pairwise"),
        wording.chip(v),
        v.get("decidedEarlyAtCases"),
    )


def card_of(doc: dict[str, Any], finalized_at: datetime) -> ScorecardRead:
    """The scorecard of a stored document, its staleness counted from `finalized_at`."""
    days = (utcnow() - finalized_at).days
    winner, analysis = doc["overallWinner"], doc["failureAnalysis"]
    return ScorecardRead(
        int(doc["usableCases"]),
        int(doc["casesNotRun"]),
        finalized_at,
        tuple(
            MetricRowRead(
                m["name"],
                m["direction"],
                tuple(MetricValueRead(v["cohortIndex"], _float(v["value"])) for v in m["values"]),
                tuple(m["winners"]),
            )
            for m in doc["metrics"]
        ),
        OverallWinnerRead(winner["cohortIndex"], winner["reason"], tuple(winner["votes"])),
        StalenessRead(days, wording.staleness_note(days))
        if days >= wording.STALE_AFTER_DAYS
        else None,
        tuple(
            SignificanceRead(
                s["baselineCohortIndex"],
                s["method"],
                float(s["pValue"]),
                _float(s["exactPValue"]),
                float(s["adjustedPValue"]),
                bool(s["significant"]),
                bool(s["decides"]),
                s["reason"],
            )
            for s in doc["significance"]
        ),
        tuple(
            ConfidenceRead(
                c["cohortIndex"],
                float(c["passRate"] or 0.0),
                float(c["low"] or 0.0),
                float(c["high"] or 0.0),
                int(c["n"]),
                c["adequacy"],
                float(c["mde"] or 0.0),
                c["intervalMethod"],
            )
            for c in doc["confidence"]
        ),
        tuple(
            TrialSummaryRead(
                t["cohortIndex"],
                int(t["k"]),
                float(t["passHatK"] or 0.0),
                float(t["passAtK"] or 0.0),
                int(t["flips"]),
                int(t["failedOrMissingTrials"]),
            )
            for t in doc["trials"]
        ),
        FailureAnalysisRead(
            analysis["improved"], analysis["regressed"], analysis["bothWrong"], analysis["agree"]
        ),
        tuple(verdict_of(v) for v in doc["verdicts"]),
        doc.get("stopping"),
        doc,
    )


def scorecard_of(
    state: VerdictState | str | None, document: dict[str, Any] | None, finalized_at: Any
) -> ScorecardRead | None:
    """The scorecard of a verdict row's columns: None until FINALIZED with a document."""
    if state != VerdictState.FINALIZED or document is None:
        return None
    if finalized_at is None:
        raise ValueError("a FINALIZED verdict without its time")
    return card_of(document, finalized_at)
