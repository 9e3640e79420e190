"""Per-request GraphQL context: the application's services and the authenticated caller."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker
from starlette.requests import Request
from starlette.websockets import WebSocket

from server.auth import Actor
from server.errors import ShipwiseError, Unauthenticated
from server.runtime.interfaces import EventBus, JobQueue, RateLimiter
from server.security import SecretBox
from server.settings import Settings
from server.workspaces.roles import Role


@dataclass(slots=True)
class AppState:
    """Everything built once at start-up and shared by requests."""

    settings: Settings
    engine: AsyncEngine
    sessionmaker: async_sessionmaker[AsyncSession]
    queue: JobQueue
    events: EventBus
    rate_limiter: RateLimiter
    secret_box: SecretBox


@dataclass(slots=True)
class Context:
    """`info.context`: resolvers get the caller through `require()`, sessions through `read()`."""

    app: AppState
    request: Request | WebSocket | None = None
    connection_params: dict[str, Any] | None = None
    _actor: Actor | None = None
    _failure: ShipwiseError | None = None
    loaders: dict[str, Any] = field(default_factory=dict)

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

    @asynccontextmanager
    async def read(self) -> AsyncIterator[AsyncSession]:
        """A short session of its own, so sibling resolvers never share one."""
        async with self.app.sessionmaker() as session:
            yield session

    @asynccontextmanager
    async def write(self) -> AsyncIterator[AsyncSession]:
        """A session in one transaction, committed when the block succeeds."""
        async with self.app.sessionmaker() as session, session.begin():
            yield session
