"""What the ship decision reads of each cohort, and what it takes from outside the bootstrap
(docs/decision.md)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from stats._arrays import FloatArray, IntArray, as_floats, as_ints
from stats.trials import CohortTrials


@dataclass(frozen=True, slots=True, eq=False)
class CohortMeasures:
    """One cohort's figures per case (the cases that ran, in the comparison's order).

    `cost` and `output_tokens`: the mean over each case's trials (NaN: none measured);
    `latency`: one value per completed trial, `latency_case` the case of each. None: the
    cohort does not carry the metric (a guardrail on it is UNCERTAIN, NOT_MEASURED).
    `planned`: trials planned per case when cases differ (a run's items); default
    `trials.scheduled` for every case.
    """

    trials: CohortTrials
    cost: FloatArray | None = None
    output_tokens: FloatArray | None = None
    latency: FloatArray | None = None
    latency_case: IntArray | None = None
    planned: IntArray | None = None

    def __post_init__(self) -> None:
        cases = len(self.trials)
        if self.planned is not None:
            planned = as_ints(self.planned, "planned")
            if len(planned) != cases or np.any(planned < self.trials.completed):
                raise ValueError("planned must give each case at least its completed trials")
            object.__setattr__(self, "planned", planned)
        for name in ("cost", "output_tokens"):
            values = getattr(self, name)
            if values is not None:
                array = as_floats(values, name)
                if len(array) != cases:
                    raise ValueError(f"{name} has {len(array)} values for {cases} cases")
                object.__setattr__(self, name, array)
        if (self.latency is None) != (self.latency_case is None):
            raise ValueError("latency and latency_case come together")
        if self.latency is not None and self.latency_case is not None:
            latency, case = as_floats(self.latency, "latency"), as_ints(self.latency_case)
            if len(latency) != len(case) or np.any((case < 0) | (case >= cases)):
                raise ValueError("latency_case must give a case of each latency")
            object.__setattr__(self, "latency", latency)
            object.__setattr__(self, "latency_case", case)


@dataclass(frozen=True, slots=True)
class QualityBounds:
    """Δ's interval from outside the fixed-n bootstrap, in rate units at level 1 − 2α:
    the confidence sequence at a sequential stop (estimate None: the observed Δ stays), or
    a label-corrected Δ (docs/labels.md) with `corrected`."""

    low: float
    high: float
    estimate: float | None = None
    corrected: bool = False


def missing_share(cohort: CohortMeasures) -> FloatArray:
    """Per case: failed-or-missing trials ÷ planned trials (0 for a case planning none)."""
    trials = cohort.trials
    planned = np.full(len(trials), trials.scheduled) if cohort.planned is None else cohort.planned
    share = np.zeros(len(trials))
    np.divide(planned - trials.completed, planned, out=share, where=planned > 0)
    return share
