"""On SQLite a process's transactions wait their turn in the order they asked
(server/sqlite_gate.py): under steady traffic none is starved into `database is locked`, and
a turn is given back however a transaction ends."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from sqlalchemy import event, text
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from bench.kit.waiting import eventually
from server.db import create_engine, create_sessionmaker

HOGS = 4
HOLD_STATEMENTS = 20


@pytest.fixture
async def engine(tmp_path: Path) -> AsyncIterator[AsyncEngine]:
    engine = create_engine(f"sqlite+aiosqlite:///{tmp_path / 'queue.sqlite'}")
    async with engine.begin() as conn:
        await conn.execute(text("CREATE TABLE t (x INTEGER)"))
    try:
        yield engine
    finally:
        await engine.dispose()


async def test_a_transaction_waits_for_at_most_those_queued_before_it(
    engine: AsyncEngine,
) -> None:
    """Four tasks run short transactions back to back; each of ten probes sees at most one
    transaction per task commit while it waits, and one more counted late (a hog counts its
    commit after its block ends, its turn already given back). SQLite's own wait (retries
    up to 100 ms apart) let probes wait through hundreds, 2.5–9 s, and failed one at 10 s."""
    sessionmaker = create_sessionmaker(engine)
    commits = 0
    stop = asyncio.Event()

    async def hog() -> None:
        nonlocal commits
        while not stop.is_set():
            async with sessionmaker() as session, session.begin():
                await session.execute(text("INSERT INTO t VALUES (1)"))
                for _ in range(HOLD_STATEMENTS):  # the transaction spans turns of the loop
                    await session.execute(text("SELECT count(*) FROM t"))
            commits += 1

    hogs = [asyncio.create_task(hog()) for _ in range(HOGS)]
    try:
        await eventually(lambda: commits, until=lambda n: n >= 2 * HOGS, what="hogs cycling")
        passed_by = []
        for _ in range(10):
            before = commits
            async with sessionmaker() as session, session.begin():
                await session.execute(text("SELECT 1"))
                passed_by.append(commits - before)
    finally:
        stop.set()
        await asyncio.gather(*hogs)
    assert max(passed_by) <= HOGS + 1, passed_by


@dataclass
class Turns:
    """A holder keeping its transaction open until released, and a waiter queued behind it."""

    held: asyncio.Task[None]
    waiting: asyncio.Task[None]
    release: asyncio.Event


async def _insert(
    sessionmaker: async_sessionmaker[AsyncSession],
    value: int,
    *,
    inside: asyncio.Event | None = None,
    release: asyncio.Event | None = None,
) -> None:
    """Insert `value` in a transaction; with `release`, say `inside` and hold it until then."""
    async with sessionmaker() as session, session.begin():
        await session.execute(text("INSERT INTO t VALUES (:x)"), {"x": value})
        if inside is not None and release is not None:
            inside.set()
            await release.wait()


async def _holder_and_waiter(engine: AsyncEngine, held: int, waited: int) -> Turns:
    sessionmaker = create_sessionmaker(engine)
    async with engine.connect(), engine.connect():  # two in the pool: no connect to wait on
        pass
    inside, release = asyncio.Event(), asyncio.Event()
    holder = asyncio.create_task(_insert(sessionmaker, held, inside=inside, release=release))
    await inside.wait()
    waiting = asyncio.create_task(_insert(sessionmaker, waited))
    pool = engine.sync_engine.pool
    await eventually(  # the waiter has its connection: it waits for its turn
        lambda: pool.checkedout(),  # type: ignore[attr-defined]
        until=lambda n: n == 2,
        what="the waiter queued",
    )
    assert not waiting.done()
    return Turns(holder, waiting, release)


async def test_a_turn_is_given_back_after_a_failure_a_rollback_and_a_cancelled_wait(
    engine: AsyncEngine,
) -> None:
    sessionmaker = create_sessionmaker(engine)
    with pytest.raises(ZeroDivisionError):
        async with sessionmaker() as session, session.begin():
            await session.execute(text("INSERT INTO t VALUES (1)"))
            _ = 1 / 0
    async with sessionmaker() as session:  # a read session, closed without a commit
        assert await session.scalar(text("SELECT count(*) FROM t")) == 0

    turns = await _holder_and_waiter(engine, held=2, waited=3)
    turns.waiting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await turns.waiting
    turns.release.set()
    await turns.held
    async with sessionmaker() as session, session.begin():
        assert await session.scalar(text("SELECT sum(x) FROM t")) == 2


async def test_a_wait_cancelled_as_its_turn_comes_ends_cancelled_and_gives_the_turn_on(
    engine: AsyncEngine,
) -> None:
    """The waiter is cancelled in the same step as the holder gives the turn up (from a
    `commit` listener after the gate's): it must end cancelled, as a shutdown asks, and leave
    the turn to the next. `asyncio.wait_for` on Python 3.11 swallowed such a cancel and the
    transaction ran on (a SIGTERM'd server then outlived its stop)."""
    sessionmaker = create_sessionmaker(engine)
    turns = await _holder_and_waiter(engine, held=1, waited=10)
    event.listen(engine.sync_engine, "commit", lambda _conn: turns.waiting.cancel())
    turns.release.set()
    await turns.held
    with pytest.raises(asyncio.CancelledError):
        await turns.waiting
    async with asyncio.timeout(5), sessionmaker() as session, session.begin():
        assert await session.scalar(text("SELECT sum(x) FROM t")) == 1


async def test_a_transaction_cancelled_in_a_statement_ends_cancelled_and_frees_the_database(
    engine: AsyncEngine,
) -> None:
    """A task cancelled while its statement runs: SQLAlchemy takes the cancel for a lost
    connection and closes the connection without a ROLLBACK. A closed SQLite connection
    whose statements are not all finalized (the cancelled task's traceback keeps them) keeps
    its transaction, and the write lock, until it is garbage-collected: the next transaction
    failed `database is locked` after the busy timeout, and the cancelled one ended in a
    PendingRollbackError from the gate's rollback listener instead of cancelled."""
    sessionmaker = create_sessionmaker(engine)
    running = asyncio.Event()

    async def slow_transaction() -> None:
        async with sessionmaker() as session, session.begin():
            await session.execute(text("INSERT INTO t VALUES (1)"))
            running.set()
            await session.execute(  # a second or so in SQLite's thread
                text(
                    "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n"
                    " WHERE i < 3000000) SELECT count(*) FROM n"
                )
            )

    cancelled = asyncio.create_task(slow_transaction())
    await running.wait()  # set just before the task awaits its slow statement
    cancelled.cancel()
    with pytest.raises(asyncio.CancelledError):
        await cancelled  # kept: its traceback holds what the cancelled statement used
    async with asyncio.timeout(5), sessionmaker() as session, session.begin():
        await session.execute(text("INSERT INTO t VALUES (2)"))
        assert await session.scalar(text("SELECT sum(x) FROM t")) == 2
