"""GraphQL documents and helpers for the runs tests."""

from __future__ import annotations

from typing import Any

from bench.kit.harness import Backend, GraphQLResult

START = """mutation($experimentId: ID!, $key: String!, $metadata: JSON) {
  startRunImport(experimentId: $experimentId, idempotencyKey: $key, metadata: $metadata) {
    id status itemCount source metadata
  }
}"""
APPEND = """mutation($id: ID!, $items: JSON!, $position: Int) {
  appendRunItems(runId: $id, items: $items, position: $position) { appendedCount itemCount }
}"""
COMPLETE = "mutation($id: ID!) { completeRun(runId: $id) { id status completedAt itemCount } }"
FAIL = "mutation($id: ID!) { failRun(runId: $id) { id status errorCode } }"
RUN = """query($id: ID!, $first: Int, $after: String) {
  run(id: $id) {
    id status source itemCount metadata experiment { id name }
    items(first: $first, after: $after) {
      totalCount pageInfo { hasNextPage endCursor }
      edges { node {
        datasetItemId position input trialCount gradedCount passedCount passFraction
        trials { passed output evaluators { name score }
                 metrics { tokens turns toolCalls wallMs errors } }
      } }
    }
  }
}"""
SUMMARY_FIELDS = """
  baselinePassRate candidatePassRate passRateDelta deltaLow deltaHigh intervalMethod
  method pValue exactPValue significant significanceReason improvedCount regressedCount
  unchangedCount addedCount removedCount pairedCount gradedPairCount epsilon pairing
  evaluators { name pairedCount baselineMean candidateMean delta low high pValue
               adjustedPValue method significant }
"""
DIFF = (
    """query($c: ID!, $b: ID!, $eps: Float, $filter: DiffCaseFilter!, $first: Int,
        $after: String) {
  runDiff(candidateRunId: $c, baselineRunId: $b, epsilon: $eps) {
    summary {"""
    + SUMMARY_FIELDS
    + """}
    cases(status: $filter, first: $first, after: $after) {
      totalCount pageInfo { hasNextPage endCursor }
      edges { cursor node {
        datasetItemId position baselinePosition status passFlip input
        candidatePassFraction baselinePassFraction
        evaluators { name baselineMean candidateMean delta status significant }
      } }
    }
  }
}"""
)


def item(
    passed: list[bool | None] | bool | None = None,
    *,
    item_id: str | None = None,
    scores: dict[str, float] | list[dict[str, float]] | None = None,
    input: Any = None,
) -> dict[str, Any]:
    """An item; `passed` one grade or one per trial, `scores` per trial or for every trial."""
    grades = passed if isinstance(passed, list) else [passed]
    per_trial = scores if isinstance(scores, list) else [scores or {}] * len(grades)
    trials = []
    for grade, trial_scores in zip(grades, per_trial, strict=True):
        trial: dict[str, Any] = {"passed": grade}
        if trial_scores:
            trial["evaluators"] = trial_scores
        trials.append(trial)
    found: dict[str, Any] = {
        "input": input if input is not None else f"q-{item_id}",
        "trials": trials,
    }
    if item_id is not None:
        found["datasetItemId"] = item_id
    return found


async def experiment(backend: Backend, token: str, name: str = "exp") -> str:
    result = await backend.gql(
        "mutation($n: String!) { createExperiment(input: {name: $n}) { id } }",
        {"n": name},
        token=token,
    )
    return str(result.ok()["createExperiment"]["id"])


async def start(
    backend: Backend, token: str, experiment_id: str, key: str, metadata: Any = None
) -> GraphQLResult:
    return await backend.gql(
        START, {"experimentId": experiment_id, "key": key, "metadata": metadata}, token=token
    )


async def append(
    backend: Backend, token: str, run_id: str, items: Any, position: int | None = None
) -> GraphQLResult:
    return await backend.gql(
        APPEND, {"id": run_id, "items": items, "position": position}, token=token
    )


async def import_run(
    backend: Backend,
    token: str,
    experiment_id: str,
    items: list[dict[str, Any]],
    *,
    key: str,
    chunk: int = 5000,
    complete: bool = True,
) -> str:
    """Start, append in chunks and (by default) complete a run; its id."""
    run_id = str((await start(backend, token, experiment_id, key)).ok()["startRunImport"]["id"])
    for low in range(0, len(items), chunk):
        (await append(backend, token, run_id, items[low : low + chunk])).ok()
    if complete:
        (await backend.gql(COMPLETE, {"id": run_id}, token=token)).ok()
    return run_id


async def diff(
    backend: Backend,
    token: str,
    candidate: str,
    baseline: str,
    *,
    case_filter: str = "ALL",
    first: int = 100,
    after: str | None = None,
    epsilon: float | None = None,
) -> GraphQLResult:
    variables = {
        "c": candidate,
        "b": baseline,
        "filter": case_filter,
        "first": first,
        "after": after,
        "eps": epsilon,
    }
    return await backend.gql(DIFF, variables, token=token)
