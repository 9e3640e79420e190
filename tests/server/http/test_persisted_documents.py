"""The portal's persisted documents over HTTP (docs/graphql.md, "Persisted documents"): a
known hash runs the map's document, with or without text; an unknown hash without text is
refused with a code and changes nothing; text without a hash runs as ever."""

from __future__ import annotations

from typing import Any

from bench.kit.factories import make_workspace
from bench.kit.harness import Backend
from bench.kit.portal_documents import persisted_body
from server.workspaces.roles import Role


async def _post(backend: Backend, body: dict[str, Any], token: str) -> tuple[int, Any]:
    headers = {"Authorization": f"Bearer {token}"}
    response = await backend.client.post("/graphql", json=body, headers=headers)
    return response.status_code, response.json()


async def test_a_known_hash_runs_its_document_and_an_unknown_one_is_refused(
    backend: Backend,
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    token = ws.tokens[Role.VIEWER]
    body = persisted_body("ComparisonsList", {"first": 5})
    status, answer = await _post(backend, body, token)
    assert status == 200 and answer["data"]["comparisons"]["totalCount"] == 0, answer

    # The hash decides the document: other text beside it is not what runs.
    status, answer = await _post(backend, {**body, "query": "{ me { role } }"}, token)
    assert status == 200 and answer["data"]["comparisons"]["edges"] == [], answer

    unknown = {**body, "extensions": {"persistedQuery": {"version": 1, "sha256Hash": "0" * 64}}}
    status, answer = await _post(backend, unknown, token)
    assert status == 400, answer
    assert answer["errors"][0]["extensions"]["code"] == "VALIDATION_FAILED"
    assert "persisted" in answer["errors"][0]["message"]

    # An unknown hash with its text runs the text; text alone runs as ever.
    text = {"query": "{ me { role } }"}
    for sent in ({**unknown, **text, "operationName": None}, text):
        status, answer = await _post(backend, sent, token)
        assert status == 200 and answer["data"]["me"]["role"] == "VIEWER", answer


async def test_a_persisted_document_with_a_refused_variable_answers_validation_failed(
    backend: Backend,
) -> None:
    """Enum values outside the schema, by hash as by text: a coded refusal, never INTERNAL."""
    ws = await make_workspace(backend.sessionmaker)
    token = ws.tokens[Role.VIEWER]
    sent = [
        persisted_body("ComparisonsList", {"first": 5, "status": "NOT_A_STATUS"}),
        persisted_body(
            "ComparisonCases", {"id": "cmp_missing", "filter": "UNCHANGED", "first": 5}
        ),
        persisted_body("ComparisonCases", {"id": "cmp_missing", "filter": 7, "first": "five"}),
    ]
    for body in sent:
        status, answer = await _post(backend, body, token)
        assert status in (200, 400), answer
        codes = {error["extensions"]["code"] for error in answer["errors"]}
        assert codes == {"VALIDATION_FAILED"}, answer
        assert answer.get("data") is None, answer
