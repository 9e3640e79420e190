"""The audit log: written by every state change, filtered, paginated and append-only."""

from __future__ import annotations

import pytest
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError

from bench.kit.factories import make_workspace
from bench.kit.harness import Backend
from server.workspaces.roles import Role

EVENTS = """
query($first: Int, $after: String, $action: String, $actorId: ID, $targetId: ID) {
  auditEvents(first: $first, after: $after, action: $action, actorId: $actorId,
              targetId: $targetId) {
    totalCount
    pageInfo { hasNextPage endCursor }
    edges { cursor node { id action actorId actorRole targetType targetId details createdAt } }
  }
}
"""


async def test_each_mutation_writes_one_event_without_secrets(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    admin = ws.tokens[Role.ADMIN]
    created = (
        await backend.gql(
            'mutation { createToken(name: "ci") { secret token { id } } }', token=admin
        )
    ).ok()["createToken"]
    (
        await backend.gql(
            "mutation($id: ID!) { revokeToken(id: $id) { id } }",
            {"id": created["token"]["id"]},
            token=admin,
        )
    ).ok()
    (
        await backend.gql(
            "mutation { updateWorkspaceSettings(input: {allowSelfSignOff: true}) { id } }",
            token=admin,
        )
    ).ok()
    page = (await backend.gql(EVENTS, {"first": 3}, token=admin)).ok()["auditEvents"]
    actions = [edge["node"]["action"] for edge in page["edges"]]
    assert actions == ["workspace.update_settings", "token.revoke", "token.create"]
    newest = page["edges"][0]["node"]
    assert newest["actorId"] == ws.member_ids[Role.ADMIN]
    assert newest["actorRole"] == "ADMIN"
    assert newest["details"] == {"allowSelfSignOff": True}
    assert created["secret"] not in str(page)


async def test_filters_and_keyset_pages(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    for index in range(5):
        (
            await backend.gql(
                "mutation($n: String!) { addMember(name: $n, role: VIEWER) { id } }",
                {"n": f"m{index}"},
                token=ws.owner,
            )
        ).ok()
    added = (await backend.gql(EVENTS, {"action": "member.add", "first": 2}, token=ws.owner)).ok()
    assert added["auditEvents"]["totalCount"] == 8  # 3 by the factory, 5 here
    seen: list[str] = []
    after = None
    while True:
        page = (
            await backend.gql(
                EVENTS, {"action": "member.add", "first": 3, "after": after}, token=ws.owner
            )
        ).ok()["auditEvents"]
        seen += [edge["node"]["id"] for edge in page["edges"]]
        if not page["pageInfo"]["hasNextPage"]:
            break
        after = page["pageInfo"]["endCursor"]
    assert len(seen) == len(set(seen)) == 8
    assert [int(i) for i in seen] == sorted((int(i) for i in seen), reverse=True)
    by_target = (
        await backend.gql(EVENTS, {"targetId": ws.member_ids[Role.VIEWER]}, token=ws.owner)
    ).ok()["auditEvents"]
    assert [e["node"]["action"] for e in by_target["edges"]] == ["member.add"]
    by_actor = (
        await backend.gql(EVENTS, {"actorId": ws.member_ids[Role.VIEWER]}, token=ws.owner)
    ).ok()["auditEvents"]
    assert by_actor["totalCount"] == 0


@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE audit_event SET action = 'tampered'",
        "DELETE FROM audit_event",
    ],
)
async def test_the_table_refuses_update_and_delete(backend: Backend, statement: str) -> None:
    ws = await make_workspace(backend.sessionmaker)
    with pytest.raises(DBAPIError, match="append-only"):
        async with backend.sessionmaker() as session, session.begin():
            await session.execute(text(statement + " WHERE workspace_id = :w"), {"w": ws.id})
    page = (await backend.gql(EVENTS, {}, token=ws.owner)).ok()["auditEvents"]
    assert page["totalCount"] == 7
    assert "tampered" not in {e["node"]["action"] for e in page["edges"]}


async def test_a_bad_cursor_is_validation_failed(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    result = await backend.gql(EVENTS, {"after": "not-a-cursor!"}, token=ws.owner)
    assert result.codes == ["VALIDATION_FAILED"]
    too_many = await backend.gql(EVENTS, {"first": 101}, token=ws.owner)
    assert too_many.codes == ["VALIDATION_FAILED"]
