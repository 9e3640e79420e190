"""Experiments: create, list, unique names per workspace, roles, bad input, created on demand."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import func, select

from bench.kit.factories import actor_for, make_experiment, make_workspace
from bench.kit.harness import Backend
from server.audit.models import AuditEvent
from server.errors import Conflict, Forbidden
from server.experiments import service
from server.experiments.models import Experiment
from server.workspaces.roles import Role

CREATE = """
mutation($input: CreateExperimentInput!) {
  createExperiment(input: $input) { id name dailyBudgetCents createdAt }
}"""
LIST = """
query($first: Int, $after: String) {
  experiments(first: $first, after: $after) {
    totalCount pageInfo { hasNextPage endCursor } edges { node { id name dailyBudgetCents } }
  }
}"""


async def _counts(backend: Backend, workspace_id: str) -> tuple[int, int]:
    async with backend.sessionmaker() as session:
        experiments = (
            await session.execute(
                select(func.count())
                .select_from(Experiment)
                .where(Experiment.workspace_id == workspace_id)
            )
        ).scalar_one()
        events = (
            await session.execute(
                select(func.count())
                .select_from(AuditEvent)
                .where(AuditEvent.workspace_id == workspace_id)
            )
        ).scalar_one()
    return experiments, events


async def test_create_then_list(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    made = await backend.gql(
        CREATE, {"input": {"name": " search ", "dailyBudgetCents": 0.01}}, token=ws.owner
    )
    created = made.ok()["createExperiment"]
    assert created["name"] == "search"
    assert created["dailyBudgetCents"] == 0.01
    async with backend.sessionmaker() as session:
        row = await session.get(Experiment, created["id"])
    assert row is not None and row.daily_budget_micros == 100
    unbudgeted = await backend.gql(CREATE, {"input": {"name": "chat"}}, token=ws.owner)
    assert unbudgeted.ok()["createExperiment"]["dailyBudgetCents"] is None

    listed = (await backend.gql(LIST, token=ws.tokens[Role.VIEWER])).ok()["experiments"]
    assert listed["totalCount"] == 2
    ids = [e["node"]["id"] for e in listed["edges"]]
    assert ids == sorted(ids)  # keyset order
    assert {e["node"]["name"] for e in listed["edges"]} == {"search", "chat"}
    events = '{ auditEvents(action: "experiment.create") { edges { node { targetId details } } } }'
    found = (await backend.gql(events, token=ws.owner)).ok()["auditEvents"]["edges"]
    assert [e["node"] for e in found][-1] == {
        "targetId": created["id"],
        "details": {"name": "search", "dailyBudgetCents": 0.01, "onDemand": False},
    }


async def test_a_duplicate_name_is_a_conflict_that_writes_nothing(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    await make_experiment(backend.sessionmaker, ws, name="search")
    before = await _counts(backend, ws.id)
    result = await backend.gql(
        CREATE, {"input": {"name": "search", "dailyBudgetCents": 5}}, token=ws.tokens[Role.MEMBER]
    )
    assert result.codes == ["CONFLICT"]
    assert result.errors[0]["extensions"]["field"] == "name"
    assert await _counts(backend, ws.id) == before


async def test_names_are_unique_per_workspace_only(backend: Backend) -> None:
    ours = await make_workspace(backend.sessionmaker)
    theirs = await make_workspace(backend.sessionmaker, name="other")
    await make_experiment(backend.sessionmaker, theirs, name="search")
    result = await backend.gql(CREATE, {"input": {"name": "search"}}, token=ours.owner)
    assert result.ok()["createExperiment"]["name"] == "search"
    listed = (await backend.gql(LIST, token=ours.owner)).ok()["experiments"]
    assert listed["totalCount"] == 1


async def test_experiments_are_paginated(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    for i in range(3):
        await make_experiment(backend.sessionmaker, ws, name=f"e{i}")
    page = (await backend.gql(LIST, {"first": 2}, token=ws.owner)).ok()["experiments"]
    assert page["pageInfo"]["hasNextPage"] is True
    after = page["pageInfo"]["endCursor"]
    rest = (await backend.gql(LIST, {"first": 2, "after": after}, token=ws.owner)).ok()
    names = [e["node"]["name"] for e in page["edges"] + rest["experiments"]["edges"]]
    assert sorted(names) == ["e0", "e1", "e2"]
    assert rest["experiments"]["pageInfo"]["hasNextPage"] is False


@pytest.mark.parametrize("role", list(Role), ids=lambda r: r.value)
async def test_members_and_up_create_and_everyone_reads(backend: Backend, role: Role) -> None:
    ws = await make_workspace(backend.sessionmaker)
    result = await backend.gql(CREATE, {"input": {"name": "x"}}, token=ws.tokens[role])
    listed = (await backend.gql(LIST, token=ws.tokens[role])).ok()["experiments"]
    if role.at_least(Role.MEMBER):
        assert result.ok()["createExperiment"]["name"] == "x"
        assert listed["totalCount"] == 1
    else:
        assert result.codes == ["FORBIDDEN"]
        assert listed["totalCount"] == 0


async def test_no_token_is_unauthenticated(backend: Backend) -> None:
    assert (await backend.gql(LIST)).codes == ["UNAUTHENTICATED"]
    assert (await backend.gql(CREATE, {"input": {"name": "x"}})).codes == ["UNAUTHENTICATED"]


@pytest.mark.parametrize(
    ("variables", "field"),
    [
        pytest.param({"name": ""}, "name", id="empty-name"),
        pytest.param({"name": "n" * 201}, "name", id="oversized-name"),
        pytest.param({"name": "x", "dailyBudgetCents": -1}, "dailyBudgetCents", id="negative"),
        pytest.param({"name": "x", "dailyBudgetCents": 1e15}, "dailyBudgetCents", id="absurd"),
        pytest.param({"name": "x", "dailyBudgetCents": "lots"}, None, id="not-a-number"),
        pytest.param({"dailyBudgetCents": 5}, None, id="missing-name"),
    ],
)
async def test_bad_input_writes_nothing(
    backend: Backend, variables: dict[str, Any], field: str | None
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    before = await _counts(backend, ws.id)
    result = await backend.gql(CREATE, {"input": variables}, token=ws.owner)
    assert result.codes == ["VALIDATION_FAILED"]
    if field is not None:
        assert result.errors[0]["extensions"]["field"] == field
    assert await _counts(backend, ws.id) == before


async def test_get_or_create_by_name_creates_once(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    async with backend.sessionmaker() as session, session.begin():
        first = await service.get_or_create_by_name(
            session=session, actor=actor_for(ws, Role.MEMBER), name="qa-dataset"
        )
        again = await service.get_or_create_by_name(
            session=session, actor=actor_for(ws), name=" qa-dataset "
        )
    assert again.id == first.id
    assert first.daily_budget_micros is None
    listed = (await backend.gql(LIST, token=ws.owner)).ok()["experiments"]
    assert [e["node"]["id"] for e in listed["edges"]] == [first.id]
    events = '{ auditEvents(action: "experiment.create") { edges { node { details } } } }'
    details = (await backend.gql(events, token=ws.owner)).ok()["auditEvents"]["edges"]
    assert [d["node"]["details"]["onDemand"] for d in details] == [True]


async def test_get_or_create_by_name_finds_an_existing_one(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    existing = await make_experiment(backend.sessionmaker, ws, name="search", daily_budget_cents=3)
    async with backend.sessionmaker() as session, session.begin():
        found = await service.get_or_create_by_name(
            session=session, actor=actor_for(ws, Role.MEMBER), name="search"
        )
    assert found.id == existing.id
    assert found.daily_budget_micros == 30_000


async def test_get_or_create_by_name_needs_a_member(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    with pytest.raises(Forbidden):
        async with backend.sessionmaker() as session, session.begin():
            await service.get_or_create_by_name(
                session=session, actor=actor_for(ws, Role.VIEWER), name="x"
            )
    assert (await _counts(backend, ws.id))[0] == 0


async def test_a_name_taken_inside_the_transaction_keeps_it_usable(backend: Backend) -> None:
    """The unique-name insert runs in a savepoint: a clash leaves the caller's work intact."""
    ws = await make_workspace(backend.sessionmaker)
    await make_experiment(backend.sessionmaker, ws, name="taken")
    async with backend.sessionmaker() as session, session.begin():
        kept = await service.create(session=session, actor=actor_for(ws), name="kept")
        with pytest.raises(Conflict, match="already exists"):
            await service.create(session=session, actor=actor_for(ws), name="taken")
        later = await service.create(session=session, actor=actor_for(ws), name="later")
    listed = (await backend.gql(LIST, token=ws.owner)).ok()["experiments"]["edges"]
    assert {e["node"]["name"] for e in listed} == {"taken", "kept", "later"}
    assert kept.id != later.id
