"""The provider pool: one provider per connection, rebuilt on change, and maxConcurrency held."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest
from cryptography.fernet import Fernet

from bench.kit.openai_server import Behaviour, FakeOpenAI
from server.connections.models import ConnectionKind, ConnectionStatus, ModelConnection
from server.providers.base import CallResult, DispatchError, ModelCall
from server.providers.openai_compatible import OpenAICompatibleProvider
from server.providers.registry import ProviderPool, UnavailableProvider
from server.providers.simulated import SimulatedProvider
from server.security import SecretBox
from tests.server.providers.conftest import PROVIDER_KEY

CALL = ModelCall(messages=[{"role": "user", "content": "hi"}], model="fake-1", max_output_tokens=8)


BOX = SecretBox(Fernet.generate_key().decode())
STORED_KEY = BOX.encrypt(PROVIDER_KEY)
"""Encrypted once: Fernet tokens differ on every encryption, as a re-entered key would."""


@pytest.fixture
def box() -> SecretBox:
    return BOX


@pytest.fixture
async def pool(box: SecretBox) -> AsyncIterator[ProviderPool]:
    p = ProviderPool(box)
    yield p
    await p.aclose()


def _connection(box: SecretBox, **fields: Any) -> ModelConnection:
    values: dict[str, Any] = {
        "id": "conn_1",
        "workspace_id": "ws_1",
        "name": "fake",
        "kind": ConnectionKind.OPENAI_COMPATIBLE,
        "base_url": "http://127.0.0.1:9/v1",
        "api_key_encrypted": STORED_KEY if box is BOX else box.encrypt(PROVIDER_KEY),
        "input_micros_per_million_tokens": 0,
        "output_micros_per_million_tokens": 0,
        "monthly_cap_micros": None,
        "max_concurrency": 3,
        "status": ConnectionStatus.READY,
        "simulation": None,
    }
    values.update(fields)
    return ModelConnection(**values)


async def test_one_provider_per_connection_reused(pool: ProviderPool, box: SecretBox) -> None:
    first = pool.get(_connection(box))
    assert isinstance(first, OpenAICompatibleProvider)
    assert pool.get(_connection(box)) is first
    assert pool.limit("conn_1") is pool.limit("conn_1")
    other = pool.get(_connection(box, id="conn_2"))
    assert other is not first
    assert pool.limit("conn_2") is not pool.limit("conn_1")


async def test_a_changed_row_rebuilds_and_close_closes_all(box: SecretBox) -> None:
    pool = ProviderPool(box)
    first = pool.get(_connection(box))
    rekeyed = pool.get(_connection(box, api_key_encrypted=box.encrypt("sk-new")))
    moved = pool.get(_connection(box, api_key_encrypted=box.encrypt("sk-new"), base_url="http://x"))
    assert len({id(first), id(rekeyed), id(moved)}) == 3
    providers = [p for p in (first, rekeyed, moved) if isinstance(p, OpenAICompatibleProvider)]
    assert len(providers) == 3
    assert not any(p.closed for p in providers)
    await pool.aclose()
    assert all(p.closed for p in providers)


async def test_the_decrypted_key_reaches_the_provider(
    pool: ProviderPool, box: SecretBox, fake_openai: FakeOpenAI
) -> None:
    provider = pool.get(_connection(box, base_url=fake_openai.base_url))
    result = await provider.call(CALL)
    assert result.error is None
    assert fake_openai.requests[0].headers["authorization"] == f"Bearer {PROVIDER_KEY}"


async def test_a_key_the_service_cannot_decrypt_makes_calls_not_ready(pool: ProviderPool) -> None:
    other_box = SecretBox(Fernet.generate_key().decode())
    provider = pool.get(_connection(other_box))
    assert isinstance(provider, UnavailableProvider)
    result = await provider.call(CALL)
    assert result == CallResult(output=None, attempts=0, error=DispatchError.CONNECTION_NOT_READY)


async def test_a_simulated_connection(pool: ProviderPool, box: SecretBox) -> None:
    provider = pool.get(
        _connection(
            box,
            kind=ConnectionKind.SIMULATED,
            base_url=None,
            api_key_encrypted=None,
            simulation={"seed": 1, "accuracy": 1, "latencyMs": 0, "errorRate": 0, "script": None},
        )
    )
    assert isinstance(provider, SimulatedProvider)
    assert (await provider.call(CALL)).error is None


async def test_the_semaphore_caps_concurrency_at_the_provider(
    pool: ProviderPool, box: SecretBox, fake_openai: FakeOpenAI
) -> None:
    fake_openai.behaviour = Behaviour(delay_seconds=0.05)
    connection = _connection(box, base_url=fake_openai.base_url, max_concurrency=3)

    async def one() -> CallResult:
        provider = pool.get(connection)
        async with pool.limit(connection.id):
            return await provider.call(CALL)

    results = await asyncio.gather(*(one() for _ in range(20)))
    assert all(r.error is None for r in results)
    assert len(fake_openai.requests) == 20
    assert fake_openai.peak_concurrency == 3


async def test_limit_needs_get_first(pool: ProviderPool) -> None:
    with pytest.raises(KeyError):
        pool.limit("conn_unknown")


async def test_a_new_max_concurrency_gets_a_new_semaphore(
    pool: ProviderPool, box: SecretBox
) -> None:
    first = pool.get(_connection(box, max_concurrency=3))
    three = pool.limit("conn_1")
    assert pool.get(_connection(box, max_concurrency=3)) is first
    assert pool.limit("conn_1") is three
    assert pool.get(_connection(box, max_concurrency=5)) is not first
    five = pool.limit("conn_1")
    assert five is not three
    for _ in range(5):
        await five.acquire()
    assert five.locked()
