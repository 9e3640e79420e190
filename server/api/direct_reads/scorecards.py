"""The portal's scorecard of a comparison (`ComparisonScorecard`): the comparison with its
verdict row in one statement, the stored document read as the schema reads it
(`Scorecard.from_document`) and shown field by field as the portal selects it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from sqlalchemy import Select, String, bindparam, select

from server.api.direct_reads.documents import (
    DirectDocument,
    Reading,
    the_comparison_row,
    written_for,
)
from server.api.verdicts.types import Scorecard
from server.comparisons.models import Comparison
from server.verdicts.models import ComparisonVerdict, VerdictState

SCORECARD = """
query ComparisonScorecard($id: ID!) {
  comparison(id: $id) {
    id
    scorecard {
      usableCases casesNotRun
      metrics { name direction values { cohortIndex value } winners }
      overallWinner { cohortIndex reason }
      staleness { days note }
      confidence { cohortIndex passRate low high n adequacy mde }
      trials { cohortIndex k passHatK passAtK flips failedOrMissingTrials }
      failureAnalysis { improved regressed bothWrong agree }
      verdicts { ...VerdictChipFields }
    }
  }
}
fragment VerdictChipFields on BaselineVerdict { baselineCohortIndex outcome summary }
"""


def _statement() -> Select[Any]:
    """The workspace's comparison with its verdict row's state, document and time."""
    verdict = ComparisonVerdict
    columns = (Comparison.id, verdict.state, verdict.scorecard, verdict.finalized_at)
    stmt = cast("Select[Any]", select(*columns))
    return stmt.outerjoin(verdict, verdict.comparison_id == Comparison.id).where(
        Comparison.id == bindparam("comparison_id", type_=String),
        Comparison.workspace_id == bindparam("workspace_id", type_=String),
    )


_STATEMENT = _statement()


async def comparison_scorecard(reading: Reading, given: Mapping[str, Any]) -> dict[str, Any] | None:
    row = await the_comparison_row(reading, given, _STATEMENT)
    if row is None:
        return None  # the schema answers: a refusal, or NOT_FOUND
    comparison_id, state, document, finalized_at = tuple(row)
    card = None
    if state == VerdictState.FINALIZED and document is not None:  # as `scorecard_of` reads it
        if finalized_at is None:
            return None
        card = _shown(Scorecard.from_document(document, finalized_at))
    return {"comparison": {"id": comparison_id, "scorecard": card}}


def _shown(card: Scorecard) -> dict[str, Any]:
    """The portal's selection of a scorecard, each value as GraphQL's scalar shows it."""
    winner, staleness, analysis = card.overall_winner, card.staleness, card.failure_analysis
    return {
        "usableCases": card.usable_cases,
        "casesNotRun": card.cases_not_run,
        "metrics": [
            {
                "name": m.name,
                "direction": m.direction.name,
                "values": [
                    {"cohortIndex": v.cohort_index, "value": _float(v.value)} for v in m.values
                ],
                "winners": list(m.winners),
            }
            for m in card.metrics
        ],
        "overallWinner": {"cohortIndex": winner.cohort_index, "reason": winner.reason},
        "staleness": {"days": staleness.days, "note": staleness.note} if staleness else None,
        "confidence": [
            {
                "cohortIndex": c.cohort_index,
                "passRate": float(c.pass_rate),
                "low": float(c.low),
                "high": float(c.high),
                "n": c.n,
                "adequacy": c.adequacy.name,
                "mde": float(c.mde),
            }
            for c in card.confidence
        ],
        "trials": [
            {
                "cohortIndex": t.cohort_index,
                "k": t.k,
                "passHatK": float(t.pass_hat_k),
                "passAtK": float(t.pass_at_k),
                "flips": t.flips,
                "failedOrMissingTrials": t.failed_or_missing_trials,
            }
            for t in card.trials
        ],
        "failureAnalysis": {
            "improved": analysis.improved,
            "regressed": analysis.regressed,
            "bothWrong": analysis.both_wrong,
            "agree": analysis.agree,
        },
        "verdicts": [
            {
                "baselineCohortIndex": v.baseline_cohort_index,
                "outcome": v.outcome.name,
                "summary": v.summary,
            }
            for v in card.verdicts
        ],
    }


def _float(value: float | None) -> float | None:
    return None if value is None else float(value)


DOCUMENTS = (
    DirectDocument(
        "ComparisonScorecard", lambda r, g, _: comparison_scorecard(r, g), written_for(SCORECARD)
    ),
)
