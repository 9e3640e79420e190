"""Prices and caps as micro-dollars, the list with spend in one batch, simulation settings."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from sqlalchemy import select

from bench.kit.factories import make_connection, make_experiment, make_workspace
from bench.kit.harness import Backend
from bench.kit.openai_server import Behaviour, FakeOpenAI
from bench.kit.waiting import eventually
from server.connections.models import ModelConnection
from server.spend import service as spend_service
from server.workspaces.roles import Role

CREATE = """
mutation($input: CreateModelConnectionInput!) {
  createModelConnection(input: $input) {
    id simulated inputCentsPerMillionTokens outputCentsPerMillionTokens monthlyCapCents
    maxConcurrency monthToDateSpentCents
    simulation { seed accuracy latencyMs errorRate script }
  }
}"""
LIST = """
query($first: Int, $after: String) {
  modelConnections(first: $first, after: $after) {
    totalCount pageInfo { hasNextPage endCursor }
    edges { node { id name monthToDateSpentCents } }
  }
}"""


async def _create(backend: Backend, token: str, **fields: Any) -> dict[str, Any]:
    result = await backend.gql(CREATE, {"input": {"name": "c", **fields}}, token=token)
    created: dict[str, Any] = result.ok()["createModelConnection"]
    return created


async def _stored(backend: Backend, connection_id: str) -> ModelConnection:
    async with backend.sessionmaker() as session:
        row = (
            await session.execute(
                select(ModelConnection).where(ModelConnection.id == connection_id)
            )
        ).scalar_one()
    return row


@pytest.mark.parametrize(
    ("cents", "micros"),
    [(0.01, 100), (0.0, 0), (12.345678, 123_457), (250.0, 2_500_000), (0.00004, 0)],
)
async def test_prices_are_stored_as_micros_and_shown_as_cents(
    backend: Backend, cents: float, micros: int
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    created = await _create(
        backend,
        ws.tokens[Role.ADMIN],
        kind="SIMULATED",
        inputCentsPerMillionTokens=cents,
        outputCentsPerMillionTokens=cents * 2,
        monthlyCapCents=cents,
    )
    row = await _stored(backend, created["id"])
    assert row.input_micros_per_million_tokens == micros
    assert row.monthly_cap_micros == micros
    assert row.output_micros_per_million_tokens == round(cents * 2 * 10_000)
    assert created["inputCentsPerMillionTokens"] == micros / 10_000
    assert created["monthlyCapCents"] == micros / 10_000


async def test_a_hundredth_of_a_cent_round_trips_exactly(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    created = await _create(backend, ws.owner, kind="SIMULATED", inputCentsPerMillionTokens=0.01)
    assert (await _stored(backend, created["id"])).input_micros_per_million_tokens == 100
    listed = "{ modelConnections { edges { node { inputCentsPerMillionTokens } } } }"
    node = (await backend.gql(listed, token=ws.tokens[Role.VIEWER])).ok()
    assert node["modelConnections"]["edges"][0]["node"]["inputCentsPerMillionTokens"] == 0.01


async def test_defaults_no_cap_and_simulation_defaults(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    created = await _create(backend, ws.owner, kind="SIMULATED")
    assert created["simulated"] is True
    assert created["monthlyCapCents"] is None
    assert created["maxConcurrency"] == 8
    assert created["inputCentsPerMillionTokens"] == 0.0
    assert created["monthToDateSpentCents"] == 0.0
    assert created["simulation"] == {
        "seed": 0,
        "accuracy": 0.8,
        "latencyMs": 0,
        "errorRate": 0.0,
        "script": None,
    }


async def test_simulation_settings_and_script_are_kept(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    script = {"case-1": "Paris", "case-2": {"output": "42", "toolCalls": []}, "case-3": 7}
    simulation = {"seed": 7, "accuracy": 1.0, "latencyMs": 25, "errorRate": 0.1, "script": script}
    created = await _create(
        backend, ws.owner, kind="SIMULATED", simulation=simulation, maxConcurrency=256
    )
    assert created["simulation"] == simulation
    assert created["maxConcurrency"] == 256
    row = await _stored(backend, created["id"])
    assert row.simulation == simulation
    assert row.base_url is None and row.api_key_encrypted is None


async def test_an_openai_compatible_connection_is_not_simulated(
    backend: Backend, fake_openai: FakeOpenAI
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    created = await _create(
        backend, ws.owner, kind="OPENAI_COMPATIBLE", baseUrl=fake_openai.base_url, maxConcurrency=1
    )
    assert created["simulated"] is False
    assert created["simulation"] is None
    assert created["maxConcurrency"] == 1


async def test_connections_are_paginated_and_scoped(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    other = await make_workspace(backend.sessionmaker, name="other")
    await make_connection(backend.sessionmaker, other, name="not ours")
    made = [await make_connection(backend.sessionmaker, ws, name=f"c{i}") for i in range(3)]
    first = (await backend.gql(LIST, {"first": 2}, token=ws.tokens[Role.VIEWER])).ok()
    page = first["modelConnections"]
    assert page["totalCount"] == 3
    assert page["pageInfo"]["hasNextPage"] is True
    rest = await backend.gql(
        LIST, {"first": 2, "after": page["pageInfo"]["endCursor"]}, token=ws.owner
    )
    tail = rest.ok()["modelConnections"]
    assert tail["pageInfo"]["hasNextPage"] is False
    ids = [e["node"]["id"] for e in page["edges"] + tail["edges"]]
    assert ids == sorted(m.id for m in made)


async def test_month_to_date_spend_is_loaded_in_one_batch(
    backend: Backend, monkeypatch: pytest.MonkeyPatch
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    made = [await make_connection(backend.sessionmaker, ws, name=f"c{i}") for i in range(4)]
    calls: list[list[str]] = []
    original = spend_service.month_to_date_spend_micros

    async def counting(**kwargs: Any) -> dict[str, int]:
        calls.append(list(kwargs["connection_ids"]))
        spent = await original(**kwargs)
        return {key: 0 if key != made[1].id else 12_345 for key in spent}

    monkeypatch.setattr(spend_service, "month_to_date_spend_micros", counting)
    listed = (await backend.gql(LIST, {"first": 10}, token=ws.owner)).ok()
    spend = {
        e["node"]["id"]: e["node"]["monthToDateSpentCents"]
        for e in listed["modelConnections"]["edges"]
    }
    assert spend == {m.id: 1.2345 if m is made[1] else 0.0 for m in made}
    assert len(calls) == 1
    assert sorted(calls[0]) == sorted(m.id for m in made)


async def test_the_spend_today_is_zero_for_every_connection(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    made = await make_connection(backend.sessionmaker, ws)
    async with backend.sessionmaker() as session:
        spent = await spend_service.month_to_date_spend_micros(
            session=session, connection_ids=[made.id, "conn_unknown"]
        )
    assert spent == {made.id: 0, "conn_unknown": 0}


async def test_a_slow_provider_does_not_hold_up_other_writes(
    backend: Backend, fake_openai: FakeOpenAI
) -> None:
    """No transaction (on SQLite: the one write lock) stays open while the provider answers."""
    ws = await make_workspace(backend.sessionmaker)
    fake_openai.api_key = None
    made = await _create(backend, ws.owner, kind="OPENAI_COMPATIBLE", baseUrl=fake_openai.base_url)
    fake_openai.behaviour = Behaviour(delay_seconds=1.0)
    check = "mutation($id: ID!) { checkModelConnection(id: $id) { status } }"
    for slow in (
        _create(backend, ws.owner, kind="OPENAI_COMPATIBLE", baseUrl=fake_openai.base_url),
        backend.gql(check, {"id": made["id"]}, token=ws.owner),
    ):
        task = asyncio.ensure_future(slow)
        await eventually(lambda: fake_openai.in_flight, timeout=10, what="the call in flight")
        await asyncio.wait_for(make_experiment(backend.sessionmaker, ws, name=str(id(task))), 0.5)
        assert not task.done()
        await task
