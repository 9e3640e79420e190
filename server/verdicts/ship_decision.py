"""A finalized comparison's ship decision (SPEC §9; docs/decision.md), from the same count
matrices and seed as its scorecard; every number from `stats.decision`.

Runs in the finalization executor beside the scorecard. The stored document is camelCase,
as GraphQL shows it: `{outcome reason sentence casesNeeded usableCases level criteria}`,
each criterion with its baseline's cohort index and its own sentence.
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np

import stats
from server.comparisons import ship_policy as ship_policy_option
from server.comparisons.look_state import LookState
from server.verdicts import decision_wording
from server.verdicts.inputs import FinalizeInput
from server.verdicts.scorecard import seed_of
from server.verdicts.tensors import Tensors
from stats.decision import CohortMeasures, QualityBounds

NOT_RUN_TO_END: Final = "NOT_RUN_TO_END"


def measures(t: Tensors) -> list[CohortMeasures]:
    """Each cohort's figures over the cases that ran (the scorecard's per-case values)."""
    ran = t.ran
    position = np.cumsum(ran) - 1
    in_ran = ran[t.trial_case]
    out = []
    for c in range(t.cohorts):
        rows = t.rows[c][ran]
        done = t.completed[c][ran]
        mine = in_ran & (t.trial_cohort == c)
        out.append(
            CohortMeasures(
                stats.CohortTrials(t.passed[c][ran], done, t.scheduled),
                cost=_per_case(t.cost_micros[c][ran], rows),
                output_tokens=_per_case(t.output_tokens[c][ran], done),
                latency=t.trial_latency[mine],
                latency_case=position[t.trial_case[mine]],
            )
        )
    return out


def _per_case(sums: np.ndarray[Any, Any], counts: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    return stats.case_means(sums, counts)


def decide(data: FinalizeInput, t: Tensors) -> dict[str, Any]:
    """The decision document of a DONE comparison under its frozen policy."""
    spec = ship_policy_option.from_document(data.ship_policy)
    policy = ship_policy_option.to_engine(spec)
    cohorts = measures(t)
    decision = stats.ship_decision(
        cohorts[0],
        cohorts[1:],
        policy,
        seed=seed_of(data.comparison_id),
        sequence=_sequence(data, len(cohorts) - 1),
    )
    labels = {c.index: c.label for c in data.cohorts}
    return to_document(decision, policy=policy, labels=labels, candidate=labels.get(0, "?"))


def _sequence(data: FinalizeInput, baselines: int) -> list[QualityBounds | None] | None:
    """Each baseline's confidence sequence at the stop, when the run decided early."""
    sequential = data.sequential
    if sequential is None or not sequential["stopping"].get("decidedEarly"):
        return None
    state = LookState.from_json(sequential["looks"])
    by_index = {b.baseline_cohort_index: b for b in state.baselines}
    found: list[QualityBounds | None] = []
    for index in range(1, baselines + 1):
        look = by_index.get(index)
        found.append(None if look is None else QualityBounds(low=look.low, high=look.high))
    return found


def to_document(
    decision: stats.Decision,
    *,
    policy: stats.ShipPolicy,
    labels: dict[int, str],
    candidate: str,
) -> dict[str, Any]:
    """The stored (and served) decision, sentences included."""
    level = decision_wording.level_of(policy.alpha)
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
        row["sentence"] = decision_wording.criterion_sentence(row, baseline=label, level=level)
        criteria.append(row)
    document: dict[str, Any] = {
        "outcome": decision.outcome,
        "reason": decision.reason,
        "casesNeeded": decision.cases_needed,
        "usableCases": decision.n,
        "level": 1.0 - 2.0 * policy.alpha,
        "criteria": criteria,
    }
    document["sentence"] = decision_wording.decision_sentence(
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
    document["sentence"] = decision_wording.decision_sentence(
        document, candidate=candidate, level="", labels={}
    )
    return document
