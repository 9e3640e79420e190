"""The portal's comparisons page (`ComparisonsList`): one keyset page of the workspace's
comparisons with each one's verdict row and cohorts, and the total, in one statement on the
driver; answered as `server.api.comparisons.resolvers.comparisons` answers it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from sqlalchemy import Select, String, bindparam, select

from server.api.direct_reads.comparison_rows import (
    COHORTS,
    COUNTED,
    Counts,
    shown_cohorts,
    verdict_state_name,
)
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
from server.api.verdicts.types import baseline_verdict
from server.comparisons.models import Comparison, ComparisonStatus
from server.errors import ValidationFailed
from server.money import micros_to_cents
from server.pagination import check_page_size, cursor_key, encode_cursor, keyset_statements
from server.verdicts.models import ComparisonVerdict, VerdictState

LIST = """
query ComparisonsList($first: Int!, $after: String, $status: ComparisonStatus) {
  comparisons(first: $first, after: $after, status: $status) {
    totalCount
    edges { cursor node { ...ComparisonRowFields } }
    pageInfo { hasNextPage endCursor }
  }
}
fragment VerdictChipFields on BaselineVerdict { baselineCohortIndex outcome summary }
fragment ComparisonRowFields on Comparison {
  id label status stopReason createdAt spentCentsSoFar verdictState decision { outcome }
  cohorts { cohortIndex label isCandidate passRate }
  scorecard { verdicts { ...VerdictChipFields } }
  progress { seq doneCalls totalCalls }
}
"""


def _list_statements(*, with_status: bool) -> tuple[Select[Any], Select[Any]]:
    """The first page and a page after a cursor (the count rides on each row)."""
    columns = (Comparison.id, Comparison.label, Comparison.created_at, *COUNTED)
    stmt = cast("Select[Any]", select(*columns)).where(
        Comparison.workspace_id == bindparam("workspace_id", type_=String)
    )
    if with_status:
        stmt = stmt.where(Comparison.status == bindparam("status", type_=String))

    def joined(page: Select[Any]) -> Select[Any]:
        verdict = ComparisonVerdict
        on = verdict.comparison_id == Comparison.id
        return page.add_columns(
            verdict.state.label("verdict_state"),
            verdict.scorecard.is_not(None).label("has_scorecard"),
            verdict.scorecard["verdicts"].label("verdicts"),
            verdict.scorecard["decision"]["outcome"].label("decision_outcome"),
            COHORTS,
        ).outerjoin(verdict, on)

    kept = keyset_statements(stmt, key=Comparison.id, descending=True, joined=joined)
    return kept.first_page, kept.after_page


_LISTS = {with_status: _list_statements(with_status=with_status) for with_status in (False, True)}
_LIST_VARIABLES = {
    "first": an_int,
    "after": or_none(a_string),
    "status": or_none(a_name_of(ComparisonStatus)),
}


async def comparisons_list(reading: Reading, given: Mapping[str, Any]) -> dict[str, Any] | None:
    variables = variables_of(given, _LIST_VARIABLES)
    if variables is None:
        return None
    first, after, status = variables["first"], variables["after"], variables["status"]
    try:
        size = check_page_size(first, reading.settings.max_page_size)
        after_key = cursor_key(after, Comparison.id) if after is not None else None
    except ValidationFailed:
        return None
    first_page, after_page = _LISTS[status is not None]
    values = {"workspace_id": reading.actor.workspace_id, "status": status, "page_limit": size + 1}
    values["after_key"] = after_key
    rows = await reading.connections.fetch(first_page if after is None else after_page, values)
    if not rows:  # the total then needs its own count: the schema's way
        return None
    nodes = [_row_node(row) for row in rows[:size]]
    if any(node is None for node in nodes):
        return None
    cursors = [encode_cursor(row["id"]) for row in rows[:size]]
    return {
        "comparisons": {
            "totalCount": rows[0][len(rows[0]) - 1],  # the count rides last on each row
            "edges": [{"cursor": c, "node": n} for c, n in zip(cursors, nodes, strict=True)],
            "pageInfo": {
                "hasNextPage": len(rows) > size,
                "endCursor": cursors[-1] if cursors else None,
            },
        }
    }


def _row_node(row: Any) -> dict[str, Any] | None:
    """`ComparisonRowFields` of a row (None: a scorecard the schema would have to refuse)."""
    counts = Counts.of(row)
    scorecard: dict[str, Any] | None = None
    if row["verdict_state"] == VerdictState.FINALIZED and row["has_scorecard"]:
        if not isinstance(row["verdicts"], list):
            return None
        chips = [baseline_verdict(v) for v in row["verdicts"]]
        scorecard = {
            "verdicts": [
                {
                    "baselineCohortIndex": chip.baseline_cohort_index,
                    "outcome": chip.outcome.name,
                    "summary": chip.summary,
                }
                for chip in chips
            ]
        }
    decision = _decision(counts.status, row)
    return {
        "id": row["id"],
        "label": row["label"],
        "status": counts.status.name,
        "stopReason": counts.stop_reason.name if counts.stop_reason else None,
        "createdAt": row["created_at"].isoformat(),
        "spentCentsSoFar": micros_to_cents(counts.spent_micros),
        "verdictState": verdict_state_name(row["verdict_state"]),
        "decision": decision,
        "cohorts": shown_cohorts(counts.status, row["cohorts"] or []),
        "scorecard": scorecard,
        "progress": {
            "seq": counts.seq,
            "doneCalls": counts.done_calls,
            "totalCalls": counts.total_calls,
        },
    }


def _decision(status: ComparisonStatus, row: Any) -> dict[str, str] | None:
    """`decision { outcome }` as `Comparison.decision` answers it: NO_DECISION for a run that
    did not end, the stored outcome once FINALIZED, else null."""
    if status in (ComparisonStatus.CANCELLED, ComparisonStatus.FAILED):
        return {"outcome": "NO_DECISION"}
    finalized = row["verdict_state"] == VerdictState.FINALIZED and row["has_scorecard"]
    outcome = row["decision_outcome"]
    return {"outcome": str(outcome)} if finalized and outcome else None


DOCUMENTS = (
    DirectDocument("ComparisonsList", lambda r, g, _: comparisons_list(r, g), written_for(LIST)),
)
