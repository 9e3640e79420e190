"""Ship policy defaults and validation (docs/decision.md): each bad field is named."""

from __future__ import annotations

import pytest

from stats.decision import policy as sp
from stats.decision.policy import Guardrail, ShipPolicy, validate


def test_defaults_are_the_contracts() -> None:
    policy = ShipPolicy()
    assert (policy.quality_margin_points, policy.alpha, policy.require_gain) == (2.0, 0.05, "NONE")
    assert policy.guardrails == (Guardrail(sp.FAILED_OR_MISSING, 5.0),)
    assert policy.margin == pytest.approx(0.02)
    assert policy.confidence == pytest.approx(0.9)
    assert validate(policy) is None


def test_thresholds_are_in_each_criterions_unit() -> None:
    assert Guardrail(sp.LATENCY_P95, 20).threshold == pytest.approx(1.2)
    assert Guardrail(sp.COST_PER_CASE, 0).threshold == 1.0
    assert Guardrail(sp.FAILED_OR_MISSING, 5).threshold == 5.0


@pytest.mark.parametrize(
    ("policy", "field"),
    [
        (ShipPolicy(quality_margin_points=-1), "qualityMarginPoints"),
        (ShipPolicy(quality_margin_points=float("nan")), "qualityMarginPoints"),
        (ShipPolicy(alpha=0.0), "alpha"),
        (ShipPolicy(alpha=0.5), "alpha"),
        (ShipPolicy(alpha=-0.1), "alpha"),
        (ShipPolicy(guardrails=(Guardrail(sp.COST_PER_CASE, 10),) * 9), "guardrails"),
        (ShipPolicy(guardrails=(Guardrail("SPEED", 10),)), "guardrails[0].metric"),
        (
            ShipPolicy(guardrails=(Guardrail(sp.LATENCY_P50, 5), Guardrail(sp.LATENCY_P95, -5))),
            "guardrails[1].maxIncreasePercent",
        ),
        (
            ShipPolicy(guardrails=(Guardrail(sp.FAILED_OR_MISSING, 101),)),
            "guardrails[0].maxIncreasePoints",
        ),
        (ShipPolicy(require_gain="SPEED"), "requireGain"),
    ],
)
def test_a_bad_field_is_named(policy: ShipPolicy, field: str) -> None:
    problem = validate(policy)
    assert problem is not None
    assert problem.field == field


def test_eight_guardrails_and_no_margin_are_allowed() -> None:
    policy = ShipPolicy(quality_margin_points=0, guardrails=(Guardrail(sp.OUTPUT_TOKENS, 0),) * 8)
    assert validate(policy) is None
