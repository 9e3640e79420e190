"""`comparison(id)` of a FINALIZED comparison: its row's fields, its verdict, and the
scorecard and case pages, which never change.

Finalization writes the case rows and the scorecard document in the transaction that makes
the verdict FINALIZED, and nothing rewrites them afterwards (a FINALIZED comparison is
never finalized again nor erased; its trials were written while it ran). What can still
change is on two rows: the comparison's (status, counters, label, …) and the verdict's
(the sign-off's decision; every write of the row moves `updated_at`). The stamp holds
every column of those rows that a field of `SHAPE` shows, plus the scorecard's age in
days (`staleness` is worded from it).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Final

from sqlalchemy import bindparam, select
from sqlalchemy.ext.asyncio import AsyncConnection

from server.api.http.cached_reads.shape import WHOLE, Rule, Shape, Stamp
from server.comparisons.models import Comparison
from server.db import utcnow
from server.verdicts.models import ComparisonVerdict, VerdictState

ROW_FIELDS: Final[Shape] = dict.fromkeys(
    (
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
        "verdictState",
        "verdictErrorCode",
        "verdict",
    )
)
"""`Comparison` fields made from the comparison and verdict rows (columns below)."""

ROW_COLUMNS: Final = (
    Comparison.id,
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
    ComparisonVerdict.cases_erased_at,
    ComparisonVerdict.updated_at,
    ComparisonVerdict.finalized_at,
)

SHAPE: Final[Shape] = {**ROW_FIELDS, "scorecard": WHOLE, "cases": WHOLE}

# Built once: SQLAlchemy memoizes a statement's cache key, so each read skips rebuilding it.
_STAMP: Final = (
    select(*ROW_COLUMNS)
    .join(ComparisonVerdict, ComparisonVerdict.comparison_id == Comparison.id)
    .where(
        Comparison.id == bindparam("comparison_id"),
        Comparison.workspace_id == bindparam("workspace_id"),
    )
)


async def read_stamp(
    connection: AsyncConnection,
    *,
    workspace_id: str,
    arguments: dict[str, Any],
    max_page_size: int,  # noqa: ARG001 - every rule's stamp takes it
) -> Stamp | None:
    """The stamp of the workspace's FINALIZED comparison; None for anything else (another
    workspace's, unknown, or not finalized: such answers are never kept)."""
    comparison_id = arguments.get("id")
    if not isinstance(comparison_id, str):
        return None
    params = {"comparison_id": comparison_id, "workspace_id": workspace_id}
    row = (await connection.execute(_STAMP, params)).first()
    if row is None or row.state != VerdictState.FINALIZED:
        return None
    finalized_at: datetime | None = row[-1]
    age_days = (utcnow() - finalized_at).days if finalized_at is not None else None
    return (*row, age_days)


RULE: Final = Rule(
    root="comparison",
    arguments=frozenset({"id"}),
    required=frozenset({"id"}),
    shape=SHAPE,
    stamp=read_stamp,
)
