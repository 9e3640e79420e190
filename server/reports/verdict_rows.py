"""What reports read and write of a finalized comparison's verdict rows: a baseline's
worse-case keys (follow-ups), each named case's cohorts (the report document), and the
sign-off's verdict on the comparison.

The rows are verdicts' (`server/verdicts/models.py`); reports own sign-off, so the one write
to the verdict row outside finalization is here.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from server.db import utcnow
from server.verdicts.models import ComparisonVerdict, SignOffVerdict, VerdictCase


async def worse_case_keys(
    *, session: AsyncSession, comparison_id: str, baseline_cohort_index: int
) -> list[tuple[int, str]]:
    """(ordinal, datasetItemId) of a baseline's worse cases, in case order (ids are scoped)."""
    bit = 1 << baseline_cohort_index
    rows = await session.execute(
        select(VerdictCase.ordinal, VerdictCase.dataset_item_id)
        .where(VerdictCase.comparison_id == comparison_id, VerdictCase.worse_mask.op("&")(bit) != 0)
        .order_by(VerdictCase.ordinal)
    )
    return [(int(ordinal), str(item)) for ordinal, item in rows]


async def set_verdict(
    *, session: AsyncSession, comparison_id: str, verdict: SignOffVerdict
) -> None:
    """Write the sign-off's decision to a FINALIZED comparison (in the caller's transaction)."""
    row = await session.get(ComparisonVerdict, comparison_id, populate_existing=True)
    if row is None:
        raise LookupError(f"no verdict row for {comparison_id}")
    row.verdict = verdict
    row.updated_at = utcnow()


async def case_cohorts(
    *, session: AsyncSession, comparison_id: str, ordinals: list[int]
) -> dict[int, list[dict[str, Any]]]:
    """Each named case's per-cohort summary (passFraction, counts), by ordinal."""
    if not ordinals:
        return {}
    rows = await session.execute(
        select(VerdictCase.ordinal, VerdictCase.cohorts).where(
            VerdictCase.comparison_id == comparison_id, VerdictCase.ordinal.in_(ordinals)
        )
    )
    return {int(ordinal): list(cohorts) for ordinal, cohorts in rows}
