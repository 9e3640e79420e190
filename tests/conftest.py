"""Both backends for the behaviour suite: SQLite + in-process, and PostgreSQL + Redis + arq."""

from __future__ import annotations

import asyncio
import gc
import os
import secrets
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
from cryptography.fernet import Fernet
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bench.kit import services
from bench.kit.databases import create_migrated_database, create_migrated_sqlite, drop_database
from bench.kit.harness import Backend, start_backend, start_worker_process, stop_worker_process
from bench.kit.openai_server import FakeOpenAI
from bench.kit.private_redis import PrivateRedis
from server.db import create_engine, create_sessionmaker
from tests.fakes.anthropic_server import FakeAnthropic
from tests.fakes.judge_server import FakeJudge
from tests.private_services import private_redis

# The page tests' Chromium (`browser`, `browser_page`) registered here once: a session fixture
# imported into each test module is a fixture of that module, so every module launched a
# Chromium of its own and kept it to the end of the run.
pytest_plugins = ["bench.kit.browser"]

_AVAILABILITY: services.Availability | None = None

PROVIDER_KEY = "sk-fake-0123456789abcdefSECRET"
"""The API key the session's fake provider accepts."""

PROVIDER_TIMEOUT_SECONDS = 1.0
"""Dispatch's provider timeout on both backends: fault tests time calls out quickly."""

WEBHOOK_RETRY_BASE_SECONDS = 0.05
"""Webhook retries wait 0.05 · 2ⁿ s on both backends, so six attempts take under 2 s."""

WEBHOOK_SETTINGS: dict[str, Any] = {
    "webhook_allow_private": True,  # the test receiver listens on 127.0.0.1
    "webhook_retry_base_seconds": WEBHOOK_RETRY_BASE_SECONDS,
    "webhook_timeout_seconds": 5.0,
}


def availability() -> services.Availability:
    global _AVAILABILITY
    if _AVAILABILITY is None:
        _AVAILABILITY = services.probe()
    return _AVAILABILITY


def pytest_configure(config: pytest.Config) -> None:  # noqa: ARG001 - hook signature
    availability()  # probe before any event loop runs


@pytest.hookimpl(hookwrapper=True, tryfirst=True)
def pytest_runtest_makereport() -> Iterator[None]:
    """No cyclic collection while a test's report (a failure's source) is built.

    pytest reads a failing test's source with `ast.parse`, which on Python 3.11.7 is not
    re-entrant (CPython gh-106905). A collection during it that frees an asyncio task whose
    exception nobody retrieved logs that exception, the traceback's formatting parses
    again, and the outer parse fails with "AST constructor recursion depth mismatch": an
    INTERNALERROR that ended the whole run and hid the failure it was reporting.
    """
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()


def pytest_report_header(config: pytest.Config) -> list[str]:  # noqa: ARG001
    found = availability()
    lines = []
    for name, why in (("PostgreSQL", found.postgres), ("Redis", found.redis)):
        if why is None:
            lines.append(f"shipwise: {name} answers; its tests run")
        else:
            lines.append(
                f"!!!!! shipwise: {name} does NOT answer ({why}); its tests are SKIPPED !!!!!"
            )
    return lines


def require_services(*names: str) -> None:
    """Skip (loudly) when a service is missing; under CI=true fail instead."""
    found = availability()
    missing = [n for n in names if getattr(found, n) is not None]
    if not missing:
        return
    message = f"needs {', '.join(missing)}, which did not answer"
    if services.in_ci():
        pytest.fail(f"CI=true: {message}", pytrace=False)
    pytest.skip(message)


@pytest.fixture(scope="session")
def session_tmp(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("shipwise")


@pytest.fixture(scope="session")
def fernet_key() -> str:
    return Fernet.generate_key().decode()


@pytest.fixture(scope="session")
async def postgres_database() -> AsyncIterator[str]:
    """A migrated, empty PostgreSQL database that lives for the test session."""
    require_services("postgres")
    url, name = await create_migrated_database(services.postgres_url(), "shipwise_test")
    try:
        yield url
    finally:
        await drop_database(services.postgres_url(), name)


@pytest.fixture
async def postgres_sessionmaker(
    postgres_database: str,
) -> AsyncIterator[async_sessionmaker[AsyncSession]]:
    """Sessions on the session's PostgreSQL database, for the factories and the tests' own reads."""
    engine = create_engine(postgres_database)
    try:
        yield create_sessionmaker(engine)
    finally:
        await engine.dispose()


@pytest.fixture(scope="session")
def redis_test_url() -> str:
    """The test Redis database (shared: every session uses a job queue of its own)."""
    require_services("redis")
    return services.redis_url()


@pytest.fixture(scope="session")
def queue_name() -> str:
    """A job queue for this session alone, so no other session's worker takes its jobs."""
    return f"shipwise-test-{secrets.token_hex(4)}"


@pytest.fixture(scope="session")
async def sqlite_backend(session_tmp: Path, fernet_key: str) -> AsyncIterator[Backend]:
    from server.settings import Settings

    data_dir = session_tmp / "embedded"
    settings = Settings(
        data_dir=data_dir,
        secret_key=fernet_key,
        provider_timeout_seconds=PROVIDER_TIMEOUT_SECONDS,
        **WEBHOOK_SETTINGS,
    )
    await asyncio.to_thread(create_migrated_sqlite, settings.database_url)
    async with start_backend("sqlite", settings) as backend:
        yield backend


@pytest.fixture(scope="session")
def worker_process(
    postgres_database: str,
    redis_test_url: str,
    queue_name: str,
    fernet_key: str,
    session_tmp: Path,
) -> Iterator[object]:
    """A real `shipwise worker` on the test database and Redis, for the session."""
    env = {
        **os.environ,
        "SHIPWISE_DATABASE_URL": postgres_database,
        "SHIPWISE_REDIS_URL": redis_test_url,
        "SHIPWISE_SECRET_KEY": fernet_key,
        "SHIPWISE_DATA_DIR": str(session_tmp / "worker"),
        "SHIPWISE_QUEUE_NAME": queue_name,
        "SHIPWISE_PROVIDER_TIMEOUT_SECONDS": str(PROVIDER_TIMEOUT_SECONDS),
        **{f"SHIPWISE_{k.upper()}": str(v).lower() for k, v in WEBHOOK_SETTINGS.items()},
    }
    process = start_worker_process(env, session_tmp / "worker.log")
    try:
        yield process
    finally:
        stop_worker_process(process)


@pytest.fixture(scope="session")
async def postgres_backend(
    postgres_database: str,
    redis_test_url: str,
    queue_name: str,
    fernet_key: str,
    session_tmp: Path,
    worker_process: object,  # noqa: ARG001 - a worker runs beside the server
) -> AsyncIterator[Backend]:
    from server.settings import Settings

    settings = Settings(
        data_dir=session_tmp / "pg",
        database_url=postgres_database,
        redis_url=redis_test_url,
        secret_key=fernet_key,
        queue_name=queue_name,
        provider_timeout_seconds=PROVIDER_TIMEOUT_SECONDS,
        **WEBHOOK_SETTINGS,
    )
    async with start_backend("postgres", settings) as backend:
        yield backend


@pytest.fixture(scope="session", params=["sqlite", "postgres"])
def backend(request: pytest.FixtureRequest) -> Backend:
    """The behaviour suite's parameter: each test runs on both backends."""
    name = f"{request.param}_backend"
    result: Backend = request.getfixturevalue(name)
    return result


@pytest.fixture(scope="session")
def _fake_openai_server() -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as fake:
        yield fake


@pytest.fixture
def fake_openai(_fake_openai_server: FakeOpenAI) -> FakeOpenAI:
    """The session's fake OpenAI-compatible provider, accepting only `PROVIDER_KEY`, with no
    history (tests/server/providers has a fresh one per test instead)."""
    _fake_openai_server.reset()
    _fake_openai_server.api_key = PROVIDER_KEY
    return _fake_openai_server


@pytest.fixture(scope="session")
def _fake_anthropic_server() -> Iterator[FakeAnthropic]:
    with FakeAnthropic() as fake:
        yield fake


@pytest.fixture
def fake_anthropic(_fake_anthropic_server: FakeAnthropic) -> FakeAnthropic:
    """The session's fake Anthropic Messages API, accepting only `PROVIDER_KEY` as its
    `x-api-key`, with no history."""
    _fake_anthropic_server.reset()
    _fake_anthropic_server.api_key = PROVIDER_KEY
    return _fake_anthropic_server


@pytest.fixture
def judge() -> Iterator[FakeJudge]:
    """A fake pairwise judge that prefers response A when the two are equally good."""
    with FakeJudge(api_key=PROVIDER_KEY, prefer_a=True) as fake:
        yield fake


@pytest.fixture
def redis(tmp_path: Path) -> Iterator[PrivateRedis]:
    """A `redis-server` of the test's own, which a fault test may stop and start again."""
    server = private_redis(tmp_path)
    try:
        yield server
    finally:
        server.stop()
