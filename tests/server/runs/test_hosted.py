"""Hosted runs, as finalization writes them, diff like imported ones."""

from __future__ import annotations

import pytest

from bench.kit.factories import make_workspace
from bench.kit.harness import Backend
from bench.kit.scenarios import finalized, scripted_setup
from server.runs import diff as run_diff
from tests.server.runs.api import diff
from tests.server.runs.test_diff import mid_p

RUNS = """query($id: ID!) { comparison(id: $id) { experiment { id } } }"""
LIST = """query($e: ID!) { runs(experimentId: $e) {
  edges { node { id source status itemCount cohortIndex } } } }"""


async def test_a_finalized_comparisons_runs_diff_item_by_item(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    # 24 cases, one trial: the baseline passes cases 0-19, the candidate 0-13 and 20-21.
    candidate = "P" * 14 + "F" * 6 + "PP" + "FF"
    baseline = "P" * 20 + "FFFF"
    setup = await scripted_setup(backend.sessionmaker, ws, [list(candidate), list(baseline)])
    comparison_id, comparison = await finalized(backend, setup, trialsPerCase=1)
    experiment = (await backend.gql(RUNS, {"id": comparison_id}, token=ws.owner)).ok()
    listing = await backend.gql(
        LIST, {"e": experiment["comparison"]["experiment"]["id"]}, token=ws.owner
    )
    runs = {e["node"]["cohortIndex"]: e["node"] for e in listing.ok()["runs"]["edges"]}
    assert {r["source"] for r in runs.values()} == {"HOSTED"}
    assert {r["status"] for r in runs.values()} == {"COMPLETED"}
    summary = (await diff(backend, ws.owner, runs[0]["id"], runs[1]["id"])).ok()["runDiff"][
        "summary"
    ]
    assert summary["pairing"] == "DATASET_ITEM_ID" and summary["pairedCount"] == 24
    assert (summary["regressedCount"], summary["improvedCount"]) == (6, 2)
    assert summary["passRateDelta"] == pytest.approx(-4 / 24)
    assert summary["method"] == "MCNEMAR_MID_P"
    assert summary["pValue"] == pytest.approx(mid_p(2, 6))
    verdict = comparison["scorecard"]["verdicts"][0]
    assert verdict["passRateDeltaPoints"] == pytest.approx(100 * summary["passRateDelta"])
    async with backend.sessionmaker() as session:
        against = await run_diff.diff_against_previous(
            session=session, workspace_id=ws.id, run_id=runs[0]["id"]
        )
    assert against is None  # hosted runs never alert
