"""Request limits, coded GraphQL errors, and bad input that changes nothing."""

from __future__ import annotations

import json

import pytest
from sqlalchemy import func, select

from server.audit.models import AuditEvent
from server.workspaces.models import Member
from tests.factories import make_workspace
from tests.harness import Backend

DEPTH_ERROR = "exceeds maximum operation depth of 12"


def _nested_selection(depth: int) -> str:
    """`{ me { a { a { … id } } } }` with `depth` levels of selection sets."""
    body = "id"
    for _ in range(depth - 1):
        body = f"a {{ {body} }}"
    return f"{{ me {{ {body} }} }}"


async def test_a_query_deeper_than_twelve_is_refused(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    too_deep = await backend.gql(_nested_selection(13), token=ws.owner)
    assert any(DEPTH_ERROR in e["message"] for e in too_deep.errors)
    assert set(too_deep.codes) == {"VALIDATION_FAILED"}
    at_limit = await backend.gql(_nested_selection(12), token=ws.owner)
    assert not any(DEPTH_ERROR in e["message"] for e in at_limit.errors)


async def test_more_than_fifty_aliases_are_refused(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    fifty = "{ " + " ".join(f"a{i}: me {{ role }}" for i in range(50)) + " }"
    assert len((await backend.gql(fifty, token=ws.owner)).ok()) == 50
    fifty_one = "{ " + " ".join(f"a{i}: me {{ role }}" for i in range(51)) + " }"
    result = await backend.gql(fifty_one, token=ws.owner)
    assert result.codes == ["VALIDATION_FAILED"]
    assert result.data is None


async def test_more_than_five_thousand_tokens_are_refused(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    selection = (
        "me { role tokenId member { id name email role createdAt } workspace { id name "
        "createdAt settings { allowHostedRuns allowSelfSignOff maxRunningComparisons "
        "requestsPerMinutePerToken } tokens(first: 1) { totalCount pageInfo { hasNextPage "
        "endCursor } edges { cursor node { id name prefix memberId createdAt revokedAt } } } } }"
    )
    under = "{ " + " ".join(f"a{i}: {selection}" for i in range(50)) + " }"
    assert len((await backend.gql(under, token=ws.owner)).ok()) == 50
    over = "{ " + "__typename " * 5001 + "}"
    result = await backend.gql(over, token=ws.owner)
    assert result.codes == ["VALIDATION_FAILED"]
    assert "token" in result.errors[0]["message"].lower()


async def test_a_body_over_two_mebibytes_is_refused(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    headers = {"Authorization": f"Bearer {ws.owner}", "Content-Type": "application/json"}

    def body(size: int) -> bytes:
        return json.dumps({"query": "{ me { role } }", "variables": {"pad": "x" * size}}).encode()

    fits = await backend.client.post(
        "/graphql", content=body(2 * 1024 * 1024 - 200), headers=headers
    )
    assert fits.status_code == 200 and fits.json()["data"]["me"]["role"] == "OWNER"
    over = await backend.client.post("/graphql", content=body(2 * 1024 * 1024), headers=headers)
    assert over.status_code == 413
    assert over.json()["errors"][0]["extensions"]["code"] == "VALIDATION_FAILED"


async def test_graphql_validation_errors_carry_a_code(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    unknown_field = await backend.gql("{ me { nope } }", token=ws.owner)
    assert unknown_field.codes == ["VALIDATION_FAILED"]
    syntax = await backend.gql("{ me { ", token=ws.owner)
    assert syntax.codes == ["VALIDATION_FAILED"]
    unauthenticated_bad = await backend.gql("{ nope }")
    assert unauthenticated_bad.codes == ["VALIDATION_FAILED"]


async def _state(backend: Backend, workspace_id: str) -> tuple[int, int]:
    async with backend.sessionmaker() as session:
        events = (
            await session.execute(
                select(func.count())
                .select_from(AuditEvent)
                .where(AuditEvent.workspace_id == workspace_id)
            )
        ).scalar_one()
        members = (
            await session.execute(
                select(func.count()).select_from(Member).where(Member.workspace_id == workspace_id)
            )
        ).scalar_one()
    return events, members


BAD_INPUT = [
    pytest.param(
        'mutation($r: Role!) { addMember(name: "x", role: $r) { id } }',
        {"r": "EMPEROR"},
        id="unknown-enum-variable",
    ),
    pytest.param(
        'mutation { addMember(name: "x", role: EMPEROR) { id } }', {}, id="unknown-enum-literal"
    ),
    pytest.param(
        "mutation($n: String!) { addMember(name: $n, role: VIEWER) { id } }",
        {"n": 42},
        id="wrong-type",
    ),
    pytest.param(
        "mutation($n: String!) { addMember(name: $n, role: VIEWER) { id } }",
        {"n": "x" * 5000},
        id="oversized-string",
    ),
    pytest.param(
        "mutation($n: String!) { addMember(name: $n, role: VIEWER) { id } }",
        {"n": "   "},
        id="blank-string",
    ),
    pytest.param(
        'mutation($e: String) { addMember(name: "x", role: VIEWER, email: $e) { id } }',
        {"e": "not-an-email"},
        id="bad-email",
    ),
    pytest.param(
        "mutation { updateWorkspaceSettings(input: {allowHostedRuns: false, "
        "maxRunningComparisons: 0}) { id } }",
        {},
        id="out-of-range-setting-with-valid-sibling",
    ),
    pytest.param(
        'mutation { updateWorkspaceSettings(input: {requestsPerMinutePerToken: "many"}) { id } }',
        {},
        id="wrong-type-in-input",
    ),
    pytest.param(
        'mutation { createToken(name: "' + "t" * 300 + '") { secret } }',
        {},
        id="oversized-token-name",
    ),
    pytest.param(
        "mutation { removeMember(memberId: 12) { id } }", {}, id="number-for-id-ok-but-unknown"
    ),
]


@pytest.mark.parametrize(("document", "variables"), BAD_INPUT)
async def test_bad_input_gets_a_code_and_writes_nothing(
    backend: Backend, document: str, variables: dict[str, object]
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    before = await _state(backend, ws.id)
    result = await backend.gql(document, variables, token=ws.owner)
    assert result.status == 200
    assert result.codes and set(result.codes) <= {"VALIDATION_FAILED", "NOT_FOUND"}
    assert result.data is None
    assert await _state(backend, ws.id) == before
    settings = (
        await backend.gql("{ workspace { settings { allowHostedRuns } } }", token=ws.owner)
    ).ok()
    assert settings["workspace"]["settings"]["allowHostedRuns"] is True
    assert "Traceback" not in json.dumps(result.body) and "SELECT" not in json.dumps(result.body)
