"""The ship policy a decision is taken under (the server's `ShipPolicyInput`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

GuardrailMetric = Literal[
    "COST_PER_CASE", "LATENCY_P50", "LATENCY_P95", "OUTPUT_TOKENS", "FAILED_OR_MISSING"
]
RequiredGain = Literal["NONE", "QUALITY", "COST", "LATENCY"]


@dataclass(frozen=True)
class Guardrail:
    """A metric the candidate may not worsen beyond a percent (ratios) or points."""

    metric: GuardrailMetric
    max_increase_percent: float | None = None
    max_increase_points: float | None = None

    def as_input(self) -> dict[str, Any]:
        found: dict[str, Any] = {"metric": self.metric}
        if self.max_increase_percent is not None:
            found["maxIncreasePercent"] = self.max_increase_percent
        if self.max_increase_points is not None:
            found["maxIncreasePoints"] = self.max_increase_points
        return found


@dataclass(frozen=True)
class ShipPolicy:
    """δ (pass-rate points the candidate may lose), α, guardrails and a required gain;
    a field left None takes the server's default."""

    quality_margin_points: float | None = None
    alpha: float | None = None
    guardrails: tuple[Guardrail, ...] | None = None
    require_gain: RequiredGain | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def as_input(self) -> dict[str, Any]:
        found: dict[str, Any] = dict(self.extra)
        if self.quality_margin_points is not None:
            found["qualityMarginPoints"] = self.quality_margin_points
        if self.alpha is not None:
            found["alpha"] = self.alpha
        if self.guardrails is not None:
            found["guardrails"] = [g.as_input() for g in self.guardrails]
        if self.require_gain is not None:
            found["requireGain"] = self.require_gain
        return found
