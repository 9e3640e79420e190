"""The portal's page of a finalized comparison's cases (`ComparisonCases`): the comparison,
its cohort count, one page of case rows with each case's trials aggregated, and the
total, in one statement; answered as `server.api.verdicts.resolvers.cases` answers it."""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any, cast

from sqlalchemy import Select, String, bindparam, func, select, true
from sqlalchemy.dialects.postgresql import aggregate_order_by

from server.api.direct_reads.documents import (
    DirectDocument,
    Reading,
    a_name_of,
    a_string,
    an_int,
    or_none,
    variables_of,
    written_for,
)
from server.comparisons.models import Comparison, ComparisonCohort, Trial
from server.errors import ValidationFailed
from server.pagination import check_page_size, cursor_key, encode_cursor
from server.verdicts.cases import case_condition
from server.verdicts.models import CaseClass, VerdictCase
from stats.movement import CaseFilter

CASES = """
query ComparisonCases(
  $id: ID!, $filter: CaseFilter!, $baseline: Int, $first: Int!, $after: String
) {
  comparison(id: $id) {
    id
    cases(filter: $filter, baselineCohortIndex: $baseline, first: $first, after: $after) {
      totalCount
      pageInfo { hasNextPage endCursor }
      edges {
        cursor
        node {
          ordinal datasetItemId classification
          cohorts {
            cohortIndex passed passFraction score trials { trialIndex passed output errorCode }
          }
        }
      }
    }
  }
}
"""

_TRIALS = (
    select(
        func.json_agg(
            aggregate_order_by(
                func.json_build_array(
                    Trial.cohort_index,
                    Trial.trial_index,
                    Trial.passed,
                    Trial.output,
                    Trial.error_code,
                ),
                Trial.cohort_index,
                Trial.trial_index,
            )
        )
    )
    .where(Trial.comparison_id == VerdictCase.comparison_id)
    .where(Trial.case_ordinal == VerdictCase.ordinal)
    .correlate(VerdictCase)
    .scalar_subquery()
    .label("trials")
)
"""A case's trials in cohort and trial order, as [cohort index, trial index, passed,
output, error code]."""


@lru_cache(maxsize=len(CaseFilter) * 4)
def _statement(case_filter: CaseFilter, baseline: bool, after: bool) -> Select[Any]:
    """The workspace's comparison with its cohort count, the page's total and, laterally
    joined, one page of its case rows (none: a row of nulls), for one filter and shape
    (bound: `comparison_id`, `workspace_id`, `page_limit`, with a baseline `baseline_bit`,
    after a cursor `after_key`)."""
    condition = case_condition(case_filter, baseline)
    ours = VerdictCase.comparison_id == Comparison.id
    counted = select(func.count().label("total")).select_from(VerdictCase).where(ours)
    page = select(
        VerdictCase.ordinal,
        VerdictCase.dataset_item_id,
        VerdictCase.classification,
        VerdictCase.cohorts,
        _TRIALS,
    ).where(ours)
    if condition is not None:
        counted, page = counted.where(condition), page.where(condition)
    if after:
        page = page.where(VerdictCase.ordinal > bindparam("after_key"))
    cases = page.order_by(VerdictCase.ordinal).limit(bindparam("page_limit")).lateral("cases")
    # Counts as aggregates joined laterally, not scalar subqueries in the select list:
    # PostgreSQL would count again for each case row of the page.
    total = counted.lateral("counted")
    cohorts = (
        select(func.count().label("cohort_count"))
        .select_from(ComparisonCohort)
        .where(ComparisonCohort.comparison_id == Comparison.id)
        .lateral("cohorts")
    )
    stmt = cast("Select[Any]", select(Comparison.id, cohorts.c.cohort_count, total.c.total))
    return (
        stmt.add_columns(*cases.c)
        .select_from(Comparison)
        .join(cohorts, true())
        .join(total, true())
        .outerjoin(cases, true())
        .where(
            Comparison.id == bindparam("comparison_id", type_=String),
            Comparison.workspace_id == bindparam("workspace_id", type_=String),
        )
    )


_VARIABLES = {
    "id": a_string,
    "filter": a_name_of(CaseFilter),
    "baseline": or_none(an_int),
    "first": an_int,
    "after": or_none(a_string),
}


async def comparison_cases(reading: Reading, given: Mapping[str, Any]) -> dict[str, Any] | None:
    variables = variables_of(given, _VARIABLES)
    if variables is None:
        return None
    baseline, after = variables["baseline"], variables["after"]
    try:
        size = check_page_size(variables["first"], reading.settings.max_page_size)
        after_key = cursor_key(after, VerdictCase.ordinal) if after is not None else None
    except ValidationFailed:
        return None
    statement = _statement(CaseFilter(variables["filter"]), baseline is not None, after is not None)
    values = {
        "comparison_id": variables["id"],
        "workspace_id": reading.actor.workspace_id,
        "page_limit": size + 1,
        "after_key": after_key,
        "baseline_bit": 1 << baseline if baseline is not None and 0 <= baseline < 31 else 0,
    }
    rows = await reading.connections.fetch(statement, values)
    if not rows:
        return None  # not the workspace's, or unknown: the schema says NOT_FOUND
    first = rows[0]
    if baseline is not None and not 1 <= baseline < first["cohort_count"]:
        return None  # the schema refuses it, naming the baselines
    cases = [row for row in rows if row["ordinal"] is not None]
    shown = cases[:size]
    cursors = [encode_cursor(row["ordinal"]) for row in shown]
    return {
        "comparison": {
            "id": first["id"],
            "cases": {
                "totalCount": first["total"],
                "pageInfo": {
                    "hasNextPage": len(cases) > size,
                    "endCursor": cursors[-1] if cursors else None,
                },
                "edges": [
                    {"cursor": cursor, "node": _case(row)}
                    for cursor, row in zip(cursors, shown, strict=True)
                ],
            },
        }
    }


def _case(row: Any) -> dict[str, Any]:
    """A case node as `verdicts.resolvers._case` and `CaseCohort` show it."""
    trials: dict[int, list[dict[str, Any]]] = {}
    for cohort_index, trial_index, passed, output, error_code in row["trials"] or ():
        trials.setdefault(cohort_index, []).append(
            {
                "trialIndex": trial_index,
                "passed": passed,
                "output": output,
                "errorCode": error_code,
            }
        )
    return {
        "ordinal": row["ordinal"],
        "datasetItemId": row["dataset_item_id"],
        "classification": CaseClass(row["classification"]).name,
        "cohorts": [
            {
                "cohortIndex": c["cohortIndex"],
                "passed": None if not c["completed"] else 2 * c["passed"] > c["completed"],
                "passFraction": _float(c["passFraction"]),
                "score": _float(c["score"]),
                "trials": trials.get(c["cohortIndex"], []),
            }
            for c in row["cohorts"]
        ],
    }


def _float(value: Any) -> float | None:
    """GraphQL's Float of a stored number (an integral one is shown as a float)."""
    return None if value is None else float(value)


DOCUMENTS = (
    DirectDocument("ComparisonCases", lambda r, g, _: comparison_cases(r, g), written_for(CASES)),
)
