"""What a finalized comparison shows, and the stamp that changes whenever any of it does.

Finalization writes the case rows and the scorecard document in the transaction that makes
the verdict FINALIZED, and nothing rewrites them afterwards (a FINALIZED comparison is
never finalized again nor erased; its trials were written while it ran). What can still
change is on two rows: the comparison's (its status, counters, label, …) and the verdict's
(the sign-off's decision, every write of which moves `updated_at`). The stamp holds every
column of those rows that a field in `COMPARISON_FIELDS` shows, plus the scorecard's age
in days (`staleness` is worded from it). `server.response_cache` serves a kept answer only
while the stamp is equal; a field left out of `COMPARISON_FIELDS` makes a document run as
usual.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Final

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from server.comparisons.models import Comparison
from server.db import utcnow
from server.verdicts.models import ComparisonVerdict, VerdictState

FROZEN_SUBTREES: Final = frozenset({"scorecard", "cases"})
"""Fields whose whole subtree is made from the frozen document and rows."""

COMPARISON_FIELDS: Final = frozenset(
    {
        # from the comparison row (every column below is in the stamp)
        "id",
        "label",
        "status",
        "stopReason",
        "errorCode",
        "split",
        "trialsPerCase",
        "caseCount",
        "checks",
        "budgetCapCents",
        "epsilonPoints",
        "targetEffectPoints",
        "spentCentsSoFar",
        "rerunOfId",
        "createdAt",
        "startedAt",
        "endedAt",
        # from the verdict row
        "verdictState",
        "verdictErrorCode",
        "verdict",
        *FROZEN_SUBTREES,
    }
)
"""The `Comparison` fields a cached answer may select."""

_STAMP_COLUMNS: Final = (
    Comparison.label,
    Comparison.status,
    Comparison.stop_reason,
    Comparison.error_code,
    Comparison.split,
    Comparison.trials_per_case,
    Comparison.case_count,
    Comparison.checks,
    Comparison.budget_cap_micros,
    Comparison.epsilon_points,
    Comparison.target_effect_points,
    Comparison.spent_micros,
    Comparison.rerun_of_id,
    Comparison.created_at,
    Comparison.started_at,
    Comparison.ended_at,
    Comparison.seq,
    Comparison.finalized_at,
    ComparisonVerdict.state,
    ComparisonVerdict.error_code,
    ComparisonVerdict.verdict,
    ComparisonVerdict.attempts,
    ComparisonVerdict.finalized_at,
    ComparisonVerdict.cases_erased_at,
    ComparisonVerdict.updated_at,
)

Stamp = tuple[Any, ...]


async def read_stamp(
    session: AsyncSession, *, workspace_id: str, comparison_id: str
) -> Stamp | None:
    """The stamp of the workspace's FINALIZED comparison; None for anything else (another
    workspace's, unknown, or not finalized: such answers are never kept)."""
    row = (
        await session.execute(
            select(*_STAMP_COLUMNS)
            .join(ComparisonVerdict, ComparisonVerdict.comparison_id == Comparison.id)
            .where(Comparison.id == comparison_id, Comparison.workspace_id == workspace_id)
        )
    ).first()
    if row is None or row.state != VerdictState.FINALIZED:
        return None
    finalized_at: datetime | None = row[-3]
    age_days = (utcnow() - finalized_at).days if finalized_at is not None else None
    return (*row, age_days)
