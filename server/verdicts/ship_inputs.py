"""What the ship decision (`server/decisions/comparison.py`) reads of a finalized comparison,
from the same count matrices and seed as its scorecard; and the decision taken again when a
human label changes what its judge is worth (docs/decision.md; docs/labels.md).

Labels come after finalization (only a finalized comparison's trials are labelled), so a
label on a comparison with a judge check decides again, in the label's transaction, from
the same inputs and seed as finalization; the stored document is replaced.
"""

from __future__ import annotations

import asyncio
from typing import Any

import numpy as np
from sqlalchemy.ext.asyncio import AsyncSession

import stats
from server.comparisons import service as comparison_service
from server.comparisons.look_state import LookState
from server.comparisons.models import Comparison
from server.db import utcnow
from server.decisions import comparison as comparison_decision
from server.decisions import judge_gate
from server.decisions import policy as ship_policy_option
from server.labels import evidence as label_evidence
from server.labels import service as labels
from server.labels.judge_checks import judge_checks
from server.verdicts import inputs, tensors
from server.verdicts.inputs import FinalizeInput
from server.verdicts.models import ComparisonVerdict, VerdictState
from server.verdicts.scorecard import seed_of
from server.verdicts.tensors import Tensors
from server.workspaces.roles import Actor
from stats.decision import CohortMeasures, QualityBounds


async def label_trial(
    *,
    session: AsyncSession,
    actor: Actor,
    ref: labels.TrialRef,
    passed: bool,
    note: str | None,
) -> labels.Labelled:
    """`labelTrial`: the label, then the comparison's decision again (runs have none)."""
    done = await labels.label_trial(session=session, actor=actor, ref=ref, passed=passed, note=note)
    if ref.comparison_id is not None:
        comparison = await comparison_service.get(
            session=session, workspace_id=actor.workspace_id, comparison_id=ref.comparison_id
        )
        await redecide(session=session, comparison=comparison)
    return done


async def redecide(*, session: AsyncSession, comparison: Comparison) -> None:
    """Replace a finalized comparison's decision with one that weighs its labels; nothing
    for a comparison without a judge check."""
    if not judge_checks(comparison.checks):
        return
    verdict = await session.get(ComparisonVerdict, comparison.id, with_for_update=True)
    if verdict is None or verdict.state != VerdictState.FINALIZED or not verdict.scorecard:
        return
    data = await inputs.load(session, comparison.id)
    if data is None:
        return
    spec = ship_policy_option.from_document(data.ship_policy)
    evidence = await label_evidence.judge_evidence(
        session=session,
        comparison=comparison,
        min_labels=spec.judge.min_labels,
        min_kappa=spec.judge.min_kappa,
    )
    accumulator = tensors.Accumulator(data)
    async for _, trials in inputs.trial_chunks(session, data):
        accumulator.add(trials)
    loop = asyncio.get_running_loop()
    document = await loop.run_in_executor(None, decide, data, accumulator.result(), evidence)
    verdict.scorecard = {**verdict.scorecard, "decision": document}
    verdict.updated_at = utcnow()


def decide(
    data: FinalizeInput, t: Tensors, evidence: judge_gate.JudgeEvidence | None = None
) -> dict[str, Any]:
    """The decision document of a DONE comparison under its frozen policy. Without
    `evidence` (finalization: no label yet) the judge checks are as yet unlabelled."""
    if evidence is None:
        spec = ship_policy_option.from_document(data.ship_policy)
        evidence = judge_gate.unlabelled(
            [key for _, key in judge_checks(data.checks)],
            min_labels=spec.judge.min_labels,
            min_kappa=spec.judge.min_kappa,
        )
    return comparison_decision.decide(facts(data, t), evidence)


def facts(data: FinalizeInput, t: Tensors) -> comparison_decision.ComparisonFacts:
    """The comparison as the decision reads it."""
    cohorts = measures(t)
    return comparison_decision.ComparisonFacts(
        cohorts=cohorts,
        policy=data.ship_policy,
        seed=seed_of(data.comparison_id),
        labels={c.index: c.label for c in data.cohorts},
        sequence=_sequence(data, len(cohorts) - 1),
    )


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
                cost=stats.case_means(t.cost_micros[c][ran], rows),
                output_tokens=stats.case_means(t.output_tokens[c][ran], done),
                latency=t.trial_latency[mine],
                latency_case=position[t.trial_case[mine]],
            )
        )
    return out


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
