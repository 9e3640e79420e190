"""Every tenancy operation × every role, other workspaces' ids, and missing or revoked tokens."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import pytest

from bench.kit.factories import WorkspaceFixture, make_workspace
from bench.kit.harness import Backend
from server.workspaces import service
from server.workspaces.roles import Actor, Role

Variables = Callable[[Backend, WorkspaceFixture], Awaitable[dict[str, Any]]]


async def _owner_actor(_backend: Backend, ws: WorkspaceFixture) -> Actor:
    return Actor(ws.id, ws.member_ids[Role.OWNER], "tok_test", Role.OWNER, 600)


async def _fresh_viewer(backend: Backend, ws: WorkspaceFixture) -> tuple[str, str]:
    """A new VIEWER member with a token: (member id, token id)."""
    actor = await _owner_actor(backend, ws)
    async with backend.sessionmaker() as session, session.begin():
        member = await service.add_member(
            session=session, actor=actor, name="target", email=None, role=Role.VIEWER
        )
        issued = await service.create_token(
            session=session, actor=actor, name="target", member_id=member.id
        )
    return member.id, issued.token.id


async def _no_variables(_backend: Backend, _ws: WorkspaceFixture) -> dict[str, Any]:
    return {}


async def _fresh_member_id(backend: Backend, ws: WorkspaceFixture) -> dict[str, Any]:
    member_id, _ = await _fresh_viewer(backend, ws)
    return {"id": member_id}


async def _fresh_token_id(backend: Backend, ws: WorkspaceFixture) -> dict[str, Any]:
    _, token_id = await _fresh_viewer(backend, ws)
    return {"id": token_id}


@dataclass(frozen=True)
class Operation:
    name: str
    document: str
    lowest_role: Role
    variables: Variables = _no_variables


OPERATIONS = [
    Operation("me", "{ me { role member { id } workspace { id } } }", Role.VIEWER),
    Operation(
        "workspace", "{ workspace { id name settings { maxRunningComparisons } } }", Role.VIEWER
    ),
    Operation(
        "members", "{ members(first: 10) { totalCount edges { node { id role } } } }", Role.VIEWER
    ),
    Operation("auditEvents", "{ auditEvents(first: 5) { totalCount } }", Role.VIEWER),
    Operation("workspace.tokens", "{ workspace { tokens { totalCount } } }", Role.VIEWER),
    Operation(
        "addMember", 'mutation { addMember(name: "new", role: MEMBER) { id role } }', Role.ADMIN
    ),
    Operation(
        "setMemberRole",
        "mutation($id: ID!) { setMemberRole(memberId: $id, role: MEMBER) { id role } }",
        Role.ADMIN,
        _fresh_member_id,
    ),
    Operation(
        "removeMember",
        "mutation($id: ID!) { removeMember(memberId: $id) { id } }",
        Role.ADMIN,
        _fresh_member_id,
    ),
    Operation(
        "createToken", 'mutation { createToken(name: "ci") { secret token { id } } }', Role.ADMIN
    ),
    Operation(
        "revokeToken",
        "mutation($id: ID!) { revokeToken(id: $id) { id revokedAt } }",
        Role.ADMIN,
        _fresh_token_id,
    ),
    Operation(
        "updateWorkspaceSettings",
        "mutation { updateWorkspaceSettings(input: {maxRunningComparisons: 3}) "
        "{ settings { maxRunningComparisons } } }",
        Role.ADMIN,
    ),
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
async def test_no_token_or_a_revoked_one_is_unauthenticated(
    backend: Backend, operation: Operation
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    variables = await operation.variables(backend, ws)
    assert (await backend.gql(operation.document, variables)).codes == ["UNAUTHENTICATED"]
    assert (await backend.gql(operation.document, variables, token="sw_not-a-token")).codes == [
        "UNAUTHENTICATED"
    ]
    admin = ws.tokens[Role.ADMIN]
    me = (await backend.gql("{ me { tokenId } }", token=admin)).ok()
    revoke = "mutation($id: ID!) { revokeToken(id: $id) { id } }"
    (await backend.gql(revoke, {"id": me["me"]["tokenId"]}, token=ws.owner)).ok()
    assert (await backend.gql(operation.document, variables, token=admin)).codes == [
        "UNAUTHENTICATED"
    ]


CROSS_WORKSPACE = [
    ("setMemberRole", "mutation($id: ID!) { setMemberRole(memberId: $id, role: VIEWER) { id } }"),
    ("removeMember", "mutation($id: ID!) { removeMember(memberId: $id) { id } }"),
    ("createToken", 'mutation($id: ID!) { createToken(name: "x", memberId: $id) { secret } }'),
]


@pytest.mark.parametrize(("name", "document"), CROSS_WORKSPACE, ids=lambda v: str(v)[:20])
async def test_another_workspaces_member_is_not_found(
    backend: Backend, name: str, document: str
) -> None:
    ours = await make_workspace(backend.sessionmaker)
    theirs = await make_workspace(backend.sessionmaker, name="other")
    result = await backend.gql(document, {"id": theirs.member_ids[Role.VIEWER]}, token=ours.owner)
    assert result.codes == ["NOT_FOUND"], name


async def test_another_workspaces_token_is_not_found_and_stays_valid(backend: Backend) -> None:
    ours = await make_workspace(backend.sessionmaker)
    theirs = await make_workspace(backend.sessionmaker, name="other")
    their_token_id = (await backend.gql("{ me { tokenId } }", token=theirs.owner)).ok()["me"][
        "tokenId"
    ]
    result = await backend.gql(
        "mutation($id: ID!) { revokeToken(id: $id) { id } }",
        {"id": their_token_id},
        token=ours.owner,
    )
    assert result.codes == ["NOT_FOUND"]
    assert (await backend.gql("{ me { role } }", token=theirs.owner)).ok()["me"]["role"] == "OWNER"


async def test_lists_show_only_the_callers_workspace(backend: Backend) -> None:
    ours = await make_workspace(backend.sessionmaker)
    theirs = await make_workspace(backend.sessionmaker, name="other")
    data = (
        await backend.gql("{ members(first: 50) { edges { node { id } } } }", token=ours.owner)
    ).ok()
    ids = {edge["node"]["id"] for edge in data["members"]["edges"]}
    assert ids == set(ours.member_ids.values())
    assert not ids & set(theirs.member_ids.values())
    events = (
        await backend.gql(
            "query($t: ID!) { auditEvents(targetId: $t) { totalCount } }",
            {"t": theirs.id},
            token=ours.owner,
        )
    ).ok()
    assert events["auditEvents"]["totalCount"] == 0


@pytest.mark.parametrize(
    ("document", "target_role"),
    [
        ("mutation($id: ID!) { setMemberRole(memberId: $id, role: VIEWER) { id } }", Role.ADMIN),
        ("mutation($id: ID!) { removeMember(memberId: $id) { id } }", Role.ADMIN),
        ("mutation($id: ID!) { removeMember(memberId: $id) { id } }", Role.OWNER),
        ('mutation($id: ID!) { createToken(name: "x", memberId: $id) { secret } }', Role.OWNER),
    ],
)
async def test_only_an_owner_changes_admins_and_owners(
    backend: Backend, document: str, target_role: Role
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    result = await backend.gql(
        document, {"id": ws.member_ids[target_role]}, token=ws.tokens[Role.ADMIN]
    )
    assert result.codes == ["FORBIDDEN"]
    granting = await backend.gql(
        'mutation { addMember(name: "boss", role: OWNER) { id } }', token=ws.tokens[Role.ADMIN]
    )
    assert granting.codes == ["FORBIDDEN"]
