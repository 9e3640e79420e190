"""Verified API tokens remembered for a moment, so a request costs no database round trip.

A token is trusted for `ttl` seconds after the database last confirmed it (at most 4 s, so
a revoked token, a removed member or a changed role is honoured within 5 s in every
process; at once in the process that made the change). Unknown or revoked tokens are never
cached: each is checked again. The cache is bounded; it holds token hashes, never tokens.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.auth import MAX_TOKEN_LENGTH, authenticate
from server.security import hash_token
from server.workspaces.roles import Actor


class TokenCache:
    def __init__(
        self,
        sessionmaker: async_sessionmaker[AsyncSession],
        *,
        ttl: float,
        max_entries: int = 10_000,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._sessionmaker = sessionmaker
        self._ttl = ttl
        self._max_entries = max_entries
        self._clock = clock
        self._entries: OrderedDict[str, tuple[float, Actor]] = OrderedDict()

    async def authenticate(self, token: str | None) -> Actor:
        """The token's actor; raises UNAUTHENTICATED as `server.auth.authenticate` does."""
        key = hash_token(token) if token and len(token) <= MAX_TOKEN_LENGTH else ""
        entry = self._entries.get(key) if key else None
        now = self._clock()
        if entry is not None and entry[0] > now:
            return entry[1]
        async with self._sessionmaker() as session:
            actor = await authenticate(session, token)
        if self._ttl > 0 and key:
            self._entries[key] = (now + self._ttl, actor)
            self._entries.move_to_end(key)
            while len(self._entries) > self._max_entries:
                self._entries.popitem(last=False)
        return actor

    def forget(self, matches: Callable[[Actor], bool]) -> None:
        """Drop the entries whose actor `matches`: this process honours its own revocations,
        role changes and settings at once (other processes within `ttl`)."""
        for key in [k for k, (_, actor) in self._entries.items() if matches(actor)]:
            del self._entries[key]
