"""The ship policy as a comparison's option (docs/decision.md; docs/decision.md): the input, its
checking, the document a comparison freezes at creation, and the engine's policy from it.

A comparison without `shipPolicy` takes the workspace's `defaultShipPolicy`, or the built-in
defaults. The stored document is camelCase, as GraphQL shows it, with `registeredAt`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Final

from server.errors import ValidationFailed
from stats.decision import policy as engine

FIELD: Final = "shipPolicy"
DEFAULT_MIN_LABELS: Final = 30
DEFAULT_MIN_KAPPA: Final = 0.6


@dataclass(frozen=True, slots=True)
class GuardrailSpec:
    """One guardrail as asked for: a percent for a ratio metric, points for
    FAILED_OR_MISSING (exactly one of the two)."""

    metric: str
    max_increase_percent: float | None = None
    max_increase_points: float | None = None


@dataclass(frozen=True, slots=True)
class JudgeSpec:
    """When a judge may decide quality (docs/labels.md): enough labels, and κ's low end."""

    min_labels: int = DEFAULT_MIN_LABELS
    min_kappa: float = DEFAULT_MIN_KAPPA


@dataclass(frozen=True, slots=True)
class ShipPolicySpec:
    """`shipPolicy` of a comparison's input; defaults are docs/decision.md's."""

    quality_margin_points: float = engine.DEFAULT_MARGIN_POINTS
    alpha: float = engine.DEFAULT_ALPHA
    guardrails: tuple[GuardrailSpec, ...] = (
        GuardrailSpec(
            engine.FAILED_OR_MISSING, max_increase_points=engine.DEFAULT_FAILED_OR_MISSING_POINTS
        ),
    )
    require_gain: str = engine.NONE
    judge: JudgeSpec = field(default_factory=JudgeSpec)


def check(spec: ShipPolicySpec, *, where: str = FIELD) -> None:
    """VALIDATION_FAILED naming the first bad field (e.g. `shipPolicy.guardrails[1].metric`)."""
    for index, guardrail in enumerate(spec.guardrails[: engine.MAX_GUARDRAILS + 1]):
        _check_unit(guardrail, f"{where}.guardrails[{index}]")
    problem = engine.validate(to_engine(spec))
    if problem is not None:
        raise ValidationFailed(
            f"`{where}.{problem.field}` {problem.message}", field=f"{where}.{problem.field}"
        )
    if spec.judge.min_labels < 1 or spec.judge.min_labels > 100_000:
        raise ValidationFailed(
            f"`{where}.judge.minLabels` must be 1 to 100,000", field=f"{where}.judge.minLabels"
        )
    if not -1.0 <= spec.judge.min_kappa <= 1.0:
        raise ValidationFailed(
            f"`{where}.judge.minKappa` must lie in [-1, 1]", field=f"{where}.judge.minKappa"
        )


def _check_unit(guardrail: GuardrailSpec, where: str) -> None:
    percent, points = guardrail.max_increase_percent, guardrail.max_increase_points
    if guardrail.metric not in engine.GUARDRAIL_METRICS:
        raise ValidationFailed(
            f"`{where}.metric` must be one of {', '.join(engine.GUARDRAIL_METRICS)}",
            field=f"{where}.metric",
        )
    if guardrail.metric == engine.FAILED_OR_MISSING:
        if percent is not None or points is None:
            raise ValidationFailed(
                f"`{where}`: FAILED_OR_MISSING takes `maxIncreasePoints` (a difference of "
                "shares, in points), not a percent",
                field=f"{where}.maxIncreasePercent"
                if percent is not None
                else f"{where}.maxIncreasePoints",
            )
    elif points is not None or percent is None:
        raise ValidationFailed(
            f"`{where}`: {guardrail.metric} takes `maxIncreasePercent` (a ratio), not points",
            field=f"{where}.maxIncreasePoints"
            if points is not None
            else f"{where}.maxIncreasePercent",
        )


def to_engine(spec: ShipPolicySpec) -> engine.ShipPolicy:
    """The policy `stats.decision` decides by."""
    return engine.ShipPolicy(
        quality_margin_points=float(spec.quality_margin_points),
        alpha=float(spec.alpha),
        guardrails=tuple(
            engine.Guardrail(
                g.metric,
                float(
                    g.max_increase_percent
                    if g.max_increase_percent is not None
                    else g.max_increase_points
                    if g.max_increase_points is not None
                    else 0.0
                ),
            )
            for g in spec.guardrails
        ),
        require_gain=spec.require_gain,
    )


def document(spec: ShipPolicySpec, registered_at: datetime | None = None) -> dict[str, Any]:
    """The stored policy (camelCase); `registeredAt` when it is a comparison's."""
    doc: dict[str, Any] = {
        "qualityMarginPoints": float(spec.quality_margin_points),
        "alpha": float(spec.alpha),
        "guardrails": [_guardrail_document(g) for g in spec.guardrails],
        "requireGain": spec.require_gain,
        "judge": {"minLabels": spec.judge.min_labels, "minKappa": float(spec.judge.min_kappa)},
    }
    if registered_at is not None:
        doc["registeredAt"] = registered_at.isoformat()
    return doc


def _guardrail_document(guardrail: GuardrailSpec) -> dict[str, Any]:
    out: dict[str, Any] = {"metric": guardrail.metric}
    if guardrail.max_increase_percent is not None:
        out["maxIncreasePercent"] = float(guardrail.max_increase_percent)
    else:
        out["maxIncreasePoints"] = float(guardrail.max_increase_points or 0.0)
    return out


def from_document(doc: dict[str, Any] | None) -> ShipPolicySpec:
    """A stored policy back as a spec; None gives the built-in defaults."""
    if not doc:
        return ShipPolicySpec()
    judge = doc.get("judge") or {}
    return ShipPolicySpec(
        quality_margin_points=float(doc["qualityMarginPoints"]),
        alpha=float(doc["alpha"]),
        guardrails=tuple(
            GuardrailSpec(
                str(g["metric"]),
                max_increase_percent=g.get("maxIncreasePercent"),
                max_increase_points=g.get("maxIncreasePoints"),
            )
            for g in doc.get("guardrails", [])
        ),
        require_gain=str(doc.get("requireGain", engine.NONE)),
        judge=JudgeSpec(
            min_labels=int(judge.get("minLabels", DEFAULT_MIN_LABELS)),
            min_kappa=float(judge.get("minKappa", DEFAULT_MIN_KAPPA)),
        ),
    )


def frozen(comparison_policy: dict[str, Any] | None, created_at: datetime) -> dict[str, Any]:
    """A comparison's policy document; one created before policies existed decides by the
    defaults, registered at its creation."""
    if comparison_policy:
        return comparison_policy
    return document(ShipPolicySpec(), registered_at=created_at)


def copied(
    source_policy: dict[str, Any] | None, source_created_at: datetime, now: datetime
) -> dict[str, Any]:
    """A rerun's policy: the source's, registered again now (before the rerun's first call)."""
    return {**frozen(source_policy, source_created_at), "registeredAt": now.isoformat()}
