"""The statistics of one treatment against the baseline (docs/statistics.md), from `stats/`.

With a judge, every statistic covers the judged pairs only: the pairwise score, the
grade test and the metric deltas alike; with none judged there are none. Without a
judge, grades (McNemar on case outcomes) and metrics cover every matched pair.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

import numpy as np

import stats
from server.judges.pair import PairJudgment
from server.offline_compare.pairing import Matching, Pair
from server.offline_compare.results import METRICS
from stats import movement
from stats.movement import Movement

COMPLETE: Final = "COMPLETE"
PARTIAL: Final = "PARTIAL"
NO_SIGNAL: Final = "NO_SIGNAL"
ALPHA: Final = 0.05


@dataclass(frozen=True, slots=True)
class Summary:
    """One treatment's comparison: what was matched and judged, and the statistics."""

    baseline: str
    treatment: str
    matching: Matching
    judge_model: str | None
    judgments: tuple[PairJudgment, ...] | None
    """One per matched pair, in the same order; None without a judge."""
    pairwise: stats.PairwiseResult | None
    mcnemar: stats.McNemarResult | None
    metric_deltas: tuple[tuple[str, stats.MetricDelta], ...]
    status: str
    regression: bool
    movements: tuple[tuple[str, Movement], ...] = ()
    """Each item in scope, in order, with its movement by pass fraction (`stats.movement`)."""

    @property
    def matched_pairs(self) -> int:
        return len(self.matching.pairs)

    @property
    def judged_pairs(self) -> int:
        if self.judgments is None:
            return 0
        return sum(1 for j in self.judgments if j.failure is None)


def summarize(
    *,
    baseline: str,
    treatment: str,
    matching: Matching,
    judgments: Sequence[PairJudgment] | None = None,
    judge_model: str | None = None,
) -> Summary:
    """The statistics over the pairs in scope (judged ones with a judge, else all)."""
    pairs = matching.pairs
    pairwise = None
    if judgments is None:
        scope = list(pairs)
    else:
        if len(judgments) != len(pairs):
            raise ValueError("one judgment per matched pair is needed")
        scope = [p for p, j in zip(pairs, judgments, strict=True) if j.failure is None]
        if scope:
            pairwise = _pairwise(pairs, judgments)
    mcnemar = _mcnemar(scope)
    deltas = _metric_deltas(scope)
    if not pairs or (judgments is not None and not scope):
        status = NO_SIGNAL
    else:
        status = PARTIAL if len(scope) < len(pairs) else COMPLETE
    if judgments is not None:
        regression = pairwise is not None and pairwise.regression
    else:
        regression = _grade_regression(mcnemar)
    return Summary(
        baseline=baseline,
        treatment=treatment,
        matching=matching,
        judge_model=judge_model,
        judgments=None if judgments is None else tuple(judgments),
        pairwise=pairwise,
        mcnemar=mcnemar if status != NO_SIGNAL else None,
        metric_deltas=deltas if status != NO_SIGNAL else (),
        status=status,
        regression=regression and status != NO_SIGNAL,
        movements=_movements(scope) if status != NO_SIGNAL else (),
    )


def _grade_regression(mcnemar: stats.McNemarResult | None) -> bool:
    """The grade test: significant (mid-p < 0.05) with more regressed than improved cases."""
    return mcnemar is not None and mcnemar.p_value < ALPHA and mcnemar.delta < 0.0


def _movements(scope: Sequence[Pair]) -> tuple[tuple[str, Movement], ...]:
    """Each item's movement from its pairs graded on both sides: the majority outcome
    flipped, else the pass fraction moved (as a comparison's cases against a baseline);
    an item without such a pair is NO_VERDICT."""
    if not scope:
        return ()
    ids = np.asarray(_case_ids(scope))
    keys = list(dict.fromkeys(p.key for p in scope))
    graded = np.array(
        [p.baseline.passed is not None and p.treatment.passed is not None for p in scope]
    )
    treat = np.array([bool(p.treatment.passed) for p in scope]) & graded
    base = np.array([bool(p.baseline.passed) for p in scope]) & graded
    cases = len(keys)
    counts = np.bincount(ids, weights=graded, minlength=cases)
    labels = movement.pass_movements(
        np.bincount(ids, weights=treat, minlength=cases),
        counts,
        np.bincount(ids, weights=base, minlength=cases),
        counts,
    )
    return tuple((key, Movement(label)) for key, label in zip(keys, labels, strict=True))


def _case_ids(pairs: Sequence[Pair]) -> list[int]:
    index: dict[str, int] = {}
    return [index.setdefault(p.key, len(index)) for p in pairs]


def _pairwise(pairs: Sequence[Pair], judgments: Sequence[PairJudgment]) -> stats.PairwiseResult:
    forward = [math.nan if j.forward is None else j.forward for j in judgments]
    reverse = [math.nan if j.reverse is None else j.reverse for j in judgments]
    return stats.pairwise_summary(_case_ids(pairs), forward, reverse)


def _mcnemar(scope: Sequence[Pair]) -> stats.McNemarResult | None:
    """McNemar on case outcomes from the pairs where both trials carry a grade."""
    graded = [p for p in scope if p.baseline.passed is not None and p.treatment.passed is not None]
    if not graded:
        return None
    ids = np.asarray(_case_ids(graded))
    counts = np.bincount(ids)
    base = np.bincount(ids, weights=[bool(p.baseline.passed) for p in graded])
    treat = np.bincount(ids, weights=[bool(p.treatment.passed) for p in graded])
    # A case passes when more than half of its trials pass (docs/statistics.md).
    return stats.mcnemar_test(treat / counts > 0.5, base / counts > 0.5)


def _metric_deltas(scope: Sequence[Pair]) -> tuple[tuple[str, stats.MetricDelta], ...]:
    """Per metric, treatment − baseline of the per-case means (NaN where a side lacks it)."""
    if not scope:
        return ()
    ids = np.asarray(_case_ids(scope))
    cases = int(ids.max()) + 1
    deltas = []
    for name in METRICS:
        base = _case_means(ids, cases, [p.baseline.metrics.get(name) for p in scope])
        treat = _case_means(ids, cases, [p.treatment.metrics.get(name) for p in scope])
        if not np.any(np.isfinite(base) & np.isfinite(treat)):
            continue
        deltas.append((name, stats.metric_delta(treat, base)))
    return tuple(deltas)


def _case_means(ids: np.ndarray, cases: int, values: list[float | None]) -> np.ndarray:
    present = np.array([v is not None for v in values])
    numbers = np.array([0.0 if v is None else v for v in values])
    totals = np.bincount(ids[present], weights=numbers[present], minlength=cases)
    counts = np.bincount(ids[present], minlength=cases)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(counts > 0, totals / np.maximum(counts, 1), np.nan)
