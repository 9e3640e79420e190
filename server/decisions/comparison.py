"""A finalized comparison's ship decision (docs/decision.md; docs/labels.md): every number from
`stats.decision`, the judge's evidence weighed in.

The caller reads the comparison (`server/verdicts/ship_inputs.py`: at finalization, and
again when a human label arrives) and hands its facts here as plain values: each cohort's
measures over the cases that ran (the scorecard's per-case values), the frozen policy, the
scorecard's seed, the sequence bounds of a run decided early. The stored document is
camelCase, as GraphQL shows it: `{outcome reason sentence casesNeeded usableCases level
criteria}`, each criterion with its baseline's cohort index and its own sentence.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

import stats
from server.decisions import document as decision_document
from server.decisions import judge_gate
from server.decisions import policy as ship_policy_option
from stats.decision import CohortMeasures, QualityBounds

FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class ComparisonFacts:
    """What the decision reads of a finalized comparison."""

    cohorts: list[CohortMeasures]
    """Candidate first, then each baseline, over the cases that ran."""
    policy: dict[str, Any] | None
    """The frozen ship policy document (None: the defaults)."""
    seed: int
    """The scorecard's seed: the same case resamples."""
    labels: dict[int, str]
    """Each cohort's label by cohort index."""
    sequence: list[QualityBounds | None] | None = None
    """Each baseline's confidence sequence at the stop, when the run decided early."""


def decide(facts: ComparisonFacts, evidence: judge_gate.JudgeEvidence) -> dict[str, Any]:
    """The decision document under what labels say of the judge: an uncalibrated judge caps
    quality at UNCERTAIN, and queue labels correct Δ (finalization: no label yet)."""
    spec = ship_policy_option.from_document(facts.policy)
    policy = ship_policy_option.to_engine(spec)
    corrected = _corrected(evidence, facts.cohorts, policy.confidence)
    decision = stats.ship_decision(
        facts.cohorts[0],
        facts.cohorts[1:],
        policy,
        seed=facts.seed,
        sequence=facts.sequence,
        corrected=corrected,
        judge_uncalibrated=bool(evidence.uncalibrated),
    )
    document = decision_document.to_document(
        decision, policy=policy, labels=facts.labels, candidate=facts.labels.get(0, "?")
    )
    used = any(c.get("corrected") for c in document["criteria"])
    words = judge_gate.judge_sentence(evidence, corrected=used)
    if words:
        document["sentence"] = f"{document['sentence']} {words}"
    return document


def _corrected(
    evidence: judge_gate.JudgeEvidence, cohorts: list[CohortMeasures], confidence: float
) -> list[QualityBounds | None] | None:
    """Each baseline's Δ corrected with the queue's labels (docs/labels.md), in rate units."""
    if not evidence.judged or not evidence.rectifiers:
        return None
    usable = np.all([c.trials.completed > 0 for c in cohorts], axis=0)
    candidate = _fractions(cohorts[0], usable)
    found: list[QualityBounds | None] = []
    for index, baseline in enumerate(cohorts[1:], start=1):
        interval = evidence.corrected(
            candidate - _fractions(baseline, usable), index, confidence=confidence
        )
        found.append(
            None
            if interval is None
            else QualityBounds(
                low=interval.low, high=interval.high, estimate=interval.estimate, corrected=True
            )
        )
    return found


def _fractions(cohort: CohortMeasures, usable: npt.NDArray[np.bool_]) -> FloatArray:
    trials = cohort.trials
    return np.asarray(trials.passed[usable] / np.maximum(trials.completed[usable], 1), float)
