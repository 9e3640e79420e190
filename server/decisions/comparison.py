"""A finalized comparison's ship decision (docs/decision.md; docs/decision.md), from the same count
matrices and seed as its scorecard; every number from `stats.decision`.

Runs in the finalization executor beside the scorecard. The stored document is camelCase,
as GraphQL shows it: `{outcome reason sentence casesNeeded usableCases level criteria}`,
each criterion with its baseline's cohort index and its own sentence.
"""

from __future__ import annotations

from typing import Any

import numpy as np

import stats
from server.comparisons.look_state import LookState
from server.decisions import document as decision_document
from server.decisions import policy as ship_policy_option
from server.verdicts.inputs import FinalizeInput
from server.verdicts.scorecard import seed_of
from server.verdicts.tensors import Tensors
from stats.decision import CohortMeasures, QualityBounds


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


def decide(
    data: FinalizeInput,
    t: Tensors,
    *,
    corrected: list[QualityBounds | None] | None = None,
    judge_uncalibrated: bool = False,
) -> dict[str, Any]:
    """The decision document of a DONE comparison under its frozen policy.

    `corrected` (per baseline, rate units at 1 − 2α) and `judge_uncalibrated` are the hooks
    of human labels (docs/labels.md): a label-corrected Δ replaces the judge's, and an
    uncalibrated judge caps quality at UNCERTAIN. Finalization passes neither."""
    spec = ship_policy_option.from_document(data.ship_policy)
    policy = ship_policy_option.to_engine(spec)
    cohorts = measures(t)
    decision = stats.ship_decision(
        cohorts[0],
        cohorts[1:],
        policy,
        seed=seed_of(data.comparison_id),
        sequence=_sequence(data, len(cohorts) - 1),
        corrected=corrected,
        judge_uncalibrated=judge_uncalibrated,
    )
    labels = {c.index: c.label for c in data.cohorts}
    return decision_document.to_document(
        decision, policy=policy, labels=labels, candidate=labels.get(0, "?")
    )


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
