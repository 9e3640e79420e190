"""The ship policy a decision is taken under (docs/decision.md): margin, α, guardrails, gain.

Plain values with the defaults of the contract; `validate` names the first field a
policy gets wrong, so the service can answer VALIDATION_FAILED with it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final

# Guardrail metrics: ratios candidate ÷ baseline, and one difference in points.
COST_PER_CASE: Final = "COST_PER_CASE"
LATENCY_P50: Final = "LATENCY_P50"
LATENCY_P95: Final = "LATENCY_P95"
OUTPUT_TOKENS: Final = "OUTPUT_TOKENS"
FAILED_OR_MISSING: Final = "FAILED_OR_MISSING"
RATIO_METRICS: Final = (COST_PER_CASE, LATENCY_P50, LATENCY_P95, OUTPUT_TOKENS)
GUARDRAIL_METRICS: Final = (*RATIO_METRICS, FAILED_OR_MISSING)
PASS_RATE: Final = "PASS_RATE"
"""The quality criterion's metric."""

# Required gains.
NONE: Final = "NONE"
QUALITY: Final = "QUALITY"
COST: Final = "COST"
LATENCY: Final = "LATENCY"
GAINS: Final = (NONE, QUALITY, COST, LATENCY)

DEFAULT_MARGIN_POINTS: Final = 2.0
DEFAULT_ALPHA: Final = 0.05
DEFAULT_FAILED_OR_MISSING_POINTS: Final = 5.0
MAX_GUARDRAILS: Final = 8


@dataclass(frozen=True, slots=True)
class Guardrail:
    """A metric the candidate may not worsen by more than `max_increase`: a percent for
    the ratio metrics (allowed ratio 1 + percent ÷ 100), points for FAILED_OR_MISSING."""

    metric: str
    max_increase: float

    @property
    def is_ratio(self) -> bool:
        return self.metric in RATIO_METRICS

    @property
    def threshold(self) -> float:
        """The bound in the criterion's own unit: the allowed ratio, or points."""
        return 1.0 + self.max_increase / 100.0 if self.is_ratio else float(self.max_increase)


DEFAULT_GUARDRAILS: Final = (Guardrail(FAILED_OR_MISSING, DEFAULT_FAILED_OR_MISSING_POINTS),)


@dataclass(frozen=True, slots=True)
class ShipPolicy:
    """δ in pass-rate points, the one-sided α of each criterion, guardrails, required gain."""

    quality_margin_points: float = DEFAULT_MARGIN_POINTS
    alpha: float = DEFAULT_ALPHA
    guardrails: tuple[Guardrail, ...] = DEFAULT_GUARDRAILS
    require_gain: str = NONE

    @property
    def margin(self) -> float:
        """δ in pass-rate units (0.02 for 2 points)."""
        return self.quality_margin_points / 100.0

    @property
    def confidence(self) -> float:
        """The two-sided level 1 − 2α whose ends test each one-sided criterion at α."""
        return 1.0 - 2.0 * self.alpha


@dataclass(frozen=True, slots=True)
class PolicyProblem:
    """What is wrong with a policy: the field (camelCase, as the API names it) and why."""

    field: str
    message: str


def validate(policy: ShipPolicy) -> PolicyProblem | None:
    """The first problem with `policy`, or None when it is usable."""
    margin = policy.quality_margin_points
    if not math.isfinite(margin) or margin < 0 or margin > 100:
        return PolicyProblem("qualityMarginPoints", "must be between 0 and 100 points")
    if not math.isfinite(policy.alpha) or not 0.0 < policy.alpha < 0.5:
        return PolicyProblem("alpha", "must lie strictly between 0 and 0.5")
    if len(policy.guardrails) > MAX_GUARDRAILS:
        return PolicyProblem("guardrails", f"at most {MAX_GUARDRAILS} guardrails")
    for index, guardrail in enumerate(policy.guardrails):
        problem = _guardrail_problem(guardrail)
        if problem is not None:
            return PolicyProblem(f"guardrails[{index}].{problem.field}", problem.message)
    if policy.require_gain not in GAINS:
        return PolicyProblem("requireGain", f"must be one of {', '.join(GAINS)}")
    return None


def _guardrail_problem(guardrail: Guardrail) -> PolicyProblem | None:
    if guardrail.metric not in GUARDRAIL_METRICS:
        return PolicyProblem("metric", f"must be one of {', '.join(GUARDRAIL_METRICS)}")
    if not math.isfinite(guardrail.max_increase) or guardrail.max_increase < 0:
        field = "maxIncreasePercent" if guardrail.is_ratio else "maxIncreasePoints"
        return PolicyProblem(field, "must be a number at or above 0")
    if not guardrail.is_ratio and guardrail.max_increase > 100:
        return PolicyProblem("maxIncreasePoints", "must be at most 100 points")
    return None
