"""The ship decision of docs/decision.md: every criterion against every baseline, one outcome.

Differences are candidate − baseline over the usable cases (a completed trial in every
cohort), as the scorecard's. Each criterion is a one-sided test at α, read off the ends of
a two-sided interval at 1 − 2α; SHIP needs every one of them (an intersection–union test,
Berger 1982, "Multiparameter hypothesis testing and acceptance sampling",
Technometrics 24(4)), so the chance of shipping a candidate that breaks any criterion
stays at or below α without adjusting for their number.

- Quality: Δ of pass fractions with the scorecard's interval (`stats.bootstrap.
  delta_interval`, the same seed: the same case resamples, BCa); MET when low > −δ,
  VIOLATED when high < −δ. A sequence bound or a label-corrected Δ replaces it when given.
- Ratio guardrails (cost, p50/p95 latency, output tokens): the scorecard's figure of the
  candidate ÷ the baseline's, with a percentile interval from those same case resamples,
  both cohorts weighed by the same draw; MET when high ≤ 1 + p/100, VIOLATED when low > it.
- FAILED_OR_MISSING: the difference of failed-or-missing trial shares over the cases that
  ran (points), percentile interval; MET when high ≤ x, VIOLATED when low > x.
- Required gain: QUALITY low of Δ > 0; COST / LATENCY high of the cost / p50 ratio < 1.

The modules, one concept each: `policy` (the ship policy: margin, α, guardrails, gain, and
`validate`), `vocabulary` (kinds, statuses, reasons, outcomes),
`measures` (what is read of a cohort), `criteria` (a criterion; quality and its gain),
`figures` (guardrails and the cost or latency gain), `sample_size` (`cases_needed`),
`outcome` (one outcome by the order) and `ship` (`ship_decision`, every baseline). The
server decides with them only through `server/decisions/` (docs/architecture.md).
"""

from __future__ import annotations

from stats.decision.criteria import Criterion
from stats.decision.measures import CohortMeasures, QualityBounds
from stats.decision.outcome import Decision
from stats.decision.sample_size import POWER, cases_needed
from stats.decision.ship import ship_decision
from stats.decision.vocabulary import (
    DONT_SHIP,
    GAIN,
    GUARDRAIL,
    INSUFFICIENT_CASES,
    JUDGE_UNCALIBRATED,
    MET,
    MORE_DATA,
    NO_BASELINE,
    NO_DECISION,
    NOT_MEASURED,
    NOT_RUN_TO_END,
    POINTS,
    QUALITY,
    SHIP,
    UNCERTAIN,
    UNLIKELY_TO_PASS,
    VIOLATED,
    ZERO_BASELINE,
)

__all__ = [
    "CohortMeasures",
    "Criterion",
    "DONT_SHIP",
    "Decision",
    "GAIN",
    "GUARDRAIL",
    "INSUFFICIENT_CASES",
    "JUDGE_UNCALIBRATED",
    "MET",
    "MORE_DATA",
    "NOT_MEASURED",
    "NOT_RUN_TO_END",
    "NO_BASELINE",
    "NO_DECISION",
    "POINTS",
    "POWER",
    "QUALITY",
    "QualityBounds",
    "SHIP",
    "UNCERTAIN",
    "UNLIKELY_TO_PASS",
    "VIOLATED",
    "ZERO_BASELINE",
    "cases_needed",
    "ship_decision",
]
