"""Label operations over GraphQL."""

from __future__ import annotations

from typing import Any

from bench.kit.harness import Backend

LABEL = """
mutation($trial: TrialRefInput!, $passed: Boolean!, $note: String) {
  labelTrial(trial: $trial, passed: $passed, note: $note) {
    trial { comparisonId runId cohortIndex datasetItemId trialIndex }
    passed note labeller { id name } createdAt judgePassed } }
"""
QUEUE = """
query($id: ID!, $first: Int) { reviewQueue(comparisonId: $id, first: $first) {
  trial { comparisonId runId cohortIndex datasetItemId trialIndex } input expected output } }
"""
CASE_LABELS = """
query($id: ID!) { comparison(id: $id) { cases(filter: ALL, first: 100) { edges { node {
  datasetItemId cohorts { cohortIndex trials { trialIndex passed
    labels { passed note labeller { id name } trial { comparisonId cohortIndex datasetItemId
      trialIndex } } } } } } } } }
"""
AGREEMENT = """
query($id: ID!) { comparison(id: $id) {
  reviewProgress { labelled graded }
  judgeAgreement { checkKey labels agreement kappa kappaLow kappaHigh sensitivity
    sensitivityLow sensitivityHigh specificity specificityLow specificityHigh } } }
"""
AUDIT = """
query { auditEvents(first: 50, action: "trial.label") {
  edges { node { action targetType targetId details } } } }
"""


def trial_ref(comparison_id: str, cohort: int, item: str, index: int = 0) -> dict[str, Any]:
    return {
        "comparisonId": comparison_id,
        "cohortIndex": cohort,
        "datasetItemId": item,
        "trialIndex": index,
    }


async def label(
    backend: Backend, token: str, trial: dict[str, Any], passed: bool, note: str | None = None
) -> dict[str, Any]:
    data = (
        await backend.gql(LABEL, {"trial": trial, "passed": passed, "note": note}, token=token)
    ).ok()
    found: dict[str, Any] = data["labelTrial"]
    return found


def case_labels(data: dict[str, Any]) -> dict[tuple[str, int, int], list[dict[str, Any]]]:
    """(item, cohort, trial) → that trial's labels, from CASE_LABELS."""
    found = {}
    for edge in data["comparison"]["cases"]["edges"]:
        node = edge["node"]
        for cohort in node["cohorts"]:
            for trial in cohort["trials"]:
                key = (node["datasetItemId"], cohort["cohortIndex"], trial["trialIndex"])
                found[key] = trial["labels"]
    return found
