"""The case-debug view: filters by baseline (pass fraction) or by the failure analysis,
keyset pages, and each cohort's trials with their checks, latency, tokens and cost."""

from __future__ import annotations

from typing import Any

import pytest

from bench.kit.factories import make_workspace
from bench.kit.harness import Backend
from bench.kit.scenarios import finalized, scripted_setup
from server.workspaces.roles import Role

# 3 cohorts × 24 cases × 2 trials; E is an errored trial (failed or missing).
CANDIDATE = ["PP"] * 12 + ["PF"] * 4 + ["FF"] * 4 + ["PE"] * 4
BASELINE_1 = ["PP"] * 8 + ["FF"] * 4 + ["PP"] * 12
BASELINE_2 = ["PF"] * 24

CASES = """
query($id: ID!, $filter: CaseFilter, $baseline: Int, $first: Int, $after: String) {
  comparison(id: $id) {
    cases(filter: $filter, baselineCohortIndex: $baseline, first: $first, after: $after) {
      totalCount pageInfo { hasNextPage endCursor }
      edges { node {
        ordinal datasetItemId input expected classification baselineCohortIndex
        latencyDeltaMs costDeltaCents
        cohorts { cohortIndex passed passFraction score
          trials { trialIndex passed output checks { kind passed score } latencyMs
                   inputTokens outputTokens costCents errorCode } }
      } }
    } } }
"""


async def _cases(
    backend: Backend, token: str, comparison_id: str, **variables: Any
) -> dict[str, Any]:
    result = await backend.gql(CASES, {"id": comparison_id, **variables}, token=token)
    cases: dict[str, Any] = result.ok()["comparison"]["cases"]
    return cases


def _ordinals(page: dict[str, Any]) -> list[int]:
    return [edge["node"]["ordinal"] for edge in page["edges"]]


@pytest.fixture
async def finalized_cases(backend: Backend) -> tuple[str, str, dict[str, Any]]:
    ws = await make_workspace(backend.sessionmaker)
    setup = await scripted_setup(
        backend.sessionmaker,
        ws,
        [CANDIDATE, BASELINE_1, BASELINE_2],
        output_cents_per_million_tokens=1_000_000.0,
        latency_ms=[5, 15, 5],
    )
    comparison_id, comparison = await finalized(backend, setup, trialsPerCase=2)
    return ws.tokens[Role.VIEWER], comparison_id, comparison


async def test_filters_follow_the_baseline_or_the_failure_analysis(
    backend: Backend, finalized_cases: tuple[str, str, dict[str, Any]]
) -> None:
    token, comparison_id, comparison = finalized_cases
    verdicts = comparison["scorecard"]["verdicts"]
    # vs baseline 1: worse where the candidate's fraction is lower, better where higher.
    worse_1 = list(range(12, 20))  # PF and FF below PP
    better_1 = list(range(8, 12))  # PP above FF
    worse_2 = list(range(16, 20))  # FF below PF
    better_2 = list(range(0, 12)) + list(range(20, 24))  # PP and PE (1 of 1) above PF
    expected = {1: (worse_1, better_1), 2: (worse_2, better_2)}
    for baseline, (worse, better) in expected.items():
        regressions = await _cases(backend, token, comparison_id, baseline=baseline, first=50)
        improvements = await _cases(
            backend, token, comparison_id, baseline=baseline, filter="IMPROVEMENTS", first=50
        )
        diverged = await _cases(
            backend, token, comparison_id, baseline=baseline, filter="DIVERGED", first=50
        )
        assert _ordinals(regressions) == worse
        assert _ordinals(improvements) == better
        assert _ordinals(diverged) == sorted(worse + better)
        verdict = verdicts[baseline - 1]
        assert regressions["totalCount"] == verdict["worseCount"] == len(worse)
        assert improvements["totalCount"] == verdict["betterCount"] == len(better)
    # Without a baseline: the failure analysis on majority outcomes (PF counts as a fail).
    # Candidate passes 0–11 and 20–23 (PE: 1 of 1); baseline 1 fails 8–11, baseline 2 fails all.
    default = await _cases(backend, token, comparison_id, first=50)
    assert _ordinals(default) == list(range(12, 20))  # REGRESSED: baseline 1 passed
    improved = await _cases(backend, token, comparison_id, filter="IMPROVEMENTS", first=50)
    assert _ordinals(improved) == list(range(0, 12)) + list(range(20, 24))
    everything = await _cases(backend, token, comparison_id, filter="ALL", first=50)
    assert everything["totalCount"] == 24
    classes = {e["node"]["ordinal"]: e["node"]["classification"] for e in everything["edges"]}
    assert {classes[i] for i in range(12, 20)} == {"REGRESSED"}
    assert {classes[i] for i in list(range(12)) + list(range(20, 24))} == {"IMPROVED"}
    analysis = comparison["scorecard"]["failureAnalysis"]
    assert analysis == {"improved": 16, "regressed": 8, "bothWrong": 0, "agree": 0}


async def test_pages_and_trial_details(
    backend: Backend, finalized_cases: tuple[str, str, dict[str, Any]]
) -> None:
    token, comparison_id, _ = finalized_cases
    seen: list[int] = []
    after = None
    while True:
        page = await _cases(backend, token, comparison_id, filter="ALL", first=5, after=after)
        seen.extend(_ordinals(page))
        if not page["pageInfo"]["hasNextPage"]:
            break
        after = page["pageInfo"]["endCursor"]
    assert seen == list(range(24))

    page = await _cases(backend, token, comparison_id, filter="ALL", first=1, after=None)
    case = page["edges"][0]["node"]
    assert (case["datasetItemId"], case["input"], case["expected"]) == (
        "q-000",
        {"question": "What is 000 + 000?"},
        "0",
    )
    assert case["baselineCohortIndex"] == 1
    # Candidate answers "0" (1 token, 1 cent) at 5 ms; baseline 1 the same at 15 ms.
    assert (case["latencyDeltaMs"], case["costDeltaCents"]) == (-10.0, 0.0)
    candidate = case["cohorts"][0]
    assert (candidate["passed"], candidate["passFraction"], candidate["score"]) == (True, 1.0, 1.0)
    trial = candidate["trials"][0]
    assert trial == {
        "trialIndex": 0,
        "passed": True,
        "output": "0",
        "checks": [{"kind": "CONTAINS", "passed": True, "score": 1.0}],
        "latencyMs": 5,
        "inputTokens": trial["inputTokens"],
        "outputTokens": 1,
        "costCents": 1.0,
        "errorCode": None,
    }
    assert trial["inputTokens"] > 0

    # An errored trial: no pass, no checks, its code; the case counts its completed trial.
    vs_2 = await _cases(backend, token, comparison_id, baseline=2, filter="IMPROVEMENTS", first=50)
    errored = next(e["node"] for e in vs_2["edges"] if e["node"]["ordinal"] == 20)
    cohort = errored["cohorts"][0]
    assert (cohort["passed"], cohort["passFraction"]) == (True, 1.0)
    assert cohort["trials"][1]["passed"] is None
    assert cohort["trials"][1]["errorCode"] == "simulated_error"
    assert cohort["trials"][1]["checks"] == []
    assert errored["baselineCohortIndex"] == 2


async def test_bad_baseline_and_other_workspaces(
    backend: Backend, finalized_cases: tuple[str, str, dict[str, Any]]
) -> None:
    token, comparison_id, _ = finalized_cases
    for baseline in (0, 3):
        result = await backend.gql(CASES, {"id": comparison_id, "baseline": baseline}, token=token)
        assert result.codes == ["VALIDATION_FAILED"]
    stranger = await make_workspace(backend.sessionmaker, name="other")
    result = await backend.gql(CASES, {"id": comparison_id}, token=stranger.owner)
    assert result.codes == ["NOT_FOUND"]


FRAGMENTS = """
query($id: ID!) { comparison(id: $id) { cases(filter: ALL, first: 2) { edges { node {
  ...Case } } } } }
fragment Case on ComparisonCase { ordinal input cohorts { ... on CaseCohort { ...Trials } } }
fragment Trials on CaseCohort { cohortIndex trials { trialIndex passed } }
"""


async def test_trials_and_inputs_asked_for_through_fragments_are_there(
    backend: Backend, finalized_cases: tuple[str, str, dict[str, Any]]
) -> None:
    token, comparison_id, _ = finalized_cases
    result = await backend.gql(FRAGMENTS, {"id": comparison_id}, token=token)
    nodes = [e["node"] for e in result.ok()["comparison"]["cases"]["edges"]]
    assert [n["ordinal"] for n in nodes] == [0, 1]
    assert all(n["input"] is not None for n in nodes)
    assert [[len(c["trials"]) for c in n["cohorts"]] for n in nodes] == [[2, 2, 2], [2, 2, 2]]
    assert nodes[0]["cohorts"][0]["trials"][0] == {"trialIndex": 0, "passed": True}
