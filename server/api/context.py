"""Per-request GraphQL context: the application's services and the authenticated caller."""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Select
from sqlalchemy.ext.asyncio import AsyncSession
from starlette.requests import Request
from starlette.websockets import WebSocket

from server.api.loaders import Loaders, build_loaders
from server.errors import ShipwiseError, Unauthenticated
from server.reading import SharedReader
from server.settings import Settings
from server.state import AppState
from server.workspaces.roles import Actor, Role


@dataclass(slots=True)
class Context:
    """`info.context`: resolvers get the caller through `require()`, reads through `read()`
    and `loaders`; `end_operation()` closes the operation's session and drops its loaders."""

    app: AppState
    request: Request | WebSocket | None = None
    connection_params: dict[str, Any] | None = None
    _actor: Actor | None = None
    _failure: ShipwiseError | None = None
    _reader: SharedReader | None = None
    _loaders: Loaders | None = None
    operations: int = 0
    """Operations running on this context (`server.api.http.operation_scope`)."""

    def authenticate_as(self, actor: Actor | None, failure: ShipwiseError | None) -> None:
        self._actor = actor
        self._failure = failure

    def require(self, role: Role = Role.VIEWER) -> Actor:
        """The caller, checked to hold at least `role`; raises the stored auth failure."""
        if self._failure is not None:
            raise self._failure
        if self._actor is None:
            raise Unauthenticated("a valid API token is required")
        self._actor.require(role)
        return self._actor

    @property
    def settings(self) -> Settings:
        return self.app.settings

    @property
    def reader(self) -> SharedReader:
        if self._reader is None:
            # A websocket lives long: it gives its connection back after each use, as SQLite
            # must (server/reading.py).
            sqlite = self.app.engine.dialect.name == "sqlite"
            self._reader = SharedReader(
                self.app.read_sessionmaker,
                end_each_use=sqlite or isinstance(self.request, WebSocket),
            )
        return self._reader

    @property
    def loaders(self) -> Loaders:
        """The operation's DataLoaders, scoped to the caller (raises the auth failure)."""
        if self._loaders is None:
            self._loaders = build_loaders(self.reader, workspace_id=self.require().workspace_id)
        return self._loaders

    async def fetch(self, statement: Select[Any], values: Mapping[str, Any]) -> Sequence[Any]:
        """A page's read (`server.page_reads`): its statement's rows, each read by column name
        or position. On PostgreSQL on a kept driver connection, with no transaction to begin
        or end (`server.driver_reads`); else in the operation's read session."""
        connections = self.app.page_connections
        if connections is not None:
            return await connections.fetch(statement, values)
        async with self.read() as session:
            result = await session.execute(statement, values)
            names = {name: index for index, name in enumerate(result.keys())}
            return [_Record(tuple(row), names) for row in result]

    @asynccontextmanager
    async def read(self) -> AsyncIterator[AsyncSession]:
        """The operation's read session, for this block only: sibling resolvers take turns
        on it (never load through `loaders` inside the block)."""
        async with self.reader.session() as session:
            yield session

    async def end_operation(self) -> None:
        """Close the operation's session; the next operation (a websocket's) starts afresh."""
        reader, self._reader, self._loaders = self._reader, None, None
        if reader is not None:
            await reader.close()

    @asynccontextmanager
    async def write(self) -> AsyncIterator[AsyncSession]:
        """A session in one transaction, committed when the block succeeds."""
        async with self.app.sessionmaker() as session, session.begin():
            yield session


class _Record(tuple[Any, ...]):
    """A session's row read as the driver's records are: by position, or by column name."""

    _names: dict[str, int]

    def __new__(cls, values: tuple[Any, ...], names: dict[str, int]) -> _Record:
        record = super().__new__(cls, values)
        record._names = names
        return record

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, str):
            return super().__getitem__(self._names[key])
        return super().__getitem__(key)
