"""The provider key is write-only: encrypted at rest, never in a response, audit event or log."""

from __future__ import annotations

import logging

import pytest
from sqlalchemy import text

from bench.kit.factories import make_workspace
from bench.kit.harness import Backend
from bench.kit.openai_server import FakeOpenAI
from server.workspaces.roles import Role
from tests.server.connections.conftest import PROVIDER_KEY

CREATE = """
mutation($input: CreateModelConnectionInput!) {
  createModelConnection(input: $input) {
    id name kind baseUrl hasApiKey simulated status checkedAt maxConcurrency
    inputCentsPerMillionTokens outputCentsPerMillionTokens monthlyCapCents
    monthToDateSpentCents createdAt simulation { seed }
  }
}"""
LIST = """
{ modelConnections(first: 50) { totalCount edges { node {
    id name kind baseUrl hasApiKey simulated status checkedAt
} } } }"""
CHECK = "mutation($id: ID!) { checkModelConnection(id: $id) { id status hasApiKey } }"
EVENTS = "{ auditEvents(first: 100) { edges { node { action targetId details } } } }"


async def _create(backend: Backend, token: str, base_url: str) -> str:
    variables = {
        "input": {
            "name": "openai",
            "kind": "OPENAI_COMPATIBLE",
            "baseUrl": base_url,
            "apiKey": PROVIDER_KEY,
        }
    }
    result = await backend.gql(CREATE, variables, token=token)
    assert PROVIDER_KEY not in str(result.body)
    created = result.ok()["createModelConnection"]
    assert created["hasApiKey"] is True
    assert created["status"] == "READY"
    connection_id: str = created["id"]
    return connection_id


async def test_the_raw_column_holds_a_fernet_token_of_the_key(
    backend: Backend, fake_openai: FakeOpenAI
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    connection_id = await _create(backend, ws.tokens[Role.ADMIN], fake_openai.base_url)
    async with backend.sessionmaker() as session:
        raw = (
            await session.execute(
                text("SELECT api_key_encrypted FROM model_connection WHERE id = :id"),
                {"id": connection_id},
            )
        ).scalar_one()
    assert isinstance(raw, str)
    assert raw != PROVIDER_KEY
    assert PROVIDER_KEY not in raw
    assert "SECRET" not in raw  # not even a fragment of the key in plain text
    assert backend.state.secret_box.decrypt(raw) == PROVIDER_KEY


async def test_the_key_is_in_no_response_audit_event_or_log(
    backend: Backend, fake_openai: FakeOpenAI, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    ws = await make_workspace(backend.sessionmaker)
    connection_id = await _create(backend, ws.owner, fake_openai.base_url)
    bodies = []
    for role in Role:
        listed = await backend.gql(LIST, token=ws.tokens[role])
        assert listed.ok()["modelConnections"]["edges"][0]["node"]["hasApiKey"] is True
        bodies.append(listed.body)
    checked = await backend.gql(CHECK, {"id": connection_id}, token=ws.owner)
    assert checked.ok()["checkModelConnection"]["status"] == "READY"
    bodies.append(checked.body)
    events = await backend.gql(EVENTS, token=ws.owner)
    actions = [e["node"]["action"] for e in events.ok()["auditEvents"]["edges"]]
    assert {"connection.create", "connection.check"} <= set(actions)
    bodies.append(events.body)

    assert all(PROVIDER_KEY not in str(body) for body in bodies)
    assert caplog.records, "the check should have been logged"
    assert any(r.name == "shipwise.connections" for r in caplog.records)
    for record in caplog.records:
        assert PROVIDER_KEY not in record.getMessage()
        assert PROVIDER_KEY not in str(record.__dict__)
    # The provider did receive it: it is only hidden from everyone else.
    assert all(r.headers["authorization"] == f"Bearer {PROVIDER_KEY}" for r in fake_openai.requests)


async def test_an_invalid_key_is_not_echoed_in_the_error(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    bad_key = "sk-has spaces-SECRETVALUE"
    result = await backend.gql(
        CREATE,
        {
            "input": {
                "name": "x",
                "kind": "OPENAI_COMPATIBLE",
                "baseUrl": "http://127.0.0.1:9/v1",
                "apiKey": bad_key,
            }
        },
        token=ws.owner,
    )
    assert result.codes == ["VALIDATION_FAILED"]
    assert result.errors[0]["extensions"]["field"] == "apiKey"
    assert "SECRETVALUE" not in str(result.body)


async def test_a_bad_enum_beside_a_key_does_not_echo_the_key(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    result = await backend.gql(
        CREATE,
        {"input": {"name": "x", "kind": "SORCERY", "apiKey": PROVIDER_KEY}},
        token=ws.owner,
    )
    assert result.codes == ["VALIDATION_FAILED"]
    assert PROVIDER_KEY not in str(result.body)


async def test_credentials_in_the_base_url_are_refused_and_not_echoed(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    result = await backend.gql(
        CREATE,
        {
            "input": {
                "name": "x",
                "kind": "OPENAI_COMPATIBLE",
                "baseUrl": "https://user:hunter2secret@api.example.com/v1",
            }
        },
        token=ws.owner,
    )
    assert result.codes == ["VALIDATION_FAILED"]
    assert result.errors[0]["extensions"]["field"] == "baseUrl"
    assert "hunter2secret" not in str(result.body)
