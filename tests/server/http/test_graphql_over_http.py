"""GraphQL over HTTP: `application/graphql-response+json` when the client accepts it (request
errors 400 without `data`), `application/json` as it always was."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from bench.kit.factories import make_workspace
from bench.kit.harness import Backend
from bench.kit.scenarios import finalized, scripted_setup
from bench.kit.statements import counting_statements
from server.api.http.media_type import GRAPHQL_RESPONSE, JSON
from server.workspaces.roles import Role

COERCE = "query($id: ID!) { comparison(id: $id) { id } }"

REQUEST_ERRORS: list[tuple[str, dict[str, Any]]] = [
    ("parse", {"query": "{ me { "}),
    ("validation", {"query": "{ nope }"}),
    ("depth", {"query": "{ me { " + "a { " * 12 + "id" + " }" * 14}),
    ("variable-coercion", {"query": COERCE, "variables": {"id": None}}),
    ("missing-variable", {"query": COERCE}),
    ("unknown-operation", {"query": "query A { __typename }", "operationName": "B"}),
    ("no-query", {"qeury": "{ __typename }"}),
    ("variables-not-an-object", {"query": "{ __typename }", "variables": [7]}),
]

REFUSED_BY_THE_VIEW = {"no-query", "variables-not-an-object", "unknown-operation"}
"""Refused before execution begins by the view itself, with 400 in either type (as before)."""


async def _post(
    backend: Backend, body: dict[str, Any] | bytes, accept: str | None, token: str | None = None
) -> httpx.Response:
    headers = {"Content-Type": "application/json"}
    if accept is not None:
        headers["Accept"] = accept
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    if isinstance(body, bytes):
        return await backend.client.post("/graphql", content=body, headers=headers)
    return await backend.client.post("/graphql", json=body, headers=headers)


@pytest.mark.parametrize(("kind", "body"), REQUEST_ERRORS, ids=[k for k, _ in REQUEST_ERRORS])
async def test_a_request_error_answers_400_without_data(
    backend: Backend, kind: str, body: dict[str, Any]
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    response = await _post(backend, body, GRAPHQL_RESPONSE, ws.owner)
    assert response.status_code == 400, kind
    assert response.headers["content-type"] == f"{GRAPHQL_RESPONSE}; charset=utf-8"
    assert response.headers["vary"] == "Accept"
    answer = response.json()
    assert "data" not in answer
    assert {e["extensions"]["code"] for e in answer["errors"]} == {"VALIDATION_FAILED"}


@pytest.mark.parametrize(("kind", "body"), REQUEST_ERRORS, ids=[k for k, _ in REQUEST_ERRORS])
async def test_application_json_answers_request_errors_as_before(
    backend: Backend, kind: str, body: dict[str, Any]
) -> None:
    """A document's errors 200 with `data: null`; what the view refuses 400, as before."""
    for accept in (JSON, "*/*", None):
        response = await _post(backend, body, accept)
        assert response.headers["content-type"] == JSON
        assert response.status_code == (400 if kind in REFUSED_BY_THE_VIEW else 200), kind
        answer = response.json()
        assert answer["data"] is None
        assert {e["extensions"]["code"] for e in answer["errors"]} == {"VALIDATION_FAILED"}


async def test_a_body_that_is_not_json_answers_400_in_the_accepted_type(backend: Backend) -> None:
    for accept, data in ((GRAPHQL_RESPONSE, False), (JSON, True)):
        response = await _post(backend, b'{"query": ', accept)
        assert response.status_code == 400
        assert response.headers["content-type"].split(";")[0] == accept
        assert ("data" in response.json()) is data


async def test_field_errors_and_data_answer_200(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    ok = await _post(backend, {"query": "{ me { role } }"}, GRAPHQL_RESPONSE, ws.owner)
    assert ok.status_code == 200 and ok.json() == {"data": {"me": {"role": "OWNER"}}}
    assert ok.headers["content-type"] == f"{GRAPHQL_RESPONSE}; charset=utf-8"
    anonymous = await _post(backend, {"query": "{ me { role } }"}, GRAPHQL_RESPONSE)
    assert anonymous.status_code == 200
    assert anonymous.json()["data"] is None  # executed: `me` raised UNAUTHENTICATED
    assert [e["extensions"]["code"] for e in anonymous.json()["errors"]] == ["UNAUTHENTICATED"]
    missing = await _post(
        backend, {"query": COERCE, "variables": {"id": "cmp_nope"}}, GRAPHQL_RESPONSE, ws.owner
    )
    assert missing.status_code == 200
    assert [e["extensions"]["code"] for e in missing.json()["errors"]] == ["NOT_FOUND"]


async def test_an_accept_of_neither_type_is_406(backend: Backend) -> None:
    response = await _post(backend, {"query": "{ __typename }"}, "text/html")
    assert response.status_code == 406
    assert [e["extensions"]["code"] for e in response.json()["errors"]] == ["VALIDATION_FAILED"]
    page = await backend.client.get("/graphql", headers={"Accept": "text/html"})
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]  # GraphiQL


async def test_a_kept_answer_goes_out_in_the_accepted_type(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    setup = await scripted_setup(backend.sessionmaker, ws, [["PP"] * 4, ["PF"] * 4])
    comparison_id, _ = await finalized(backend, setup, trialsPerCase=2)
    body = {
        "query": "query($id: ID!) { comparison(id: $id) { id verdictState } }",
        "variables": {"id": comparison_id},
    }
    token = ws.tokens[Role.VIEWER]
    first = await _post(backend, body, JSON, token)
    with counting_statements(backend) as seen:
        kept = await _post(backend, body, GRAPHQL_RESPONSE, token)
    reads = [s for s in seen if not s.startswith("BEGIN")]  # SQLite begins every session
    assert len(reads) == 1 and "comparison_verdict" in reads[0], seen  # the stamp alone
    assert kept.status_code == 200 and kept.json() == first.json()
    assert kept.json()["data"]["comparison"]["id"] == comparison_id
    assert kept.headers["content-type"] == f"{GRAPHQL_RESPONSE}; charset=utf-8"
