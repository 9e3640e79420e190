"""A report version's frozen document: built once from stored values, serialized once.

`serialize` is the only place a document becomes text (sorted keys, compact separators,
UTF-8); the text is stored and served as is, never parsed and dumped again.
"""

from __future__ import annotations

import hashlib
import json
from datetime import datetime
from typing import Any, Final

from sqlalchemy.ext.asyncio import AsyncSession

from server.comparisons.models import Comparison
from server.decisions import policy as ship_policy
from server.labels import agreement as label_agreement
from server.reports import facts, followups, verdict_rows
from server.verdicts import wording

FORMAT: Final = 1
LISTED_PER_BASELINE: Final = 1000
"""Worse cases listed per baseline; the rest are counted."""


def serialize(document: dict[str, Any]) -> str:
    return json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def staleness(finalized_at: datetime | None, now: datetime) -> dict[str, Any] | None:
    """docs/domain.md: a note once the verdict is 7 days old."""
    if finalized_at is None:
        return None
    days = (now - finalized_at).days
    if days < wording.STALE_AFTER_DAYS:
        return None
    return {"days": days, "note": wording.staleness_note(days)}


def _fraction(cohorts: list[dict[str, Any]], index: int) -> float | None:
    for cohort in cohorts:
        if cohort.get("cohortIndex") == index:
            value = cohort.get("passFraction")
            return None if value is None else float(value)
    return None


async def _baseline(
    session: AsyncSession,
    comparison_id: str,
    verdict: dict[str, Any],
    tallies: dict[int, followups.Tally],
) -> dict[str, Any]:
    baseline = int(verdict["baselineCohortIndex"])
    rows = await followups.listed(session, comparison_id, baseline, LISTED_PER_BASELINE)
    fractions = await verdict_rows.case_cohorts(
        session=session, comparison_id=comparison_id, ordinals=[r.case_ordinal for r in rows]
    )
    tally = tallies.get(baseline, followups.Tally(0, 0))
    worse = int(verdict["worseCount"])
    return {
        "baselineCohortIndex": baseline,
        "label": verdict.get("baselineLabel"),
        "worseCount": worse,
        "betterCount": int(verdict["betterCount"]),
        "sameCount": int(verdict["sameCount"]),
        "openFollowUps": tally.open,
        "resolvedFollowUps": tally.resolved,
        "notListed": max(0, worse - len(rows)),
        "worseCases": [
            {
                "followUpId": row.id,
                "caseOrdinal": row.case_ordinal,
                "datasetItemId": row.dataset_item_id,
                "candidatePassFraction": _fraction(fractions.get(row.case_ordinal, []), 0),
                "baselinePassFraction": _fraction(fractions.get(row.case_ordinal, []), baseline),
                "followUp": {
                    "state": row.state.value,
                    "note": row.note,
                    "resolvedByMemberId": row.resolved_by_member_id,
                    "resolvedAt": row.resolved_at.isoformat() if row.resolved_at else None,
                },
            }
            for row in rows
        ],
    }


async def build(
    session: AsyncSession,
    *,
    report_id: str,
    version: int,
    comparison: Comparison,
    scorecard: dict[str, Any],
    generated_by: dict[str, Any],
    now: datetime,
) -> dict[str, Any]:
    """Everything docs/domain.md lists: summary, scorecard, failure analysis, follow-ups with
    their states and the facts line; and the ship policy and decision (docs/decision.md), frozen."""
    cohort_rows = await facts.cohorts(session, comparison)
    tallies = await followups.tally(session, comparison.id)
    baselines = [
        await _baseline(session, comparison.id, verdict, tallies)
        for verdict in scorecard.get("verdicts", [])
    ]
    open_total = sum(t.open for t in tallies.values())
    resolved_total = sum(t.resolved for t in tallies.values())
    return {
        "format": FORMAT,
        "reportId": report_id,
        "version": version,
        "generatedAt": now.isoformat(),
        "generatedBy": generated_by,
        "comparison": {
            "id": comparison.id,
            "label": comparison.label,
            "status": comparison.status.value,
            "stopReason": comparison.stop_reason.value if comparison.stop_reason else None,
            "epsilonPoints": comparison.epsilon_points,
            "targetEffectPoints": comparison.target_effect_points,
            "startedByMemberId": comparison.started_by_member_id,
        },
        "cohorts": cohort_rows,
        "shipPolicy": ship_policy.frozen(comparison.ship_policy, comparison.created_at),
        "decision": scorecard.get("decision"),
        "summary": {
            "chips": [
                {
                    "baselineCohortIndex": v["baselineCohortIndex"],
                    "outcome": v["outcome"],
                    "reason": v["reason"],
                    "passRateDeltaPoints": v.get("passRateDeltaPoints"),
                    "outsideNoise": v.get("outsideNoise"),
                    "text": wording.chip(v),
                }
                for v in scorecard.get("verdicts", [])
            ],
            "overallWinner": scorecard.get("overallWinner"),
            "usableCases": scorecard.get("usableCases"),
            **({"stopping": scorecard["stopping"]} if scorecard.get("stopping") else {}),
        },
        "scorecard": scorecard,
        "failureAnalysis": {
            "counts": scorecard.get("failureAnalysis"),
            "baselines": baselines,
        },
        "followUps": {"total": open_total + resolved_total, "open": open_total,
                      "resolved": resolved_total},
        "facts": await facts.build(session, comparison, scorecard, cohort_rows),
        "staleness": staleness(comparison.finalized_at, now),
        **await _judges(session, comparison),
    }  # fmt: skip


async def _judges(session: AsyncSession, comparison: Comparison) -> dict[str, Any]:
    """`judges`: each judge check's agreement with human labels when the report was made
    (docs/labels.md); absent without a judge check."""
    found = await label_agreement.comparison_agreement(session=session, comparison=comparison)
    return {"judges": [label_agreement.agreement_document(a) for a in found]} if found else {}
