"""GraphQL documents and small helpers shared by the comparison tests."""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select

from bench.kit.harness import Backend
from server.comparisons.models import Comparison
from server.experiments.models import Experiment

COMPARISON_FIELDS = """
    id label status stopReason errorCode split trialsPerCase caseCount checks
    budgetCapCents spentCentsSoFar rerunOfId createdAt startedAt endedAt verdictState
    experiment { id name }
    datasetVersion { id number }
    cohorts { cohortIndex kind label releaseId isCandidate passRate }
    progress {
        seq status stopReason doneCalls totalCalls failedCalls percent etaSeconds
        spentCentsSoFar cohorts { cohortIndex state }
    }
"""

CREATE = (
    "mutation($input: CreateComparisonInput!) { createComparison(input: $input) {"
    + COMPARISON_FIELDS
    + "} }"
)

PREVIEW = """
query($input: CreateComparisonInput!) {
  comparisonPreview(input: $input) {
    datasetVersionId datasetVersionNumber split splitCaseCount caseCount leftOutCount
    trialsPerCase totalCalls judgeCalls callLimit costBoundCents canStart summary
    cohorts { cohortIndex label isCandidate calls judgeCalls costBoundCents connectionId }
    connections {
      connectionId name kind status spentCentsThisMonth monthlyCapCents text
    }
    variables { variable path found total text }
    warnings { code message }
    blockers { code message }
  }
}
"""

START = (
    "mutation($id: ID!, $background: Boolean! = true) {"
    " startComparison(id: $id, background: $background) {" + COMPARISON_FIELDS + "} }"
)
CANCEL = "mutation($id: ID!) { cancelComparison(id: $id) {" + COMPARISON_FIELDS + "} }"
RERUN = "mutation($id: ID!) { rerunComparison(id: $id) {" + COMPARISON_FIELDS + "} }"
GET = "query($id: ID!) { comparison(id: $id) {" + COMPARISON_FIELDS + "} }"
LIST = """
query($first: Int, $after: String, $status: ComparisonStatus) {
  comparisons(first: $first, after: $after, status: $status) {
    totalCount
    pageInfo { hasNextPage endCursor }
    edges { cursor node { id status label cohorts { cohortIndex label passRate }
            experiment { id name } progress { seq status cohorts { state } } } }
  }
}
"""


async def count_rows(backend: Backend, workspace_id: str) -> tuple[int, int]:
    """(comparisons, experiments) of the workspace: what a refused create must not write."""
    async with backend.sessionmaker() as session:
        comparisons = await session.scalar(
            select(func.count())
            .select_from(Comparison)
            .where(Comparison.workspace_id == workspace_id)
        )
        experiments = await session.scalar(
            select(func.count())
            .select_from(Experiment)
            .where(Experiment.workspace_id == workspace_id)
        )
    return int(comparisons or 0), int(experiments or 0)


def error_extensions(result: Any) -> dict[str, Any]:
    """The first error's extensions."""
    return dict(result.errors[0].get("extensions", {}))
