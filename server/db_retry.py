"""Units of work that ride out a lost database connection: run again, with back-off.

A statement that fails because its connection went away (a terminated backend, a database
restart) rolls its transaction back; SQLAlchemy invalidates the connection and the pool
hands out fresh ones. `unit` runs the whole transaction again, so its body must be
re-runnable: it reads what it needs inside the transaction and changes nothing outside it.
Any other error is raised at once.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Final, TypeVar

from sqlalchemy.exc import DBAPIError, DisconnectionError, InterfaceError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from tenacity import AsyncRetrying, RetryCallState, retry_if_exception

from server.retrying import Doubling

logger = logging.getLogger("shipwise.db")

T = TypeVar("T")

FIRST_DELAY_S: Final = 0.05
MAX_DELAY_S: Final = 1.0
"""Capped low: the work goes on within a second of the database answering again."""


def _connection_errors() -> tuple[type[BaseException], ...]:
    found: list[type[BaseException]] = [ConnectionError, OSError]
    try:
        import asyncpg  # type: ignore[import-untyped]
    except ImportError:  # pragma: no cover - asyncpg is a dependency
        return tuple(found)
    found += [
        asyncpg.exceptions.ConnectionDoesNotExistError,  # closed in the middle of a statement
        asyncpg.exceptions.ConnectionFailureError,
        asyncpg.exceptions.AdminShutdownError,  # pg_terminate_backend, a fast shutdown
        asyncpg.exceptions.CrashShutdownError,
        asyncpg.exceptions.CannotConnectNowError,  # starting up, shutting down
        asyncpg.exceptions.InterfaceError,  # "connection is closed"
    ]
    return tuple(found)


CONNECTION_ERRORS: Final = _connection_errors()


def _refused_connections() -> tuple[type[BaseException], ...]:
    try:
        import asyncpg
    except ImportError:  # pragma: no cover - asyncpg is a dependency
        return ()
    return (asyncpg.exceptions.TooManyConnectionsError,)  # max_connections, a role's limit


REFUSED_CONNECTIONS: Final = _refused_connections()


def connection_lost(exc: BaseException) -> bool:
    """Whether `exc` says the database connection went away (not what the statement did)."""
    if isinstance(exc, DisconnectionError):
        return True
    if isinstance(exc, DBAPIError):
        if exc.connection_invalidated:
            return True
        cause = exc.orig.__cause__ if exc.orig is not None else None
        return isinstance(exc.orig, CONNECTION_ERRORS) or isinstance(cause, CONNECTION_ERRORS)
    if isinstance(exc, InterfaceError):
        return True
    return isinstance(exc, CONNECTION_ERRORS)


def database_unavailable(exc: BaseException) -> bool:
    """Whether `exc` says the database could not be reached or took no more connections (a
    lost connection, PostgreSQL's "too many clients", the pool's wait timed out): the
    request may succeed when tried again, unlike an error of the statement itself."""
    if connection_lost(exc) or isinstance(exc, PoolTimeout):
        return True
    orig = exc.orig if isinstance(exc, DBAPIError) else exc
    return isinstance(orig, REFUSED_CONNECTIONS) or isinstance(
        getattr(orig, "__cause__", None), REFUSED_CONNECTIONS
    )


async def retried(make: Callable[[], Awaitable[T]], *, what: str) -> T:
    """`await make()`, again after each lost connection (0.05 · 2ⁿ s, at most 1 s apart)."""

    def log(state: RetryCallState) -> None:
        failed = state.outcome.exception() if state.outcome is not None else None
        logger.warning(
            "database connection lost; %s runs again in %.2f s",
            what,
            state.next_action.sleep if state.next_action is not None else 0.0,
            extra={"attempt": state.attempt_number, "error_type": type(failed).__name__},
        )

    async def once() -> T:  # tenacity awaits only what an `async def` returns
        return await make()

    return await AsyncRetrying(  # the service's one retry policy (server.retrying)
        retry=retry_if_exception(connection_lost),
        wait=Doubling(FIRST_DELAY_S, MAX_DELAY_S),
        before_sleep=log,
        reraise=True,
    )(once)


async def unit(
    sessionmaker: async_sessionmaker[AsyncSession],
    body: Callable[[AsyncSession], Awaitable[T]],
    *,
    what: str = "a unit of work",
    write: bool = True,
) -> T:
    """`body(session)` in one transaction (`write`) or one session, run again whole when the
    connection is lost before it commits."""

    async def once() -> T:
        async with sessionmaker() as session:
            if not write:
                return await body(session)
            async with session.begin():
                return await body(session)

    return await retried(once, what=what)
