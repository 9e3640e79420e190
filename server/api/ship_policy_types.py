"""GraphQL types of the ship policy and the ship decision (docs/decision.md; docs/decision.md): the
input, what a comparison (and a workspace's default) shows of the policy, and the decision
with its criteria, read from the stored camelCase documents."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any, TypeAlias

import strawberry

from server.decisions import policy as ship_policy_option
from server.decisions import wording as decision_wording
from server.decisions.policy import GuardrailSpec, JudgeSpec, ShipPolicySpec


class _GuardrailMetric(StrEnum):
    COST_PER_CASE = "COST_PER_CASE"
    LATENCY_P50 = "LATENCY_P50"
    LATENCY_P95 = "LATENCY_P95"
    OUTPUT_TOKENS = "OUTPUT_TOKENS"
    FAILED_OR_MISSING = "FAILED_OR_MISSING"


class _DecisionMetric(StrEnum):
    PASS_RATE = "PASS_RATE"
    COST_PER_CASE = "COST_PER_CASE"
    LATENCY_P50 = "LATENCY_P50"
    LATENCY_P95 = "LATENCY_P95"
    OUTPUT_TOKENS = "OUTPUT_TOKENS"
    FAILED_OR_MISSING = "FAILED_OR_MISSING"


class _RequiredGain(StrEnum):
    NONE = "NONE"
    QUALITY = "QUALITY"
    COST = "COST"
    LATENCY = "LATENCY"


class _DecisionOutcome(StrEnum):
    SHIP = "SHIP"
    DONT_SHIP = "DONT_SHIP"
    MORE_DATA = "MORE_DATA"
    NO_DECISION = "NO_DECISION"


class _DecisionReason(StrEnum):
    INSUFFICIENT_CASES = "INSUFFICIENT_CASES"
    NOT_RUN_TO_END = "NOT_RUN_TO_END"
    NO_BASELINE = "NO_BASELINE"
    UNLIKELY_TO_PASS = "UNLIKELY_TO_PASS"
    JUDGE_UNCALIBRATED = "JUDGE_UNCALIBRATED"


class _CriterionKind(StrEnum):
    QUALITY = "QUALITY"
    GUARDRAIL = "GUARDRAIL"
    GAIN = "GAIN"


class _CriterionStatus(StrEnum):
    MET = "MET"
    VIOLATED = "VIOLATED"
    UNCERTAIN = "UNCERTAIN"


class _CriterionReason(StrEnum):
    ZERO_BASELINE = "ZERO_BASELINE"
    NOT_MEASURED = "NOT_MEASURED"
    JUDGE_UNCALIBRATED = "JUDGE_UNCALIBRATED"


strawberry.enum(
    _GuardrailMetric,
    name="GuardrailMetric",
    description="Ratios candidate ÷ baseline, or FAILED_OR_MISSING: a difference in points.",
)
GuardrailMetric: TypeAlias = _GuardrailMetric
strawberry.enum(_DecisionMetric, name="DecisionMetric")
DecisionMetric: TypeAlias = _DecisionMetric
strawberry.enum(
    _RequiredGain,
    name="RequiredGain",
    description="QUALITY: Δ's low end above 0; COST / LATENCY: the cost / p50 ratio's high "
    "end below 1.",
)
RequiredGain: TypeAlias = _RequiredGain
strawberry.enum(_DecisionOutcome, name="DecisionOutcome")
DecisionOutcome: TypeAlias = _DecisionOutcome
strawberry.enum(_DecisionReason, name="DecisionReason")
DecisionReason: TypeAlias = _DecisionReason
strawberry.enum(_CriterionKind, name="CriterionKind")
CriterionKind: TypeAlias = _CriterionKind
strawberry.enum(_CriterionStatus, name="CriterionStatus")
CriterionStatus: TypeAlias = _CriterionStatus
strawberry.enum(_CriterionReason, name="CriterionReason")
CriterionReason: TypeAlias = _CriterionReason


@strawberry.input(
    description="A guardrail: `maxIncreasePercent` for a ratio metric, `maxIncreasePoints` "
    "for FAILED_OR_MISSING."
)
class ShipGuardrailInput:
    metric: GuardrailMetric
    max_increase_percent: float | None = None
    max_increase_points: float | None = None


@strawberry.input(description="When a judge may decide quality (docs/labels.md).")
class ShipPolicyJudgeInput:
    min_labels: int = ship_policy_option.DEFAULT_MIN_LABELS
    min_kappa: float = ship_policy_option.DEFAULT_MIN_KAPPA


@strawberry.input(description="The ship policy, fixed before the first call (docs/decision.md).")
class ShipPolicyInput:
    quality_margin_points: float = strawberry.field(
        default=2.0, description="δ: the points the candidate may lose against a baseline."
    )
    alpha: float = strawberry.field(default=0.05, description="Each criterion's one-sided error.")
    guardrails: list[ShipGuardrailInput] | None = strawberry.field(
        default=None,
        description="Up to 8; default [{metric: FAILED_OR_MISSING, maxIncreasePoints: 5}].",
    )
    require_gain: RequiredGain = _RequiredGain.NONE
    judge: ShipPolicyJudgeInput | None = None

    def to_spec(self) -> ShipPolicySpec:
        default = ShipPolicySpec()
        return ShipPolicySpec(
            quality_margin_points=self.quality_margin_points,
            alpha=self.alpha,
            guardrails=default.guardrails
            if self.guardrails is None
            else tuple(
                GuardrailSpec(
                    _GuardrailMetric(g.metric).value,
                    max_increase_percent=g.max_increase_percent,
                    max_increase_points=g.max_increase_points,
                )
                for g in self.guardrails
            ),
            require_gain=_RequiredGain(self.require_gain).value,
            judge=JudgeSpec(self.judge.min_labels, self.judge.min_kappa)
            if self.judge
            else JudgeSpec(),
        )


@strawberry.type
class ShipGuardrail:
    metric: GuardrailMetric
    max_increase_percent: float | None
    max_increase_points: float | None


@strawberry.type
class ShipPolicyJudge:
    min_labels: int
    min_kappa: float


@strawberry.type(description="A ship policy as registered (docs/decision.md).")
class ShipPolicy:
    quality_margin_points: float
    alpha: float
    guardrails: list[ShipGuardrail]
    require_gain: RequiredGain
    judge: ShipPolicyJudge
    registered_at: datetime | None = strawberry.field(
        description="When a comparison froze it (null for a workspace's default)."
    )
    sentence: str = strawberry.field(description="The policy in words.")

    @classmethod
    def from_document(cls, doc: dict[str, Any]) -> ShipPolicy:
        spec = ship_policy_option.from_document(doc)
        registered = doc.get("registeredAt")
        return cls(
            quality_margin_points=spec.quality_margin_points,
            alpha=spec.alpha,
            guardrails=[
                ShipGuardrail(
                    metric=_GuardrailMetric(g.metric),
                    max_increase_percent=g.max_increase_percent,
                    max_increase_points=g.max_increase_points,
                )
                for g in spec.guardrails
            ],
            require_gain=_RequiredGain(spec.require_gain),
            judge=ShipPolicyJudge(min_labels=spec.judge.min_labels, min_kappa=spec.judge.min_kappa),
            registered_at=datetime.fromisoformat(registered) if registered else None,
            sentence=decision_wording.policy_sentence(ship_policy_option.document(spec)),
        )


_CRITERION_UNITS = (
    "One criterion against one baseline, in its own unit: points for quality and "
    "FAILED_OR_MISSING, the ratio candidate ÷ baseline otherwise."
)


@strawberry.type(description=_CRITERION_UNITS)
class ShipCriterion:
    baseline_cohort_index: int
    kind: CriterionKind
    metric: DecisionMetric
    status: CriterionStatus
    reason: CriterionReason | None
    estimate: float | None
    low: float | None = strawberry.field(description="Null: unbounded or not measured.")
    high: float | None = strawberry.field(description="Null: unbounded or not measured.")
    threshold: float
    corrected: bool = strawberry.field(description="Quality corrected with human labels.")
    sentence: str

    @classmethod
    def from_document(cls, doc: dict[str, Any]) -> ShipCriterion:
        reason = doc.get("reason")
        return cls(
            baseline_cohort_index=int(doc["baselineCohortIndex"]),
            kind=_CriterionKind(doc["kind"]),
            metric=_DecisionMetric(doc["metric"]),
            status=_CriterionStatus(doc["status"]),
            reason=_CriterionReason(reason) if reason else None,
            estimate=doc.get("estimate"),
            low=doc.get("low"),
            high=doc.get("high"),
            threshold=float(doc["threshold"]),
            corrected=bool(doc.get("corrected")),
            sentence=str(doc["sentence"]),
        )


@strawberry.type(description="Should the candidate ship, under the registered policy?")
class ShipDecision:
    outcome: DecisionOutcome
    reason: DecisionReason | None
    sentence: str
    cases_needed: int | None = strawberry.field(
        description="MORE_DATA: usable cases that would decide quality with 80% power."
    )
    usable_cases: int
    level: float | None = strawberry.field(
        description="The two-sided level of the criteria's intervals (1 − 2α)."
    )
    criteria: list[ShipCriterion]

    @classmethod
    def from_document(cls, doc: dict[str, Any] | None) -> ShipDecision | None:
        if not doc:
            return None
        reason = doc.get("reason")
        return cls(
            outcome=_DecisionOutcome(doc["outcome"]),
            reason=_DecisionReason(reason) if reason else None,
            sentence=str(doc["sentence"]),
            cases_needed=doc.get("casesNeeded"),
            usable_cases=int(doc.get("usableCases") or 0),
            level=doc.get("level"),
            criteria=[ShipCriterion.from_document(c) for c in doc.get("criteria", [])],
        )
