"""What a ship decision lets through (docs/decision.md): only SHIP passes the command line's
gate (`shipwise comparison gate`, `shipwise gate`, their CI reports) and lets a reviewer
APPROVE a report without an override; any other outcome, or none, holds.

The callers keep their own surface (an exit code, a JUnit case, a sign-off's Conflict); the
rule is here once.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from server.errors import Conflict

SHIP: Final = "SHIP"
SHOWN: Final = ("outcome", "reason", "sentence", "casesNeeded")
"""What a sign-off's `extensions` and audit event show of the decision."""


def passes(decision: Mapping[str, Any] | None) -> bool:
    """Whether the decision lets the candidate through: its outcome is SHIP."""
    return decision is not None and decision.get("outcome") == SHIP


def shown(stored: Mapping[str, Any] | None) -> dict[str, Any]:
    """The decision as a sign-off shows it: {outcome, reason, sentence, casesNeeded}, each
    None when the comparison has none."""
    return {key: (stored or {}).get(key) for key in SHOWN}


def approval_overrides(decision: dict[str, Any], *, override: bool) -> dict[str, Any] | None:
    """The decision an APPROVE overrides (None when it is SHIP); without `override`, an
    APPROVE of any other decision is a Conflict (DECISION_NOT_SHIP) naming it."""
    if passes(decision):
        return None
    if not override:
        raise Conflict(
            f"the decision is {decision.get('outcome') or 'missing'}, not SHIP: hold, or "
            "approve with `override: true` and a justification",
            reason="DECISION_NOT_SHIP",
            decision=decision,
        )
    return decision
