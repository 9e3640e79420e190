"""`comparison(id)` of a FINALIZED comparison: its page's fields, its verdict, and the
scorecard and case pages, which never change.

Finalization writes the case rows and the scorecard document in the transaction that makes
the verdict FINALIZED, and nothing rewrites them afterwards (a FINALIZED comparison is
never finalized again nor erased; its trials were written while it ran). What can still
change is the page (`server.page_reads.comparison_page`: the comparison's row, its verdict
row's sign-off, its experiment's name, its reports, …), a few columns of the comparison and
verdict rows besides (every write of the verdict row moves `updated_at`), and the human
labels on its trials. The stamp is the page's read with those columns in the same
statement: the page's value itself, the columns, the labels' count and latest time, plus
the scorecard's age in days (`staleness` is worded from it). So the fields it may answer
are the page's (`shape_of` its value's class) and those columns' fields: a new field of the
page's read is a field the cache covers, with nothing to add here.
"""

from __future__ import annotations

from datetime import datetime
from functools import cache
from typing import Any, Final

from sqlalchemy import Select, func, select

from server.api.http.cached_reads.shape import WHOLE, Rule, Shape, Stamp, shape_of
from server.comparisons.models import Comparison
from server.db import utcnow
from server.labels.models import TrialLabel
from server.page_reads import comparison_page
from server.page_reads.comparison_page import ComparisonPageRead, Fetch
from server.verdicts.models import ComparisonVerdict, VerdictState

ROW_FIELDS: Final[Shape] = dict.fromkeys(
    ("checks", "epsilonPoints", "targetEffectPoints", "rerunOfId")
)
"""`Comparison` fields beside its page's, made from the columns of `_ROW` below."""

_ROW: Final = (
    Comparison.checks,
    Comparison.epsilon_points,
    Comparison.target_effect_points,
    Comparison.rerun_of_id,
    Comparison.finalized_at,
    ComparisonVerdict.attempts,
    ComparisonVerdict.cases_erased_at,
    ComparisonVerdict.updated_at,
)

SHAPE: Final[Shape] = {
    **shape_of(ComparisonPageRead),
    **ROW_FIELDS,
    "scorecard": WHOLE,
    "cases": WHOLE,
}

# Human labels are the one thing under `cases` that changes after finalization (each
# trial's `labels`): their count and latest time move whenever one is given or replaced.
_LABELS: Final = (
    select(func.count())
    .where(TrialLabel.target_id == Comparison.id)
    .scalar_subquery()
    .label("label_count"),
    select(func.max(TrialLabel.created_at))
    .where(TrialLabel.target_id == Comparison.id)
    .scalar_subquery()
    .label("label_latest"),
)


@cache
def _stamp(dialect: str) -> Select[Any]:
    """The page's statement with `_ROW` and the labels, built once per dialect."""
    return comparison_page.statement(dialect).add_columns(*_ROW, *_LABELS)


async def read_stamp(
    fetch: Fetch,
    *,
    dialect: str,
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
    rows = await fetch(_stamp(dialect), params)
    if not rows:
        return None
    found = rows[0]
    page = comparison_page.page_of(found)
    if page.verdict_state != VerdictState.FINALIZED:
        return None
    finalized_at: datetime | None = page.verdict_finalized_at
    age_days = (utcnow() - finalized_at).days if finalized_at is not None else None
    extra = tuple(found[name] for name in _EXTRA_NAMES)
    return (page, *extra, age_days)


_EXTRA_NAMES: Final = (*(column.key for column in _ROW), "label_count", "label_latest")

RULE: Final = Rule(
    root="comparison",
    arguments=frozenset({"id"}),
    required=frozenset({"id"}),
    shape=SHAPE,
    stamp=read_stamp,
)
