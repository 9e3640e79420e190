"""`shipwise gate`'s policy flags as a `ShipPolicyInput` (docs/decision.md): `--margin-points X`,
`--guardrail METRIC=+P%` (repeatable; `failed_or_missing=+P` in points), `--require-gain`.

Only the shape is checked here; the server checks the values (VALIDATION_FAILED).
"""

from __future__ import annotations

import re
from typing import Any, Final

_GUARDRAIL: Final = re.compile(r"^\s*([A-Za-z_0-9]+)\s*=\s*\+?\s*([0-9]*\.?[0-9]+)\s*(%?)\s*$")

DECISION: Final = """
query($c: ID!, $b: ID!, $policy: ShipPolicyInput) {
  runDiff(candidateRunId: $c, baselineRunId: $b, policy: $policy) {
    summary { baselinePassRate candidatePassRate passRateDelta pValue significant
              evaluators { name baselineMean candidateMean delta adjustedPValue significant }
              gradedPairCount pairedCount pairing passFlipsToFail passFlipsToPass }
    decision { outcome reason sentence casesNeeded
      criteria { baselineCohortIndex kind metric status reason estimate low high threshold
                 corrected sentence } }
  }
}
"""


class BadPolicy(ValueError):
    """A flag that does not read as a policy."""


def guardrail_input(text: str) -> dict[str, Any]:
    """`cost_per_case=+10%` → {metric: COST_PER_CASE, maxIncreasePercent: 10};
    `failed_or_missing=+5` → {metric: FAILED_OR_MISSING, maxIncreasePoints: 5}."""
    # Imported here: `stats` brings numpy and scipy, which every CLI call would load (and whose
    # thread pools would start before `shipwise worker` lowers its priority).
    from stats.decision.policy import FAILED_OR_MISSING, RATIO_METRICS

    match = _GUARDRAIL.match(text)
    if match is None:
        raise BadPolicy(f"--guardrail {text!r}: write METRIC=+P% (or failed_or_missing=+P)")
    metric, value, percent = match.group(1).upper(), float(match.group(2)), match.group(3)
    if metric == FAILED_OR_MISSING:
        if percent:
            raise BadPolicy(
                f"--guardrail {text!r}: failed_or_missing takes points (+P), not a percent"
            )
        return {"metric": metric, "maxIncreasePoints": value}
    if metric not in RATIO_METRICS:
        known = ", ".join(m.lower() for m in (*RATIO_METRICS, FAILED_OR_MISSING))
        raise BadPolicy(f"--guardrail {text!r}: the metric is one of {known}")
    if not percent:
        raise BadPolicy(f"--guardrail {text!r}: {metric.lower()} takes a percent (+P%)")
    return {"metric": metric, "maxIncreasePercent": value}


def policy_input(
    margin_points: float | None, guardrails: list[str], require_gain: str | None
) -> dict[str, Any]:
    """The ShipPolicyInput the flags describe; what they leave out keeps the defaults
    (docs/decision.md)."""
    from stats.decision.policy import GAINS  # as in guardrail_input

    policy: dict[str, Any] = {}
    if margin_points is not None:
        policy["qualityMarginPoints"] = margin_points
    if guardrails:
        policy["guardrails"] = [guardrail_input(text) for text in guardrails]
    if require_gain is not None:
        gain = require_gain.upper()
        if gain not in GAINS:
            raise BadPolicy(f"--require-gain {require_gain!r}: one of {', '.join(GAINS)}")
        policy["requireGain"] = gain
    return policy
