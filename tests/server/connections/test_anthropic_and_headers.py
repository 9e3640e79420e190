"""ANTHROPIC connections and extra headers through the API: checked against a fake of each
API, the status said in words, the key and header values write-only everywhere."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from sqlalchemy import func, select, text

from bench.kit.factories import make_workspace
from bench.kit.harness import Backend
from bench.kit.openai_server import PROVIDER_TEXT, FakeOpenAI
from server.connections.models import ConnectionKind, ModelConnection
from server.connections.service import clean_base_url
from server.workspaces.roles import Role
from tests.fakes.anthropic_server import FakeAnthropic
from tests.server.connections.conftest import PROVIDER_KEY

FIELDS = "id kind baseUrl hasApiKey headerNames status statusMessage checkedAt"
CREATE = f"""mutation($input: CreateModelConnectionInput!) {{
  createModelConnection(input: $input) {{ {FIELDS} }}
}}"""
CHECK = f"mutation($id: ID!) {{ checkModelConnection(id: $id) {{ {FIELDS} }} }}"
LIST = f"{{ modelConnections(first: 50) {{ edges {{ node {{ {FIELDS} }} }} }} }}"
EVENTS = "{ auditEvents(first: 100) { edges { node { action details } } } }"
HEADER_VALUE = "azure-header-value-0123SECRET"


async def _create(backend: Backend, token: str, fields: dict[str, Any]) -> dict[str, Any]:
    result = await backend.gql(CREATE, {"input": {"name": "conn", **fields}}, token=token)
    assert PROVIDER_TEXT not in str(result.body)
    created: dict[str, Any] = result.ok()["createModelConnection"]
    return created


async def test_an_anthropic_connection_is_checked_with_its_key_and_version(
    backend: Backend, fake_anthropic: FakeAnthropic
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    created = await _create(
        backend,
        ws.owner,
        {"kind": "ANTHROPIC", "baseUrl": fake_anthropic.base_url, "apiKey": PROVIDER_KEY},
    )
    assert (created["kind"], created["status"], created["hasApiKey"]) == (
        "ANTHROPIC",
        "READY",
        True,
    )
    assert created["statusMessage"] == "Ready: the provider answered the check."
    [seen] = fake_anthropic.requests
    assert (seen.method, seen.path) == ("GET", "/v1/models")
    assert seen.headers["x-api-key"] == PROVIDER_KEY
    assert seen.headers["anthropic-version"] == "2023-06-01"
    assert "authorization" not in seen.headers


def test_an_anthropic_connection_defaults_to_the_public_api() -> None:
    # Not through the API: creating it would check it, asking the real API over the network.
    assert clean_base_url(ConnectionKind.ANTHROPIC, None) == "https://api.anthropic.com"
    assert clean_base_url(ConnectionKind.ANTHROPIC, " ") == "https://api.anthropic.com"


async def test_a_refused_key_is_a_status_in_words_without_provider_text(
    backend: Backend, fake_anthropic: FakeAnthropic, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    ws = await make_workspace(backend.sessionmaker)
    created = await _create(
        backend,
        ws.owner,
        {"kind": "ANTHROPIC", "baseUrl": fake_anthropic.base_url, "apiKey": "sk-ant-refused"},
    )
    assert created["status"] == "UNVERIFIED"
    assert created["statusMessage"] == (
        "The provider refused the key (HTTP 401): enter the key again, or check its "
        "permissions and the connection's headers."
    )
    checked = await backend.gql(CHECK, {"id": created["id"]}, token=ws.owner)
    assert checked.ok()["checkModelConnection"]["statusMessage"] == created["statusMessage"]
    listed = await backend.gql(LIST, token=ws.tokens[Role.VIEWER])
    events = await backend.gql(EVENTS, token=ws.owner)
    check_event = events.ok()["auditEvents"]["edges"][0]["node"]
    assert check_event["details"] == {
        "from": "UNVERIFIED",
        "to": "UNVERIFIED",
        "reason": "key_refused",
        "httpStatus": 401,
    }
    for body in (checked.body, listed.body, events.body):
        assert PROVIDER_TEXT not in str(body)
        assert "sk-ant-refused" not in str(body)
    assert PROVIDER_TEXT not in caplog.text and "sk-ant-refused" not in caplog.text


@pytest.mark.parametrize(
    ("status", "code", "words"),
    [
        (404, "UNVERIFIED", "The provider has no models endpoint at this base URL (HTTP 404)"),
        (429, "UNVERIFIED", "The provider is rate limiting (HTTP 429)"),
        (529, "UNREACHABLE", "The provider answered with a server error (HTTP 529)"),
    ],
)
async def test_other_check_outcomes_in_words(
    backend: Backend, fake_anthropic: FakeAnthropic, status: int, code: str, words: str
) -> None:
    from bench.kit.openai_server import Behaviour

    fake_anthropic.behaviour = Behaviour(status=status)
    ws = await make_workspace(backend.sessionmaker)
    created = await _create(
        backend,
        ws.owner,
        {"kind": "ANTHROPIC", "baseUrl": fake_anthropic.base_url, "apiKey": PROVIDER_KEY},
    )
    assert created["status"] == code
    assert created["statusMessage"].startswith(words)


async def test_headers_are_sent_and_never_readable_back(
    backend: Backend, fake_openai: FakeOpenAI, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    ws = await make_workspace(backend.sessionmaker)
    fake_openai.api_key = None  # Azure's key travels in `api-key`, not `Authorization`
    created = await _create(
        backend,
        ws.owner,
        {
            "kind": "OPENAI_COMPATIBLE",
            "baseUrl": fake_openai.base_url,
            "headers": [
                {"name": "api-key", "value": HEADER_VALUE},
                {"name": "X-Team", "value": "evals"},
            ],
        },
    )
    assert (created["status"], created["hasApiKey"]) == ("READY", False)
    assert created["headerNames"] == ["api-key", "X-Team"]
    checked = await backend.gql(CHECK, {"id": created["id"]}, token=ws.owner)
    assert checked.ok()["checkModelConnection"]["status"] == "READY"
    assert [(r.headers["api-key"], r.headers["x-team"]) for r in fake_openai.requests] == [
        (HEADER_VALUE, "evals")
    ] * 2
    assert all("authorization" not in r.headers for r in fake_openai.requests)

    bodies = [checked.body, (await backend.gql(EVENTS, token=ws.owner)).body]
    for role in Role:
        bodies.append((await backend.gql(LIST, token=ws.tokens[role])).body)
    assert all(HEADER_VALUE not in str(body) for body in bodies)
    assert "headerNames" in str(bodies[1])  # the audit log keeps the names only
    assert HEADER_VALUE not in caplog.text
    async with backend.sessionmaker() as session:
        raw = (
            await session.execute(
                text("SELECT headers_encrypted FROM model_connection WHERE id = :id"),
                {"id": created["id"]},
            )
        ).scalar_one()
    assert "SECRET" not in raw
    assert HEADER_VALUE in backend.state.secret_box.decrypt(raw)


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"kind": "SIMULATED", "headers": [{"name": "a", "value": "b"}]}, "headers"),
        ({"headers": [{"name": "bad name", "value": "v"}]}, "headers[0].name"),
        ({"headers": [{"name": "Content-Type", "value": "v"}]}, "headers[0].name"),
        ({"headers": [{"name": "X-Shipwise-Trial", "value": "v"}]}, "headers[0].name"),
        (
            {"headers": [{"name": "a", "value": "1"}, {"name": "A", "value": "2"}]},
            "headers[1].name",
        ),
        ({"headers": [{"name": "a", "value": "line\r\nbreak-SECRET"}]}, "headers[0].value"),
        (
            {"apiKey": "sk-x", "headers": [{"name": "Authorization", "value": "v"}]},
            "headers[0].name",
        ),
        (
            {
                "kind": "ANTHROPIC",
                "apiKey": "sk-x",
                "headers": [{"name": "x-api-key", "value": "v"}],
            },
            "headers[0].name",
        ),
        ({"headers": [{"name": f"h{i}", "value": "v"} for i in range(21)]}, "headers"),
    ],
)
async def test_bad_headers_are_refused_naming_the_field_and_nothing_is_written(
    backend: Backend, fields: dict[str, Any], field: str
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    variables = {"name": "c", "kind": "OPENAI_COMPATIBLE", "baseUrl": "http://127.0.0.1:9/v1"}
    variables.update(fields)
    if variables["kind"] == "SIMULATED":
        del variables["baseUrl"]
    result = await backend.gql(CREATE, {"input": variables}, token=ws.owner)
    assert result.codes == ["VALIDATION_FAILED"]
    assert result.errors[0]["extensions"]["field"] == field
    assert "SECRET" not in str(result.body)
    async with backend.sessionmaker() as session:
        count = await session.scalar(
            select(func.count())
            .select_from(ModelConnection)
            .where(ModelConnection.workspace_id == ws.id)
        )
    assert count == 0
