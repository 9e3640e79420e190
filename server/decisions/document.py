"""A decision's stored (and served) document: camelCase, as GraphQL shows it, with the
sentences (docs/decision.md)."""

from __future__ import annotations

from typing import Any, Final

import stats
from server.decisions import wording

NOT_RUN_TO_END: Final = "NOT_RUN_TO_END"
ENDED_UNDECIDED: Final = frozenset({"CANCELLED", "FAILED"})
"""The comparison statuses whose decision is at once NO_DECISION (`not_run_to_end`): the run
never reached its end, so it is never finalized."""


def to_document(
    decision: stats.Decision,
    *,
    policy: stats.ShipPolicy,
    labels: dict[int, str],
    candidate: str,
) -> dict[str, Any]:
    """The stored (and served) decision, sentences included."""
    level = wording.level_of(policy.alpha)
    criteria = []
    for c in decision.criteria:
        row = {
            "baselineCohortIndex": c.baseline + 1,
            "kind": c.kind,
            "metric": c.metric,
            "status": c.status,
            "reason": c.reason,
            "estimate": c.estimate,
            "low": c.low,
            "high": c.high,
            "threshold": c.threshold,
            "corrected": c.corrected,
        }
        label = labels.get(c.baseline + 1, f"cohort {c.baseline + 1}")
        row["sentence"] = wording.criterion_sentence(row, baseline=label, level=level)
        criteria.append(row)
    document: dict[str, Any] = {
        "outcome": decision.outcome,
        "reason": decision.reason,
        "casesNeeded": decision.cases_needed,
        "usableCases": decision.n,
        "level": 1.0 - 2.0 * policy.alpha,
        "criteria": criteria,
    }
    document["sentence"] = wording.decision_sentence(
        document, candidate=candidate, level=level, labels=labels
    )
    return document


def not_run_to_end(candidate: str, usable_cases: int = 0) -> dict[str, Any]:
    """The decision of a comparison that ended cancelled or failed (never finalized)."""
    document: dict[str, Any] = {
        "outcome": stats.decision.NO_DECISION,
        "reason": NOT_RUN_TO_END,
        "casesNeeded": None,
        "usableCases": usable_cases,
        "level": None,
        "criteria": [],
    }
    document["sentence"] = wording.decision_sentence(
        document, candidate=candidate, level="", labels={}
    )
    return document
