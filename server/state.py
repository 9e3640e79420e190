"""What the process builds once at start-up and every request and page shares (`server.app`)."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from server.driver_reads import DriverConnections
from server.providers.registry import ProviderPool
from server.runtime.interfaces import EventBus, JobQueue, RateLimiter
from server.security import SecretBox
from server.settings import Settings
from server.token_cache import TokenCache


@dataclass(slots=True)
class AppState:
    """Everything built once at start-up and shared by requests."""

    settings: Settings
    engine: AsyncEngine
    sessionmaker: async_sessionmaker[AsyncSession]
    read_sessionmaker: async_sessionmaker[AsyncSession]
    queue: JobQueue
    events: EventBus
    rate_limiter: RateLimiter
    secret_box: SecretBox
    tokens: TokenCache
    providers: ProviderPool
    """Model providers of this process: an imported run's judge calls (`appendRunItems`)."""
    page_connections: DriverConnections | None = None
    """On PostgreSQL, the kept driver connections pages are read on (`Context.fetch`)."""
