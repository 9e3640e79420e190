"""The read path issues a fixed number of SQL statements: a page of 20 comparisons and a page
of 50 cases cost the same whatever the page size or the number of trials, and listing
comparisons reads no trial row (pass rates and progress are stored, not aggregated)."""

from __future__ import annotations

import re
from typing import Any

from sqlalchemy import insert, update

from bench.kit.factories import make_comparison, make_comparison_setup, make_workspace
from bench.kit.harness import Backend
from bench.kit.scenarios import finalized, scripted_setup
from bench.kit.statements import counting_statements
from server.comparisons import cohort_rates
from server.comparisons.models import Comparison, ComparisonStatus, Trial, TrialState
from server.db import utcnow
from server.workspaces.roles import Role

LIST = """
query($first: Int) { comparisons(first: $first) {
  totalCount pageInfo { hasNextPage endCursor }
  edges { cursor node {
    id label status trialsPerCase createdAt verdictState verdictErrorCode verdict
    cohorts { cohortIndex kind label releaseId isCandidate passRate }
    progress { seq status doneCalls totalCalls failedCalls percent etaSeconds spentCentsSoFar
               cohorts { cohortIndex state } }
    experiment { id name }
    datasetVersion { id number caseCount }
    scorecard { usableCases }
    reports { id }
  } } } }
"""

CASES = """
query($id: ID!, $first: Int) { comparison(id: $id) {
  id status
  cohorts { cohortIndex passRate }
  scorecard {
    usableCases casesNotRun finalizedAt
    metrics { name direction values { cohortIndex value } winners }
    overallWinner { cohortIndex reason votes }
    significance { baselineCohortIndex method pValue adjustedPValue significant decides }
    confidence { cohortIndex passRate low high n adequacy mde }
    trials { cohortIndex k passHatK passAtK flips failedOrMissingTrials }
    failureAnalysis { improved regressed bothWrong agree }
    verdicts { baselineCohortIndex outcome reason passRateDeltaPoints summary }
  }
  cases(filter: ALL, first: $first) {
    totalCount pageInfo { hasNextPage endCursor }
    edges { node {
      ordinal datasetItemId input expected classification latencyDeltaMs costDeltaCents
      cohorts { cohortIndex passed passFraction score
        trials { trialIndex passed output checks { kind passed score } latencyMs
                 inputTokens outputTokens costCents errorCode } }
    } }
  } } }
"""


async def _done_comparisons(backend: Backend, *, count: int, trials: int) -> str:
    """`count` DONE comparisons of 4 cases × 2 cohorts × `trials`; the workspace's viewer."""
    ws = await make_workspace(backend.sessionmaker)
    setup = await make_comparison_setup(backend.sessionmaker, ws, cases=4)
    for _ in range(count):
        comparison_id = await make_comparison(backend.sessionmaker, setup, trials=trials)
        rows = [
            {
                "comparison_id": comparison_id,
                "case_ordinal": ordinal,
                "cohort_index": cohort,
                "trial_index": index,
                "connection_id": setup.connection_id,
                "state": TrialState.COMPLETED,
                "delivery_id": "dlv_test",
                "lease_token": 1,
                "passed": (ordinal + index) % 2 == 0,
                "completed_at": utcnow(),
            }
            for ordinal in range(4)
            for cohort in range(2)
            for index in range(trials)
        ]
        async with backend.sessionmaker() as session, session.begin():
            await session.execute(insert(Trial), rows)
            await session.execute(
                update(Comparison)
                .where(Comparison.id == comparison_id)
                .values(status=ComparisonStatus.DONE, ended_at=utcnow())
            )
            await cohort_rates.settle(session, comparison_id=comparison_id)
    return ws.tokens[Role.VIEWER]


async def _list_statements(backend: Backend, *, count: int, trials: int) -> list[str]:
    token = await _done_comparisons(backend, count=count, trials=trials)
    with counting_statements(backend) as seen:
        page = (await backend.gql(LIST, {"first": 20}, token=token)).ok()["comparisons"]
    assert len(page["edges"]) == count
    rates = {c["passRate"] for e in page["edges"] for c in e["node"]["cohorts"]}
    assert rates == {0.5}  # stored when the run ended, shown once DONE
    return list(seen)


async def test_a_page_of_comparisons_costs_the_same_statements_for_1_or_20(
    backend: Backend,
) -> None:
    one = await _list_statements(backend, count=1, trials=1)
    twenty = await _list_statements(backend, count=20, trials=1)
    more_trials = await _list_statements(backend, count=20, trials=3)
    assert len(one) == len(twenty) == len(more_trials), (one, twenty)
    # Nothing on the page is aggregated from trial rows per request.
    assert not [s for s in twenty if re.search(r"\btrial\b", s.replace('"', ""))], twenty


async def _cases_statements(backend: Backend, *, trials: int, first: int) -> list[str]:
    ws = await make_workspace(backend.sessionmaker)
    letters = "P" * trials
    tensor = [[letters] * 50, [letters[:-1] + "F"] * 50, [letters] * 50]
    setup = await scripted_setup(backend.sessionmaker, ws, tensor)
    comparison_id, _ = await finalized(backend, setup, trialsPerCase=trials)
    token = ws.tokens[Role.VIEWER]
    variables: dict[str, Any] = {"id": comparison_id, "first": first}
    with counting_statements(backend) as seen:
        found = (await backend.gql(CASES, variables, token=token)).ok()["comparison"]
    edges = found["cases"]["edges"]
    assert len(edges) == first
    assert [len(c["trials"]) for c in edges[0]["node"]["cohorts"]] == [trials] * 3
    assert found["scorecard"]["usableCases"] == 50
    return list(seen)


async def test_a_page_of_cases_costs_the_same_statements_for_any_size_or_trials(
    backend: Backend,
) -> None:
    small = await _cases_statements(backend, trials=1, first=5)
    fifty = await _cases_statements(backend, trials=1, first=50)
    three_trials = await _cases_statements(backend, trials=3, first=50)
    assert len(small) == len(fifty) == len(three_trials), (small, fifty)
