"""One transaction at a time per process on SQLite, in the order they asked.

Every SQLite transaction here begins with `BEGIN IMMEDIATE` (server/db.py), so only one holds
the write lock. SQLite's own wait for it is not a queue: each waiter sleeps and tries again
(up to 100 ms apart) until its busy timeout, so under steady traffic a waiter can lose every
try to the connections that happen to ask at the right moment. With four tasks running 30 ms
transactions back to back, a fifth waited 2.5–9 s and one of them failed after its 10 s
(`database is locked`); on a loaded host an embedded server's restart failed a read that way.

The gate queues this process's transactions on an `asyncio.Lock` (first come, first served)
before `BEGIN IMMEDIATE`, so within the process a transaction waits its turn instead of
polling; the busy timeout is left for other processes (the CLI, a second server).
"""

from __future__ import annotations

import asyncio
import contextlib
import weakref
from collections.abc import Callable
from typing import Any, Final

from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlalchemy.exc import OperationalError
from sqlalchemy.util import await_only

GATE_TIMEOUT_S: Final = 60.0
"""A turn not come in this long fails as SQLite's own timeout does (a transaction that waits
for another one of the same process would otherwise wait for ever)."""

_HELD: Final = "shipwise_gate_held"


class SQLiteGate:
    """The process's queue for one engine's transactions, one lock per event loop."""

    def __init__(self, timeout: float = GATE_TIMEOUT_S) -> None:
        self.timeout = timeout
        self._locks: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Lock] = (
            weakref.WeakKeyDictionary()
        )

    def _lock(self) -> asyncio.Lock:
        loop = asyncio.get_running_loop()
        lock = self._locks.get(loop)
        if lock is None:
            lock = self._locks[loop] = asyncio.Lock()
        return lock

    async def _acquire(self) -> asyncio.Lock:
        lock = self._lock()
        try:
            # Not `wait_for`: on Python 3.11 a cancel that comes as the lock is granted
            # leaves it held by nobody (gh-86296); `Lock.acquire` itself undoes a grant.
            async with asyncio.timeout(self.timeout):
                await lock.acquire()
        except TimeoutError:
            raise OperationalError(
                "BEGIN IMMEDIATE", None, Exception("database is locked (gate timeout)")
            ) from None
        return lock

    def enter(self, info: dict[str, Any]) -> None:
        """Wait for this process's turn (from the `begin` hook, inside SQLAlchemy's greenlet)."""
        info[_HELD] = await_only(self._acquire())

    @staticmethod
    def leave(info: dict[str, Any]) -> None:
        """Give the turn up; safe to call again, and for a connection that holds none."""
        lock = info.pop(_HELD, None)
        if lock is not None and lock.locked():
            lock.release()


_GATES: Final[dict[str, SQLiteGate]] = {}
"""One gate per database file: two engines of a process on one file share a queue."""


def install(sync_engine: Engine, begin: Callable[[Any], None]) -> None:
    """Queue `begin(conn)` (which issues `BEGIN IMMEDIATE`) behind the database's gate, and
    give the turn up at every way a transaction ends: commit, rollback, check-in,
    invalidation, close.

    SQLAlchemy's `commit`/`rollback` events come just before the statement itself, so the
    next in line may ask SQLite a moment early; with one asker at a time, SQLite's first
    retries (1, 2, 5 ms) find the lock free."""
    gate = _GATES.setdefault(str(sync_engine.url), SQLiteGate())

    @event.listens_for(sync_engine, "begin")
    def _on_begin(conn: Any) -> None:
        info = conn.connection.info
        gate.enter(info)
        try:
            begin(conn)
        except BaseException:
            gate.leave(info)
            raise

    def _leave_connection(conn: Any) -> None:
        if conn.invalidated:  # the turn went with the connection (`_end_invalidated`)
            return
        gate.leave(conn.connection.info)

    event.listen(sync_engine, "commit", _leave_connection)
    event.listen(sync_engine, "rollback", _leave_connection)

    def _leave_record(_dbapi_connection: Any, record: Any) -> None:
        gate.leave(record.info)

    def _end_invalidated(dbapi_connection: Any, record: Any, _exception: Any) -> None:
        try:
            if _HELD in record.info and dbapi_connection is not None:
                rollback_invalidated(dbapi_connection)
        finally:
            gate.leave(record.info)

    def _leave_invalidated(_dbapi_connection: Any, record: Any, _exception: Any) -> None:
        gate.leave(record.info)

    event.listen(sync_engine.pool, "checkin", _leave_record)
    event.listen(sync_engine.pool, "close", _leave_record)
    event.listen(sync_engine.pool, "invalidate", _end_invalidated)
    event.listen(sync_engine.pool, "soft_invalidate", _leave_invalidated)


def rollback_invalidated(dbapi_connection: Any) -> None:
    """Roll back the transaction of a connection invalidated in the middle of it, before its
    turn is given up.

    SQLAlchemy takes a cancel that lands in a statement (a task cancelled while it waits for
    SQLite's thread) for a lost connection: it invalidates the connection and closes it
    without a ROLLBACK. Closing does not end a SQLite transaction while any statement of the
    connection is not finalized (`sqlite3_close_v2` leaves a zombie), and the cancelled
    task's traceback keeps the statement it was running: the transaction, and the database's
    write lock, stayed until that was garbage-collected, and each transaction after it
    failed `database is locked` at the busy timeout. Its turn given up meanwhile, the next
    in line waited for that lock. A rollback that fails leaves the close to end it (the
    connection is discarded either way)."""
    with contextlib.suppress(Exception):
        dbapi_connection.rollback()
