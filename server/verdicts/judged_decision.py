"""The ship decision taken again when a human label changes what its judge is worth
(docs/labels.md; docs/labels.md): the judge's calibration and the queue-corrected Δ.

Labels come after finalization (only a finalized comparison's trials are labelled), so a
label on a comparison with a judge check decides again, in the label's transaction, from
the same inputs and seed as finalization; the stored document is replaced.
"""

from __future__ import annotations

import asyncio
from typing import Any

import numpy as np
import numpy.typing as npt
from sqlalchemy.ext.asyncio import AsyncSession

from server.comparisons import service as comparison_service
from server.comparisons.models import Comparison
from server.db import utcnow
from server.decisions import policy as ship_policy_option
from server.labels import judge_gate
from server.labels import service as labels
from server.labels.judge_checks import judge_checks
from server.verdicts import inputs, ship_decision, tensors
from server.verdicts.inputs import FinalizeInput
from server.verdicts.models import ComparisonVerdict, VerdictState
from server.verdicts.tensors import Tensors
from server.workspaces.roles import Actor
from stats.decision import CohortMeasures, QualityBounds

FloatArray = npt.NDArray[np.float64]


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
    evidence = await judge_gate.judge_evidence(
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
    """The decision document under what labels say of the judge: an uncalibrated judge caps
    quality at UNCERTAIN, and queue labels correct Δ. Without `evidence` (finalization: no
    label yet) the judge checks are as yet unlabelled."""
    spec = ship_policy_option.from_document(data.ship_policy)
    if evidence is None:
        evidence = judge_gate.unlabelled(
            data.checks, min_labels=spec.judge.min_labels, min_kappa=spec.judge.min_kappa
        )
    confidence = ship_policy_option.to_engine(spec).confidence
    document = ship_decision.decide(
        data,
        t,
        corrected=_corrected(evidence, ship_decision.measures(t), confidence),
        judge_uncalibrated=bool(evidence.uncalibrated),
    )
    used = any(c.get("corrected") for c in document["criteria"])
    words = judge_gate.judge_sentence(evidence, corrected=used)
    if words:
        document["sentence"] = f"{document['sentence']} {words}"
    return document


def _corrected(
    evidence: judge_gate.JudgeEvidence, cohorts: list[CohortMeasures], confidence: float
) -> list[QualityBounds | None] | None:
    """Each baseline's Δ corrected with the queue's labels (docs/labels.md), in rate units."""
    if not evidence.judged or not evidence.rectifiers:
        return None
    usable = np.all([c.trials.completed > 0 for c in cohorts], axis=0)
    candidate = _fractions(cohorts[0], usable)
    found: list[QualityBounds | None] = []
    for index, baseline in enumerate(cohorts[1:], start=1):
        interval = evidence.corrected(
            candidate - _fractions(baseline, usable), index, confidence=confidence
        )
        found.append(
            None
            if interval is None
            else QualityBounds(
                low=interval.low, high=interval.high, estimate=interval.estimate, corrected=True
            )
        )
    return found


def _fractions(cohort: CohortMeasures, usable: npt.NDArray[np.bool_]) -> FloatArray:
    trials = cohort.trials
    return np.asarray(trials.passed[usable] / np.maximum(trials.completed[usable], 1), float)
