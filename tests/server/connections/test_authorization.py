"""Who may read, create and check model connections; other workspaces' ids are NOT_FOUND."""

from __future__ import annotations

import pytest

from bench.kit.factories import make_connection, make_workspace
from bench.kit.harness import Backend
from server.workspaces.roles import Role

LIST = "{ modelConnections { totalCount edges { node { id simulated } } } }"
CREATE = 'mutation { createModelConnection(input: {name: "sim", kind: SIMULATED}) { id status } }'
CHECK = "mutation($id: ID!) { checkModelConnection(id: $id) { id status } }"


@pytest.mark.parametrize("role", list(Role), ids=lambda r: r.value)
async def test_every_role_reads_connections(backend: Backend, role: Role) -> None:
    ws = await make_workspace(backend.sessionmaker)
    made = await make_connection(backend.sessionmaker, ws)
    listed = (await backend.gql(LIST, token=ws.tokens[role])).ok()["modelConnections"]
    assert listed["totalCount"] == 1
    assert listed["edges"][0]["node"] == {"id": made.id, "simulated": True}


@pytest.mark.parametrize("role", list(Role), ids=lambda r: r.value)
async def test_only_admins_and_owners_create_connections(backend: Backend, role: Role) -> None:
    ws = await make_workspace(backend.sessionmaker)
    result = await backend.gql(CREATE, token=ws.tokens[role])
    count = (await backend.gql(LIST, token=ws.owner)).ok()["modelConnections"]["totalCount"]
    if role.at_least(Role.ADMIN):
        assert result.ok()["createModelConnection"]["status"] == "READY"
        assert count == 1
    else:
        assert result.codes == ["FORBIDDEN"]
        assert "ADMIN" in result.errors[0]["message"]
        assert count == 0


@pytest.mark.parametrize("role", list(Role), ids=lambda r: r.value)
async def test_only_admins_and_owners_check_connections(backend: Backend, role: Role) -> None:
    ws = await make_workspace(backend.sessionmaker)
    made = await make_connection(backend.sessionmaker, ws)
    result = await backend.gql(CHECK, {"id": made.id}, token=ws.tokens[role])
    if role.at_least(Role.ADMIN):
        assert result.ok()["checkModelConnection"] == {"id": made.id, "status": "READY"}
    else:
        assert result.codes == ["FORBIDDEN"]


async def test_another_workspaces_connection_is_not_found_and_not_listed(
    backend: Backend,
) -> None:
    ours = await make_workspace(backend.sessionmaker)
    theirs = await make_workspace(backend.sessionmaker, name="other")
    their_connection = await make_connection(backend.sessionmaker, theirs, name="theirs")
    result = await backend.gql(CHECK, {"id": their_connection.id}, token=ours.owner)
    assert result.codes == ["NOT_FOUND"]
    assert result.data is None
    unknown = await backend.gql(CHECK, {"id": "conn_doesnotexist"}, token=ours.owner)
    assert unknown.codes == ["NOT_FOUND"]
    listed = (await backend.gql(LIST, token=ours.owner)).ok()["modelConnections"]
    assert listed["totalCount"] == 0
    events = '{ auditEvents(action: "connection.check") { totalCount } }'
    assert (await backend.gql(events, token=theirs.owner)).ok()["auditEvents"]["totalCount"] == 0


@pytest.mark.parametrize("document", [LIST, CREATE], ids=["list", "create"])
async def test_no_token_is_unauthenticated(backend: Backend, document: str) -> None:
    assert (await backend.gql(document)).codes == ["UNAUTHENTICATED"]
