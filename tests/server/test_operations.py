"""/healthz, /readyz and /metrics, and logs free of secrets."""

from __future__ import annotations

import logging

import pytest

from bench.kit.factories import make_workspace
from bench.kit.harness import Backend, start_backend
from bench.kit.waiting import eventually
from server.settings import Settings


async def test_healthz_and_readyz_answer(backend: Backend) -> None:
    health = await backend.client.get("/healthz")
    assert health.status_code == 200 and health.json() == {"status": "ok"}
    ready = await backend.client.get("/readyz")
    assert ready.status_code == 200
    expected = (
        {"database": True, "redis": True} if backend.settings.redis_url else {"database": True}
    )
    assert ready.json()["checks"] == expected


async def test_readyz_is_503_when_the_database_is_unreachable(
    tmp_path: pytest.TempPathFactory, fernet_key: str
) -> None:
    settings = Settings(
        data_dir=tmp_path,
        database_url="postgresql+asyncpg://nobody@127.0.0.1:1/none",
        secret_key=fernet_key,
    )
    async with start_backend("broken", settings) as broken:
        ready = await broken.client.get("/readyz")
        assert ready.status_code == 503
        assert ready.json()["checks"]["database"] is False
        assert (await broken.client.get("/healthz")).status_code == 200


async def test_readyz_is_503_when_redis_is_unreachable(
    tmp_path: pytest.TempPathFactory, fernet_key: str
) -> None:
    settings = Settings(
        data_dir=tmp_path,
        redis_url="redis://127.0.0.1:1/0",
        secret_key=fernet_key,
    )
    async with start_backend("no-redis", settings) as broken:
        ready = await broken.client.get("/readyz")
        assert ready.status_code == 503
        assert ready.json()["checks"] == {"database": True, "redis": False}


async def test_metrics_count_requests_errors_and_jobs(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    await backend.gql("{ me { role } }", token=ws.owner)
    await backend.gql("{ me { role } }")  # UNAUTHENTICATED
    await backend.state.queue.enqueue("record_heartbeat")

    async def metrics() -> str:
        return (await backend.client.get("/metrics")).text

    text = await eventually(
        metrics,
        until=lambda t: 'shipwise_jobs{name="record_heartbeat",outcome="complete"}' in t,
        timeout=10,
        what="the heartbeat job counted",
    )
    assert 'shipwise_http_requests_total{path="/graphql",status="200"}' in text
    assert 'shipwise_graphql_errors_total{code="UNAUTHENTICATED"}' in text
    for le in ("0.15", "0.2", "0.25", "0.3"):  # the read target's neighbourhood, resolved
        assert f'shipwise_http_request_seconds_bucket{{le="{le}",path="/graphql"}}' in text
    assert 'shipwise_jobs{name="record_heartbeat",outcome="complete"}' in text


async def test_logs_hold_no_token(backend: Backend, caplog: pytest.LogCaptureFixture) -> None:
    ws = await make_workspace(backend.sessionmaker)
    with caplog.at_level(logging.DEBUG):
        created = (
            await backend.gql('mutation { createToken(name: "ci") { secret } }', token=ws.owner)
        ).ok()["createToken"]["secret"]
        await backend.gql("{ me { role } }", token=created)
        await backend.gql("{ me { nope } }", token=created)
    assert caplog.records, "expected some log lines"
    for record in caplog.records:
        assert created not in record.getMessage()
        assert ws.owner not in str(record.__dict__)
