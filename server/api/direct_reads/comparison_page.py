"""The portal's page of a comparison (`ComparisonPage`): the comparison with its verdict row,
experiment, dataset version, cohorts and whether it has reports, in one statement on the
driver, joined as `server.verdicts.comparison_page` joins them; answered as the schema's
`comparison(id)` answers it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from sqlalchemy import ColumnElement, Select, String, and_, bindparam, select

from server.api.direct_reads.comparison_rows import (
    COHORTS,
    COUNTED,
    Counts,
    iso_or_none,
    member_name,
    shown_cohorts,
    verdict_state_name,
)
from server.api.direct_reads.documents import DirectDocument, Reading, the_comparison_row
from server.assets.models import AssetVersion
from server.assets.service import version_visible_to
from server.comparisons.models import CohortState, Comparison, ComparisonStatus, StopReason
from server.comparisons.progress import snapshot
from server.datasets.models import Split
from server.experiments.models import Experiment
from server.money import micros_to_cents, optional_micros_to_cents
from server.reports.service import exists_for
from server.verdicts.models import ComparisonVerdict, SignOffVerdict

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
            *COUNTED,
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
            COHORTS,
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
    row = await the_comparison_row(reading, given, _PAGE)
    if row is None:
        return None
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
            "startedAt": iso_or_none(counts.started_at),
            "endedAt": iso_or_none(row["ended_at"]),
            "verdictState": verdict_state_name(row["verdict_state"]),
            "verdictErrorCode": row["verdict_error_code"],
            "verdict": member_name(SignOffVerdict, row["verdict"]),
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
            "cohorts": shown_cohorts(counts.status, cohorts),
            "progress": {
                "seq": progress.seq,
                "status": ComparisonStatus(progress.status).name,
                "stopReason": member_name(StopReason, progress.stop_reason),
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


DOCUMENTS = (DirectDocument("ComparisonPage", PAGE, comparison_page),)
