"""Page reads on PostgreSQL (`server.driver_reads`) share a few driver connections,
kept checked out between reads: not one per read, nor one per client; a kept connection the
database dropped fails one read (the request is answered all the same: the schema's try
reads again on a fresh one), and one idle too long goes back to the pool to be pinged
there."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from sqlalchemy import func, select, text
from sqlalchemy.ext.asyncio import AsyncEngine

from bench.kit.factories import make_comparison_setup, make_workspace
from bench.kit.harness import Backend, start_backend
from bench.kit.statements import counting_statements, is_token_check, listening
from server.db import create_engine
from server.driver_reads import DATABASE_ERRORS, DriverConnections
from server.workspaces.roles import Role
from tests.server.running_comparisons import running_comparison

LIST = "ComparisonsList"


@contextmanager
def _checkouts(engine: AsyncEngine) -> Iterator[list[Any]]:
    """The engine's pool checkouts made within the block."""
    seen: list[Any] = []

    def checkout(dbapi_connection: Any, *_: Any) -> None:
        seen.append(dbapi_connection)

    with listening(engine.sync_engine, "checkout", checkout):
        yield seen


async def _viewer(backend: Backend) -> str:
    ws = await make_workspace(backend.sessionmaker)
    setup = await make_comparison_setup(backend.sessionmaker, ws, cases=3)
    for recorded in range(3):
        await running_comparison(backend, setup, recorded=recorded)
    return ws.tokens[Role.VIEWER]


def _listed(result: Any, first: int) -> None:
    edges = result.ok()["comparisons"]["edges"]
    assert len(edges) == min(first, 3), result.body


async def test_reads_one_after_another_reuse_one_connection(postgres_backend: Backend) -> None:
    token = await _viewer(postgres_backend)
    _listed(await postgres_backend.portal(LIST, {"first": 20}, token=token), 20)  # the token read
    with (
        _checkouts(postgres_backend.state.engine) as checkouts,
        counting_statements(postgres_backend, token_checks=True) as sql,
    ):
        for first in range(1, 11):  # each a new request: no kept answer
            _listed(await postgres_backend.portal(LIST, {"first": first}, token=token), first)
    assert sum("json_agg" in statement for statement in sql) == 10, "each page read on the driver"
    # A slow host may see the token checked again (every 2 s): that read takes a checkout.
    checks = sum(is_token_check(statement) for statement in sql)
    assert len(checkouts) <= checks, "the page reads' connection is kept between reads"


async def test_many_reads_at_once_share_a_few_connections_not_the_pool(
    postgres_backend: Backend,
) -> None:
    token = await _viewer(postgres_backend)
    _listed(await postgres_backend.portal(LIST, {"first": 20}, token=token), 20)  # the token read
    with (
        _checkouts(postgres_backend.state.engine) as checkouts,
        counting_statements(postgres_backend, token_checks=True) as sql,
    ):
        results = await asyncio.gather(
            *(postgres_backend.portal(LIST, {"first": 1 + n % 20}, token=token) for n in range(40))
        )
    for n, result in enumerate(results):
        _listed(result, 1 + n % 20)
    checks = sum(is_token_check(statement) for statement in sql)  # as above
    assert len(checkouts) <= 8 + checks, "at most eight connections, whatever the clients"
    pool = postgres_backend.state.engine.pool
    assert pool.checkedout() <= 8, pool.status()  # type: ignore[attr-defined]


async def test_a_kept_connection_the_database_dropped_costs_no_read(
    postgres_database: str,
) -> None:
    engine = create_engine(postgres_database)
    connections = DriverConnections(engine, size=2)
    pid = select(func.pg_backend_pid().label("pid"))
    try:
        first, second = await asyncio.gather(*(connections.fetch(pid, {}) for _ in range(2)))
        kept = {first[0]["pid"], second[0]["pid"]}
        assert len(kept) == 2 and (await connections.fetch(pid, {}))[0]["pid"] in kept
        async with engine.connect() as other:  # a restart: both dropped
            for dropped in kept:
                await other.execute(select(func.pg_terminate_backend(dropped)))
        (fresh,) = await connections.fetch(pid, {})  # read again on a fresh one
        assert fresh["pid"] not in kept
        (again,) = await connections.fetch(pid, {})  # the other dropped one was let go too
        assert again["pid"] == fresh["pid"]
        broken = select(func.pg_terminate_backend(func.pg_backend_pid()).label("gone"))
        with pytest.raises(DATABASE_ERRORS):  # a fresh connection that fails: the read fails
            await connections.fetch(broken, {})
    finally:
        await connections.close()
        await engine.dispose()


async def test_a_connection_idle_too_long_goes_back_to_the_pool(postgres_database: str) -> None:
    engine = create_engine(postgres_database, ping_idle_after=0)
    connections = DriverConnections(engine, size=1, idle_seconds=0)
    pid = select(func.pg_backend_pid().label("pid"))
    try:
        with _checkouts(engine) as checkouts:
            for _ in range(3):
                await connections.fetch(pid, {})
        assert len(checkouts) == 3, "each read after the idle limit checks out again"
    finally:
        await connections.close()
        await engine.dispose()


async def test_a_kept_connection_the_database_dropped_costs_no_answer(
    postgres_backend: Backend,
) -> None:
    token = await _viewer(postgres_backend)
    async with postgres_backend.sessionmaker() as session:
        before = await session.scalar(select(func.now()))
    # A server of its own: every connection opened since `before` with the list's
    # statement last is its kept one (the session's server sits idle meanwhile).
    async with start_backend("postgres-dropped", postgres_backend.settings) as server:
        with counting_statements(server) as sql:
            _listed(await server.portal(LIST, {"first": 2}, token=token), 2)
        (listed,) = [statement for statement in sql if "json_agg" in statement]
        async with server.sessionmaker() as session, session.begin():
            dropped = await session.scalar(
                text(
                    "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
                    " WHERE datname = current_database() AND backend_start >= :before"
                    " AND left(:sql, length(query)) = query"  # the text is kept cut short
                ),
                {"before": before, "sql": listed},
            )
        assert dropped == 1, "the kept connection, idle after its read"
        # Its next read fails on the dropped connection; the schema's try reads afresh.
        _listed(await server.portal(LIST, {"first": 3}, token=token), 3)
        with counting_statements(server) as sql:
            _listed(await server.portal(LIST, {"first": 1}, token=token), 1)
        assert any("json_agg" in statement for statement in sql), "on the driver again"
