"""One request's read session, lent to one user at a time.

Sibling resolvers run concurrently and an `AsyncSession` must never be used by two of them
at once, yet a session per DataLoader batch costs a pool checkout, a ping, BEGIN and
ROLLBACK each. So a request reads through one session behind a lock: root resolvers and
loader batches take turns on it, and it is closed when the operation ends.

On SQLite every transaction begins IMMEDIATE (it takes the write lock), and a websocket
lives long: there the session gives its transaction and connection back after each use
(`end_each_use`) instead of holding them across the operation.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.errors import ShipwiseError


class SharedReader:
    def __init__(
        self, sessionmaker: async_sessionmaker[AsyncSession], *, end_each_use: bool
    ) -> None:
        self._sessionmaker = sessionmaker
        self._end_each_use = end_each_use
        self._session: AsyncSession | None = None
        self._lock = asyncio.Lock()

    @asynccontextmanager
    async def session(self) -> AsyncIterator[AsyncSession]:
        """The request's session, for the block only (do not load through a DataLoader
        inside it: the loader's batch waits for this block to end)."""
        async with self._lock:
            if self._session is None:
                self._session = self._sessionmaker()
            session = self._session
            failed = True
            try:
                yield session
                failed = False
            except ShipwiseError:  # a refusal: the session itself is fine
                failed = False
                raise
            finally:
                if failed:  # a database error or a cancel: start afresh next time
                    self._session = None
                    await session.close()
                elif self._end_each_use:
                    await session.commit()

    async def close(self) -> None:
        """End the request's reads (objects already read stay usable, detached)."""
        async with self._lock:
            session, self._session = self._session, None
            if session is not None:
                await session.close()
