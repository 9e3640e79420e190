"""The portal's own documents (sent by their persisted hash, as the portal sends them) cost
a fixed number of SQL statements: the comparisons page for 5 or 20 rows, a running
comparison's page for a small or a large run, and a finalized comparison's page for 10 or 50
regressions."""

from __future__ import annotations

from typing import Any

from bench.kit.factories import make_comparison_setup, make_workspace
from bench.kit.harness import Backend
from bench.kit.scenarios import finalized, scripted_setup
from bench.kit.statements import counting_statements
from server.workspaces.roles import Role
from tests.server.running_comparisons import running_comparison


def _reads(statements: list[str]) -> list[str]:
    """The statements less SQLite's BEGINs (it begins every session)."""
    return [s for s in statements if not s.startswith("BEGIN")]


async def _list_statements(backend: Backend, *, rows: int) -> list[str]:
    ws = await make_workspace(backend.sessionmaker)
    setup = await make_comparison_setup(backend.sessionmaker, ws, cases=6)
    for index in range(rows):
        await running_comparison(backend, setup, recorded=index % 6)
    variables = {"first": 20}
    with counting_statements(backend) as seen:
        page = await backend.portal("ComparisonsList", variables, token=ws.tokens[Role.VIEWER])
    edges = page.ok()["comparisons"]["edges"]
    assert [e["node"]["status"] for e in edges] == ["RUNNING"] * rows
    assert sorted(e["node"]["progress"]["doneCalls"] for e in edges) == sorted(
        4 * (i % 6) for i in range(rows)
    )
    return list(seen)


async def test_the_comparisons_page_costs_the_same_statements_for_5_or_20_running(
    backend: Backend,
) -> None:
    five = await _list_statements(backend, rows=5)
    twenty = await _list_statements(backend, rows=20)
    assert len(five) == len(twenty), (five, twenty)
    # The token, then the list's read: the page with its total, verdict rows and cohorts in
    # one statement (server/page_reads/comparisons_list.py); on PostgreSQL on the driver,
    # with no BEGIN to count either.
    assert len(_reads(twenty)) <= (1 if backend.name == "postgres" else 3), twenty


async def _running_page_statements(backend: Backend, *, cases: int) -> list[str]:
    ws = await make_workspace(backend.sessionmaker)
    setup = await make_comparison_setup(backend.sessionmaker, ws, cases=cases)
    comparison_id = await running_comparison(backend, setup, recorded=cases // 2)
    with counting_statements(backend) as seen:
        found = await backend.portal(
            "ComparisonPage", {"id": comparison_id}, token=ws.tokens[Role.VIEWER]
        )
    page = found.ok()["comparison"]
    assert page["status"] == "RUNNING"
    assert page["progress"]["doneCalls"] == 4 * (cases // 2)
    assert [c["state"] for c in page["progress"]["cohorts"]] == ["RUNNING", "RUNNING"]
    return list(seen)


async def test_a_running_comparisons_page_costs_the_same_statements_for_a_small_or_large_run(
    backend: Backend,
) -> None:
    small = await _running_page_statements(backend, cases=4)
    large = await _running_page_statements(backend, cases=40)
    assert len(small) == len(large), (small, large)
    # The token, the comparison's page read (`server.page_reads.comparison_page`: its
    # verdict, cohorts, experiment, dataset version and whether it has reports): it has
    # none. On PostgreSQL the same one statement on the driver.
    assert len(_reads(large)) <= (1 if backend.name == "postgres" else 2), large


FULL_TRIALS = """
query($id: ID!) { comparison(id: $id) {
  cases(filter: REGRESSIONS, baselineCohortIndex: 1, first: 10) { edges { node {
    cohorts { trials { trialIndex passed output checks { kind passed } } } } } } } }
"""


async def _counted(backend: Backend, name: str, variables: dict[str, Any], token: str) -> Any:
    with counting_statements(backend) as seen:
        data = (await backend.portal(name, variables, token=token)).ok()
    return data, list(seen)


async def test_a_finalized_comparisons_page_costs_the_same_statements_for_10_or_50_regressions(
    backend: Backend,
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    # The candidate fails 60 cases both baselines pass: 60 regressions against baseline 1.
    setup = await scripted_setup(backend.sessionmaker, ws, [["F"] * 60, ["P"] * 60, ["P"] * 60])
    comparison_id, _ = await finalized(backend, setup, trialsPerCase=1)
    token = ws.tokens[Role.VIEWER]
    (await backend.gql("{ me { role } }", token=token)).ok()  # the token is read once
    page: dict[int, list[str]] = {}
    regressions: dict[int, list[str]] = {}
    for first in (10, 50):
        data, page[first] = await _counted(backend, "ComparisonPage", {"id": comparison_id}, token)
        assert data["comparison"]["verdictState"] == "FINALIZED"
        variables = {"id": comparison_id, "filter": "REGRESSIONS", "baseline": 1, "first": first}
        data, regressions[first] = await _counted(backend, "ComparisonCases", variables, token)
        edges = data["comparison"]["cases"]["edges"]
        assert len(edges) == first
        assert {e["node"]["classification"] for e in edges} == {"REGRESSED"}
        assert [len(c["trials"]) for c in edges[0]["node"]["cohorts"]] == [1, 1, 1]
    # The portal shows no output or checks, so its trials are read without them: the same
    # trials as a full read, less those two fields.
    full = await backend.gql(FULL_TRIALS, {"id": comparison_id}, token=token)
    full_edges = full.ok()["comparison"]["cases"]["edges"]
    shown = [
        [[(t["trialIndex"], t["passed"]) for t in c["trials"]] for c in e["node"]["cohorts"]]
        for e in edges[:10]
    ]
    assert shown == [
        [[(t["trialIndex"], t["passed"]) for t in c["trials"]] for c in e["node"]["cohorts"]]
        for e in full_edges
    ]
    assert full_edges[0]["node"]["cohorts"][0]["trials"][0]["checks"], full_edges[0]
    assert len(page[10]) == len(page[50]), page
    assert len(regressions[10]) == len(regressions[50]), regressions
    assert len(_reads(page[50])) <= 1, page  # the comparison with its joins (no reports yet)
    # The response cache's stamp, the comparison with its cohort count, the page, its trials.
    assert len(_reads(regressions[50])) <= 4, regressions
    # The scorecard is one stored document: a fixed handful of statements.
    data, scorecard = await _counted(backend, "ComparisonScorecard", {"id": comparison_id}, token)
    assert data["comparison"]["scorecard"]["failureAnalysis"]["regressed"] == 60
    assert len(_reads(scorecard)) <= 2, scorecard  # the stamp, the comparison with its verdict
