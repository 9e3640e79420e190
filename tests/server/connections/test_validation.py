"""Bad connection input is VALIDATION_FAILED naming the field, and writes (and sends) nothing."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import func, select

from bench.kit.factories import make_workspace
from bench.kit.harness import Backend
from bench.kit.openai_server import FakeOpenAI
from server.audit.models import AuditEvent
from server.connections.models import ModelConnection

CREATE = """
mutation($input: CreateModelConnectionInput!) {
  createModelConnection(input: $input) { id }
}"""

OPENAI = {"name": "p", "kind": "OPENAI_COMPATIBLE", "apiKey": "sk-ok"}
SIMULATED = {"name": "s", "kind": "SIMULATED"}

# Each case: a valid base input, the overrides that spoil it, and the field the error names
# (None where GraphQL itself refuses the document).
BAD_INPUT = [
    pytest.param(
        OPENAI,
        {"inputCentsPerMillionTokens": -1},
        "inputCentsPerMillionTokens",
        id="negative-input-price",
    ),
    pytest.param(
        OPENAI,
        {"outputCentsPerMillionTokens": -0.01},
        "outputCentsPerMillionTokens",
        id="negative-output-price",
    ),
    pytest.param(
        OPENAI,
        {"outputCentsPerMillionTokens": 1e15},
        "outputCentsPerMillionTokens",
        id="absurd-price",
    ),
    pytest.param(OPENAI, {"monthlyCapCents": -5}, "monthlyCapCents", id="negative-cap"),
    pytest.param(OPENAI, {"maxConcurrency": 0}, "maxConcurrency", id="concurrency-0"),
    pytest.param(OPENAI, {"maxConcurrency": 257}, "maxConcurrency", id="concurrency-257"),
    pytest.param(OPENAI, {"baseUrl": "not a url"}, "baseUrl", id="not-a-url"),
    pytest.param(OPENAI, {"baseUrl": "ftp://files.example.com/v1"}, "baseUrl", id="ftp-url"),
    pytest.param(OPENAI, {"baseUrl": "http:///v1"}, "baseUrl", id="no-host"),
    pytest.param(OPENAI, {"baseUrl": "http://example.com:99999/v1"}, "baseUrl", id="bad-port"),
    pytest.param(
        OPENAI, {"baseUrl": "https://example.com/v1?key=abc"}, "baseUrl", id="query-in-url"
    ),
    pytest.param(
        OPENAI, {"baseUrl": "https://example.com/" + "a" * 2000}, "baseUrl", id="url-too-long"
    ),
    pytest.param({**OPENAI, "baseUrl": None}, {}, "baseUrl", id="missing-url"),
    pytest.param(OPENAI, {"apiKey": ""}, "apiKey", id="empty-key"),
    pytest.param(OPENAI, {"simulation": {"seed": 1}}, "simulation", id="simulation-on-openai"),
    pytest.param(
        SIMULATED, {"baseUrl": "https://example.com/v1"}, "baseUrl", id="url-on-simulated"
    ),
    pytest.param(SIMULATED, {"apiKey": "sk-x"}, "apiKey", id="key-on-simulated"),
    pytest.param(
        SIMULATED, {"simulation": {"accuracy": 1.5}}, "simulation.accuracy", id="accuracy-1.5"
    ),
    pytest.param(
        SIMULATED,
        {"simulation": {"errorRate": -0.1}},
        "simulation.errorRate",
        id="error-rate-negative",
    ),
    pytest.param(
        SIMULATED, {"simulation": {"latencyMs": -1}}, "simulation.latencyMs", id="latency-negative"
    ),
    pytest.param(
        SIMULATED, {"simulation": {"script": ["a"]}}, "simulation.script", id="script-not-object"
    ),
    pytest.param(
        SIMULATED,
        {"simulation": {"script": {"c1": None}}},
        "simulation.script",
        id="script-value-null",
    ),
    pytest.param(
        SIMULATED, {"simulation": {"script": {"": "x"}}}, "simulation.script", id="script-key-empty"
    ),
    pytest.param(OPENAI, {"name": "n" * 201}, "name", id="oversized-name"),
    pytest.param(OPENAI, {"name": "   "}, "name", id="blank-name"),
    pytest.param(OPENAI, {"kind": "TELEPATHY"}, None, id="unknown-kind"),
    pytest.param(OPENAI, {"maxConcurrency": 2.5}, None, id="concurrency-not-int"),
    pytest.param({"name": "x"}, {}, None, id="missing-kind"),
]


async def _counts(backend: Backend, workspace_id: str) -> tuple[int, int]:
    async with backend.sessionmaker() as session:
        connections = (
            await session.execute(
                select(func.count())
                .select_from(ModelConnection)
                .where(ModelConnection.workspace_id == workspace_id)
            )
        ).scalar_one()
        events = (
            await session.execute(
                select(func.count())
                .select_from(AuditEvent)
                .where(AuditEvent.workspace_id == workspace_id)
            )
        ).scalar_one()
    return connections, events


@pytest.mark.parametrize(("base", "overrides", "field"), BAD_INPUT)
async def test_bad_input_is_refused_and_writes_nothing(
    backend: Backend,
    fake_openai: FakeOpenAI,
    base: dict[str, Any],
    overrides: dict[str, Any],
    field: str | None,
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    before = await _counts(backend, ws.id)
    variables = {"baseUrl": fake_openai.base_url} if base is OPENAI else {}
    variables = {k: v for k, v in {**variables, **base, **overrides}.items() if v is not None}
    result = await backend.gql(CREATE, {"input": variables}, token=ws.owner)
    assert result.codes == ["VALIDATION_FAILED"]
    assert result.data is None
    if field is not None:
        assert result.errors[0]["extensions"]["field"] == field
        assert f"`{field}`" in result.errors[0]["message"]
    assert await _counts(backend, ws.id) == before
    assert fake_openai.requests == []  # input is checked before the provider is asked


async def test_the_same_input_made_valid_is_accepted(
    backend: Backend, fake_openai: FakeOpenAI
) -> None:
    """The bad-input table's base inputs are themselves valid, so each case tests one field."""
    ws = await make_workspace(backend.sessionmaker)
    for variables in ({**OPENAI, "baseUrl": fake_openai.base_url}, SIMULATED):
        (await backend.gql(CREATE, {"input": variables}, token=ws.owner)).ok()
    assert (await _counts(backend, ws.id))[0] == 2
