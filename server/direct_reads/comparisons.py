"""The portal's comparisons page (`ComparisonsList`) and a comparison's page
(`ComparisonPage`), each one statement on the driver, answered as the schema answers them
(`server.comparisons.types`, `server.verdicts.types`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

from sqlalchemy import ColumnElement, Select, String, and_, bindparam, func, select
from sqlalchemy.dialects.postgresql import aggregate_order_by

from server.assets.models import AssetVersion
from server.assets.service import version_visible_to
from server.comparisons.cohort_rates import pass_rate
from server.comparisons.models import (
    CohortState,
    Comparison,
    ComparisonCohort,
    ComparisonStatus,
    StopReason,
)
from server.comparisons.progress import snapshot
from server.datasets.models import Split
from server.direct_reads.documents import (
    DirectDocument,
    Reading,
    a_name_of,
    a_string,
    an_int,
    or_none,
    variables_of,
)
from server.direct_reads.statements import fetch
from server.errors import ValidationFailed
from server.experiments.models import Experiment
from server.money import micros_to_cents, optional_micros_to_cents
from server.pagination import check_page_size, cursor_key, encode_cursor, keyset_statements
from server.reports.service import exists_for
from server.verdicts.models import ComparisonVerdict, SignOffVerdict, VerdictState
from server.verdicts.types import baseline_verdict

# --- what both pages read of a comparison ---------------------------------------------------

_COHORTS = (
    select(
        func.json_agg(
            aggregate_order_by(
                func.json_build_array(
                    ComparisonCohort.cohort_index,
                    ComparisonCohort.label,
                    ComparisonCohort.usable_cases,
                    ComparisonCohort.pass_fraction_sum,
                    ComparisonCohort.state,
                ),
                ComparisonCohort.cohort_index,
            )
        )
    )
    .where(ComparisonCohort.comparison_id == Comparison.id)
    .correlate(Comparison)
    .scalar_subquery()
    .label("cohorts")
)
"""Its cohorts in index order, as [index, label, usable cases, pass-fraction sum, state]."""

_COUNTED = (
    Comparison.seq,
    Comparison.status,
    Comparison.stop_reason,
    Comparison.done_calls,
    Comparison.total_calls,
    Comparison.failed_calls,
    Comparison.spent_micros,
    Comparison.started_at,
    Comparison.progress_at,
)
"""The columns of a progress snapshot (`Counts`), in its fields' order."""


@dataclass(frozen=True, slots=True)
class Counts:
    """A comparison's progress columns, as `snapshot` reads them (`progress.Counted`)."""

    seq: int
    status: ComparisonStatus
    stop_reason: StopReason | None
    done_calls: int
    total_calls: int
    failed_calls: int
    spent_micros: int
    started_at: datetime | None
    progress_at: datetime | None

    @classmethod
    def of(cls, row: Any) -> Counts:
        return cls(
            seq=row["seq"],
            status=ComparisonStatus(row["status"]),
            stop_reason=StopReason(row["stop_reason"]) if row["stop_reason"] else None,
            done_calls=row["done_calls"],
            total_calls=row["total_calls"],
            failed_calls=row["failed_calls"],
            spent_micros=row["spent_micros"],
            started_at=row["started_at"],
            progress_at=row["progress_at"],
        )


def _cohorts(status: ComparisonStatus, cohorts: list[list[Any]]) -> list[dict[str, Any]]:
    """`cohorts { cohortIndex label isCandidate passRate }` (`ComparisonCohort.from_row`)."""
    done = status == ComparisonStatus.DONE
    return [
        {
            "cohortIndex": index,
            "label": label,
            "isCandidate": index == 0,
            "passRate": pass_rate(usable_cases=usable, pass_fraction_sum=summed)
            if done
            else None,
        }
        for index, label, usable, summed, _ in cohorts
    ]


def _verdict_state(state: str | None) -> str:
    return VerdictState(state).name if state else VerdictState.NOT_FINALIZED.name


def _name(enum: Any, value: str | None) -> str | None:
    """An enum column's value as the schema shows it (its member's name), or null."""
    return enum(value).name if value is not None else None


def _at(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


# --- the comparisons page -------------------------------------------------------------------

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
  id label status stopReason createdAt spentCentsSoFar verdictState
  cohorts { cohortIndex label isCandidate passRate }
  scorecard { verdicts { ...VerdictChipFields } }
  progress { seq doneCalls totalCalls }
}
"""


def _list_statements(*, with_status: bool) -> tuple[Select[Any], Select[Any]]:
    """The first page and a page after a cursor (the count rides on each row)."""
    columns = (Comparison.id, Comparison.label, Comparison.created_at, *_COUNTED)
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
            _COHORTS,
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
    rows = await fetch(reading.engine, first_page if after is None else after_page, values)
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
    return {
        "id": row["id"],
        "label": row["label"],
        "status": counts.status.name,
        "stopReason": counts.stop_reason.name if counts.stop_reason else None,
        "createdAt": row["created_at"].isoformat(),
        "spentCentsSoFar": micros_to_cents(counts.spent_micros),
        "verdictState": _verdict_state(row["verdict_state"]),
        "cohorts": _cohorts(counts.status, row["cohorts"] or []),
        "scorecard": scorecard,
        "progress": {
            "seq": counts.seq,
            "doneCalls": counts.done_calls,
            "totalCalls": counts.total_calls,
        },
    }


# --- a comparison's page --------------------------------------------------------------------

PAGE = """
query ComparisonPage($id: ID!) {
  comparison(id: $id) {
    id label status stopReason errorCode trialsPerCase caseCount budgetCapCents
    spentCentsSoFar createdAt startedAt endedAt verdictState verdictErrorCode verdict split
    datasetVersion { id datasetId number }
    experiment { id name dailyBudgetCents }
    cohorts { cohortIndex label isCandidate passRate }
    progress { ...ProgressFields }
    reports { id version signOff { id decision } }
    cappedConnections { id name monthlyCapCents }
  }
}
fragment ProgressFields on ComparisonProgress {
  seq status stopReason doneCalls totalCalls failedCalls percent etaSeconds spentCentsSoFar
  cohorts { cohortIndex state }
}
"""


def _page_statement() -> Select[Any]:
    """The comparison with what its page shows, joined as `verdicts.comparison_page` joins
    it: the experiment only when the workspace's, the dataset version only when visible."""
    workspace_id = bindparam("workspace_id", type_=String)
    verdict = ComparisonVerdict
    experiment_on = and_(
        Experiment.id == Comparison.experiment_id, Experiment.workspace_id == workspace_id
    )
    version_on = and_(
        AssetVersion.id == Comparison.dataset_version_id, version_visible_to(workspace_id)
    )
    has_reports: ColumnElement[bool] = exists_for(Comparison.id)
    stmt = cast(
        "Select[Any]",
        select(
            Comparison.id,
            Comparison.label,
            Comparison.error_code,
            Comparison.trials_per_case,
            Comparison.case_count,
            Comparison.budget_cap_micros,
            Comparison.created_at,
            Comparison.ended_at,
            Comparison.split,
            *_COUNTED,
            verdict.state.label("verdict_state"),
            verdict.error_code.label("verdict_error_code"),
            verdict.verdict.label("verdict"),
            AssetVersion.id.label("version_id"),
            AssetVersion.asset_id.label("dataset_id"),
            AssetVersion.number.label("version_number"),
            Experiment.id.label("experiment_id"),
            Experiment.name.label("experiment_name"),
            Experiment.daily_budget_micros.label("daily_budget_micros"),
            has_reports.label("has_reports"),
            _COHORTS,
        ),
    )
    return (
        stmt.outerjoin(verdict, verdict.comparison_id == Comparison.id)
        .outerjoin(Experiment, experiment_on)
        .outerjoin(AssetVersion, version_on)
        .where(
            Comparison.id == bindparam("comparison_id", type_=String),
            Comparison.workspace_id == workspace_id,
        )
    )


_PAGE = _page_statement()


async def comparison_page(reading: Reading, given: Mapping[str, Any]) -> dict[str, Any] | None:
    variables = variables_of(given, {"id": a_string})
    if variables is None:
        return None
    values = {"comparison_id": variables["id"], "workspace_id": reading.actor.workspace_id}
    rows = await fetch(reading.engine, _PAGE, values)
    if not rows:
        return None
    row = rows[0]
    counts = Counts.of(row)
    plain = (
        row["version_id"] is not None
        and row["experiment_id"] is not None
        and not row["has_reports"]  # its reports and sign-offs: the schema reads them
        and counts.stop_reason != StopReason.CONNECTION_CAP  # its capped connections: too
    )
    if not plain:
        return None
    cohorts = row["cohorts"] or []
    progress = snapshot(counts, [(index, CohortState(state)) for index, *_, state in cohorts])
    return {
        "comparison": {
            "id": row["id"],
            "label": row["label"],
            "status": counts.status.name,
            "stopReason": counts.stop_reason.name if counts.stop_reason else None,
            "errorCode": row["error_code"],
            "trialsPerCase": row["trials_per_case"],
            "caseCount": row["case_count"],
            "budgetCapCents": optional_micros_to_cents(row["budget_cap_micros"]),
            "spentCentsSoFar": micros_to_cents(counts.spent_micros),
            "createdAt": row["created_at"].isoformat(),
            "startedAt": _at(counts.started_at),
            "endedAt": _at(row["ended_at"]),
            "verdictState": _verdict_state(row["verdict_state"]),
            "verdictErrorCode": row["verdict_error_code"],
            "verdict": _name(SignOffVerdict, row["verdict"]),
            "split": Split(row["split"]).name,
            "datasetVersion": {
                "id": row["version_id"],
                "datasetId": row["dataset_id"],
                "number": row["version_number"],
            },
            "experiment": {
                "id": row["experiment_id"],
                "name": row["experiment_name"],
                "dailyBudgetCents": optional_micros_to_cents(row["daily_budget_micros"]),
            },
            "cohorts": _cohorts(counts.status, cohorts),
            "progress": {
                "seq": progress.seq,
                "status": ComparisonStatus(progress.status).name,
                "stopReason": _name(StopReason, progress.stop_reason),
                "doneCalls": progress.done_calls,
                "totalCalls": progress.total_calls,
                "failedCalls": progress.failed_calls,
                "percent": progress.percent,
                "etaSeconds": progress.eta_seconds,
                "spentCentsSoFar": progress.spent_cents_so_far,
                "cohorts": [
                    {"cohortIndex": c.cohort_index, "state": CohortState(c.state).name}
                    for c in progress.cohorts
                ],
            },
            "reports": [],
            "cappedConnections": [],
        }
    }


DOCUMENTS = (
    DirectDocument("ComparisonsList", LIST, comparisons_list),
    DirectDocument("ComparisonPage", PAGE, comparison_page),
)
