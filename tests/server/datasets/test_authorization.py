"""Every dataset operation × every role, another workspace's ids, and no token."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import pytest

from bench.kit.factories import WorkspaceFixture, dataset_cases, make_dataset, make_workspace
from bench.kit.harness import Backend
from server.workspaces.roles import Role
from tests.server.datasets.api import (
    APPEND,
    DISCARD,
    SEAL,
    append,
    create_dataset,
    open_version,
)

Variables = Callable[[Backend, WorkspaceFixture], Awaitable[dict[str, Any]]]


async def _no_variables(_backend: Backend, _ws: WorkspaceFixture) -> dict[str, Any]:
    return {}


async def _sealed_dataset(backend: Backend, ws: WorkspaceFixture) -> dict[str, Any]:
    version = await make_dataset(backend.sessionmaker, ws, cases=3)
    return {"id": version.asset_id}


async def _open_version(backend: Backend, ws: WorkspaceFixture) -> dict[str, Any]:
    version_id = await open_version(backend, ws.owner, await create_dataset(backend, ws.owner))
    return {"id": version_id}


async def _chunk_for_open_version(backend: Backend, ws: WorkspaceFixture) -> dict[str, Any]:
    return {**await _open_version(backend, ws), "cases": dataset_cases(2)}


async def _filled_open_version(backend: Backend, ws: WorkspaceFixture) -> dict[str, Any]:
    variables = await _open_version(backend, ws)
    (await append(backend, ws.owner, variables["id"], dataset_cases(2))).ok()
    return variables


@dataclass(frozen=True)
class Operation:
    name: str
    document: str
    lowest_role: Role
    variables: Variables = _no_variables


OPERATIONS = [
    Operation("datasets", "{ datasets { totalCount edges { node { id } } } }", Role.VIEWER),
    Operation(
        "dataset",
        "query($id: ID!) { dataset(id: $id) { id versions { caseCount holdoutLooks "
        "cases(first: 2) { totalCount } } latestVersion { id } } }",
        Role.VIEWER,
        _sealed_dataset,
    ),
    Operation(
        "createDataset", 'mutation { createDataset(input: {name: "d"}) { id } }', Role.MEMBER
    ),
    Operation(
        "openDatasetVersion",
        "mutation($id: ID!) { openDatasetVersion(datasetId: $id) { id } }",
        Role.MEMBER,
        _sealed_dataset,
    ),
    Operation("appendDatasetCases", APPEND, Role.MEMBER, _chunk_for_open_version),
    Operation("sealDatasetVersion", SEAL, Role.MEMBER, _filled_open_version),
    Operation("discardDatasetVersion", DISCARD, Role.MEMBER, _open_version),
]


@pytest.mark.parametrize("role", list(Role), ids=lambda r: r.value)
@pytest.mark.parametrize("operation", OPERATIONS, ids=lambda o: o.name)
async def test_each_role_is_allowed_exactly_from_the_lowest_role(
    backend: Backend, operation: Operation, role: Role
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    variables = await operation.variables(backend, ws)
    result = await backend.gql(operation.document, variables, token=ws.tokens[role])
    if role.at_least(operation.lowest_role):
        assert result.errors == []
        assert result.data is not None
    else:
        assert result.codes == ["FORBIDDEN"]
        assert result.data is None


@pytest.mark.parametrize("operation", OPERATIONS, ids=lambda o: o.name)
async def test_no_token_is_unauthenticated(backend: Backend, operation: Operation) -> None:
    ws = await make_workspace(backend.sessionmaker)
    variables = await operation.variables(backend, ws)
    assert (await backend.gql(operation.document, variables)).codes == ["UNAUTHENTICATED"]
    bad_token = await backend.gql(operation.document, variables, token="sw_not-a-token")
    assert bad_token.codes == ["UNAUTHENTICATED"]


CROSS_WORKSPACE = [op for op in OPERATIONS if op.variables is not _no_variables]


@pytest.mark.parametrize("operation", CROSS_WORKSPACE, ids=lambda o: o.name)
async def test_another_workspaces_dataset_is_not_found(
    backend: Backend, operation: Operation
) -> None:
    theirs = await make_workspace(backend.sessionmaker, name="theirs")
    ours = await make_workspace(backend.sessionmaker)
    variables = await operation.variables(backend, theirs)
    result = await backend.gql(operation.document, variables, token=ours.owner)
    assert result.codes == ["NOT_FOUND"]
    assert result.data is None


async def test_another_workspaces_datasets_are_not_listed(backend: Backend) -> None:
    theirs = await make_workspace(backend.sessionmaker, name="theirs")
    ours = await make_workspace(backend.sessionmaker)
    await make_dataset(backend.sessionmaker, theirs, cases=1, name="secret")
    listed = await backend.gql("{ datasets { edges { node { name } } } }", token=ours.owner)
    assert "secret" not in [e["node"]["name"] for e in listed.ok()["datasets"]["edges"]]
