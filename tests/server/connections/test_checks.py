"""Connection checks against a real HTTP provider: READY, UNVERIFIED, UNREACHABLE."""

from __future__ import annotations

import time
from typing import Any

import httpx
import pytest

from bench.kit.factories import make_workspace
from bench.kit.harness import Backend
from bench.kit.openai_server import PROVIDER_TEXT, Behaviour, FakeOpenAI, closed_base_url
from server.connections import checks
from server.connections.models import ConnectionStatus
from server.workspaces.roles import Role
from tests.server.connections.conftest import PROVIDER_KEY

CREATE = """
mutation($input: CreateModelConnectionInput!) {
  createModelConnection(input: $input) { id status checkedAt hasApiKey baseUrl }
}"""
CHECK = "mutation($id: ID!) { checkModelConnection(id: $id) { id status checkedAt } }"
EVENTS = """
query($target: ID!) {
  auditEvents(targetId: $target) { edges { node { action details actorRole } } }
}"""


def _openai(base_url: str, api_key: str | None = PROVIDER_KEY) -> dict[str, Any]:
    return {"name": "provider", "kind": "OPENAI_COMPATIBLE", "baseUrl": base_url, "apiKey": api_key}


async def _create(backend: Backend, token: str, variables: dict[str, Any]) -> dict[str, Any]:
    result = await backend.gql(CREATE, {"input": variables}, token=token)
    assert PROVIDER_TEXT not in str(result.body)
    created: dict[str, Any] = result.ok()["createModelConnection"]
    return created


@pytest.mark.parametrize(
    ("code", "status"),
    [
        (200, ConnectionStatus.READY),
        (204, ConnectionStatus.READY),
        (301, ConnectionStatus.UNVERIFIED),
        (400, ConnectionStatus.UNVERIFIED),
        (401, ConnectionStatus.UNVERIFIED),
        (403, ConnectionStatus.UNVERIFIED),
        (404, ConnectionStatus.UNVERIFIED),
        (429, ConnectionStatus.UNVERIFIED),
        (500, ConnectionStatus.UNREACHABLE),
        (503, ConnectionStatus.UNREACHABLE),
    ],
)
def test_http_status_maps_to_a_connection_status(code: int, status: ConnectionStatus) -> None:
    assert checks.status_for_http(code) == status


async def test_a_provider_that_answers_with_our_key_is_ready(
    backend: Backend, fake_openai: FakeOpenAI
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    created = await _create(backend, ws.tokens[Role.ADMIN], _openai(fake_openai.base_url + "/"))
    assert created["status"] == "READY"
    assert created["checkedAt"] is not None
    assert created["hasApiKey"] is True
    assert created["baseUrl"] == fake_openai.base_url  # the trailing slash is dropped
    [seen] = fake_openai.requests
    assert (seen.method, seen.path) == ("GET", "/v1/models")
    assert seen.headers["authorization"] == f"Bearer {PROVIDER_KEY}"


async def test_without_a_key_no_authorization_header_is_sent(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    with FakeOpenAI() as open_provider:  # a local server that needs no key (Ollama, vLLM)
        created = await _create(backend, ws.owner, _openai(open_provider.base_url, None))
        assert created["status"] == "READY"
        assert created["hasApiKey"] is False
        assert "authorization" not in open_provider.requests[0].headers


async def test_a_rejected_key_is_unverified(backend: Backend, fake_openai: FakeOpenAI) -> None:
    ws = await make_workspace(backend.sessionmaker)
    created = await _create(backend, ws.owner, _openai(fake_openai.base_url, "sk-wrong-key"))
    assert created["status"] == "UNVERIFIED"
    assert fake_openai.requests[0].headers["authorization"] == "Bearer sk-wrong-key"


async def test_a_closed_port_is_unreachable(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    created = await _create(backend, ws.owner, _openai(closed_base_url()))
    assert created["status"] == "UNREACHABLE"
    assert created["checkedAt"] is not None


async def test_a_server_error_is_unreachable(backend: Backend, fake_openai: FakeOpenAI) -> None:
    ws = await make_workspace(backend.sessionmaker)
    fake_openai.behaviour = Behaviour(status=500)
    created = await _create(backend, ws.owner, _openai(fake_openai.base_url))
    assert created["status"] == "UNREACHABLE"
    assert len(fake_openai.requests) == 1


async def test_a_provider_slower_than_the_timeout_is_unreachable(
    backend: Backend, fake_openai: FakeOpenAI, monkeypatch: pytest.MonkeyPatch
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    monkeypatch.setattr(checks, "CHECK_TIMEOUT", httpx.Timeout(0.2))
    fake_openai.behaviour = Behaviour(delay_seconds=2)
    started = time.monotonic()
    created = await _create(backend, ws.owner, _openai(fake_openai.base_url))
    assert created["status"] == "UNREACHABLE"
    assert time.monotonic() - started < 1.5


async def test_a_simulated_connection_is_ready_without_any_request(
    backend: Backend, fake_openai: FakeOpenAI
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    result = await backend.gql(
        CREATE, {"input": {"name": "sim", "kind": "SIMULATED"}}, token=ws.tokens[Role.ADMIN]
    )
    assert result.ok()["createModelConnection"]["status"] == "READY"
    assert fake_openai.requests == []


async def test_checking_again_records_the_new_status_and_audits_it(
    backend: Backend, fake_openai: FakeOpenAI
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    created = await _create(backend, ws.owner, _openai(fake_openai.base_url))
    assert created["status"] == "READY"

    fake_openai.behaviour = Behaviour(status=503)
    checked = (await backend.gql(CHECK, {"id": created["id"]}, token=ws.tokens[Role.ADMIN])).ok()
    assert checked["checkModelConnection"]["status"] == "UNREACHABLE"
    assert checked["checkModelConnection"]["checkedAt"] > created["checkedAt"]

    fake_openai.behaviour = Behaviour()
    again = (await backend.gql(CHECK, {"id": created["id"]}, token=ws.owner)).ok()
    assert again["checkModelConnection"]["status"] == "READY"
    # The stored key was decrypted and sent on each check.
    assert [r.headers["authorization"] for r in fake_openai.requests] == [
        f"Bearer {PROVIDER_KEY}"
    ] * 3

    events = (await backend.gql(EVENTS, {"target": created["id"]}, token=ws.owner)).ok()
    nodes = [e["node"] for e in events["auditEvents"]["edges"]]
    assert [n["action"] for n in nodes] == [
        "connection.check",
        "connection.check",
        "connection.create",
    ]
    assert nodes[1]["details"] == {
        "from": "READY",
        "to": "UNREACHABLE",
        "reason": "server_error",
        "httpStatus": 503,
    }
    assert nodes[1]["actorRole"] == "ADMIN"
    assert nodes[0]["details"]["to"] == "READY"
    assert PROVIDER_TEXT not in str(events)


async def test_checking_a_connection_whose_server_went_away(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    with FakeOpenAI() as short_lived:
        created = await _create(backend, ws.owner, _openai(short_lived.base_url, None))
    assert created["status"] == "READY"
    checked = (await backend.gql(CHECK, {"id": created["id"]}, token=ws.owner)).ok()
    assert checked["checkModelConnection"]["status"] == "UNREACHABLE"
    events = (await backend.gql(EVENTS, {"target": created["id"]}, token=ws.owner)).ok()
    details = events["auditEvents"]["edges"][0]["node"]["details"]
    assert details["errorType"] == "ConnectError"
    assert "httpStatus" not in details
