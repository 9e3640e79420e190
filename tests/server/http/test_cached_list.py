"""A polled page of comparisons is answered from the response cache for one statement
while nothing it shows has changed, and runs again as soon as anything has: a recorded
batch, a cohort's state, a new comparison, a renamed experiment, the clock under a
running comparison's `etaSeconds`."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from sqlalchemy import update

from bench.kit.factories import (
    ComparisonSetup,
    make_comparison,
    make_comparison_setup,
    make_workspace,
)
from bench.kit.harness import Backend
from bench.kit.statements import counting_statements
from bench.kit.waiting import eventually
from server.comparisons.models import CohortState, Comparison, ComparisonCohort, ComparisonStatus
from server.db import utcnow
from server.experiments.models import Experiment
from server.workspaces.roles import Role

LIST = """
query($first: Int) { comparisons(first: $first) {
  totalCount pageInfo { hasNextPage endCursor }
  edges { cursor node {
    id label status trialsPerCase caseCount createdAt endedAt verdictState
    cohorts { cohortIndex kind label isCandidate passRate }
    progress { seq status doneCalls totalCalls failedCalls percent etaSeconds
               spentCentsSoFar cohorts { cohortIndex state } }
    experiment { id name }
    datasetVersion { id number caseCount }
  } } } }
"""
UNCACHED = LIST.replace("totalCount pageInfo", "__typename totalCount pageInfo")


async def _workspace(backend: Backend, count: int = 3) -> tuple[str, ComparisonSetup, list[str]]:
    ws = await make_workspace(backend.sessionmaker)
    setup = await make_comparison_setup(backend.sessionmaker, ws, cases=2)
    ids = [await make_comparison(backend.sessionmaker, setup, trials=1) for _ in range(count)]
    async with backend.sessionmaker() as session, session.begin():
        await session.execute(
            update(Comparison)
            .where(Comparison.id.in_(ids))
            .values(status=ComparisonStatus.DONE, ended_at=utcnow())
        )
    return ws.tokens[Role.VIEWER], setup, ids


async def _page(
    backend: Backend, token: str, query: str = LIST
) -> tuple[dict[str, Any], list[str]]:
    with counting_statements(backend) as seen:
        result = await backend.gql(query, {"first": 20}, token=token)
    assert not result.errors, result.errors
    return result.data["comparisons"], [s for s in seen if not s.startswith("BEGIN")]


async def _node(backend: Backend, token: str, comparison_id: str) -> dict[str, Any]:
    page, _ = await _page(backend, token)
    node: dict[str, Any] = next(
        e["node"] for e in page["edges"] if e["node"]["id"] == comparison_id
    )
    return node


async def test_a_repeated_page_costs_one_statement_and_equals_the_uncached_answer(
    backend: Backend,
) -> None:
    token, _, _ = await _workspace(backend)
    first, ran = await _page(backend, token)
    again, kept = await _page(backend, token)
    uncached, _ = await _page(backend, token, UNCACHED)
    assert first["totalCount"] == 3 and again == first
    assert {k: v for k, v in uncached.items() if k != "__typename"} == first
    assert len(kept) == 1, kept  # the page with its joins, its total and its cohorts
    assert len(ran) > len(kept), ran


async def test_a_recorded_batch_or_a_cohorts_state_changes_the_page(backend: Backend) -> None:
    token, _, ids = await _workspace(backend)
    await _page(backend, token)
    async with backend.sessionmaker() as session, session.begin():  # as dispatch records
        await session.execute(
            update(Comparison)
            .where(Comparison.id == ids[0])
            .values(seq=Comparison.seq + 1, done_calls=3, progress_at=utcnow())
        )
    progress = (await _node(backend, token, ids[0]))["progress"]
    assert progress["doneCalls"] == 3 and progress["seq"] == 1
    async with backend.sessionmaker() as session, session.begin():  # no `seq` moves
        await session.execute(
            update(ComparisonCohort)
            .where(ComparisonCohort.comparison_id == ids[1], ComparisonCohort.cohort_index == 1)
            .values(state=CohortState.DONE)
        )
    cohorts = (await _node(backend, token, ids[1]))["progress"]["cohorts"]
    assert [c["state"] for c in cohorts] == ["STOPPED", "DONE"]


async def test_a_new_comparison_or_a_renamed_experiment_changes_the_page(
    backend: Backend,
) -> None:
    token, setup, ids = await _workspace(backend)
    await _page(backend, token)
    added = await make_comparison(backend.sessionmaker, setup, trials=1)
    page, _ = await _page(backend, token)
    assert page["totalCount"] == 4 and page["edges"][0]["node"]["id"] == added
    experiment_id = page["edges"][0]["node"]["experiment"]["id"]
    async with backend.sessionmaker() as session, session.begin():
        await session.execute(
            update(Experiment).where(Experiment.id == experiment_id).values(name="renamed")
        )
    assert (await _node(backend, token, ids[0]))["experiment"]["name"] == "renamed"


async def test_a_running_comparisons_eta_moves_with_the_clock(backend: Backend) -> None:
    token, _, ids = await _workspace(backend, count=1)
    async with backend.sessionmaker() as session, session.begin():
        await session.execute(
            update(Comparison)
            .where(Comparison.id == ids[0])
            .values(
                status=ComparisonStatus.RUNNING,
                ended_at=None,
                started_at=utcnow() - timedelta(seconds=10),
                done_calls=10,
                total_calls=100,
            )
        )
    before = (await _node(backend, token, ids[0]))["progress"]["etaSeconds"]
    assert 90 <= before, before
    # Time passes with no write: the kept answer still shows a later ETA.
    await eventually(
        lambda: _node(backend, token, ids[0]),
        until=lambda node: node["progress"]["etaSeconds"] > before,
        timeout=5,
        what="a later ETA",
    )


async def test_another_workspace_never_gets_the_kept_page(backend: Backend) -> None:
    token, _, _ = await _workspace(backend)
    other = await make_workspace(backend.sessionmaker, name="other")
    await _page(backend, token)
    page, _ = await _page(backend, other.tokens[Role.VIEWER])
    assert page["totalCount"] == 0 and page["edges"] == []


async def test_pages_after_a_cursor_or_of_one_status_are_each_their_own(
    backend: Backend,
) -> None:
    token, _, ids = await _workspace(backend)
    async with backend.sessionmaker() as session, session.begin():
        await session.execute(
            update(Comparison).where(Comparison.id == ids[0]).values(status=ComparisonStatus.FAILED)
        )
    query = """
    query($after: String, $status: ComparisonStatus) {
      comparisons(first: 1, after: $after, status: $status) {
        totalCount pageInfo { hasNextPage endCursor } edges { node { id status } } } }
    """

    async def page(variables: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
        with counting_statements(backend) as seen:
            result = await backend.gql(query, variables, token=token)
        return result.ok()["comparisons"], [s for s in seen if not s.startswith("BEGIN")]

    first, _ = await page({})
    cursor = first["pageInfo"]["endCursor"]
    second, _ = await page({"after": cursor})
    done, _ = await page({"status": "DONE"})
    for variables, expected in (
        ({}, first),
        ({"after": cursor}, second),
        ({"status": "DONE"}, done),
    ):
        again, kept = await page(variables)
        assert again == expected and len(kept) == 1, kept
    assert [first["totalCount"], second["totalCount"], done["totalCount"]] == [3, 3, 2]
    assert first["edges"] != second["edges"]
    assert {e["node"]["status"] for e in done["edges"]} == {"DONE"}
    refused = await backend.gql(query, {"after": "not-a-cursor"}, token=token)
    assert refused.codes == ["VALIDATION_FAILED"]
