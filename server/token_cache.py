"""Verified API tokens remembered for a moment, so a request costs no database round trip.

A token is trusted for `ttl` seconds after the database last confirmed it (at most 4 s, so
a revoked token, a removed member or a changed role is honoured within 5 s in every
process; at once in the process that made the change). Unknown or revoked tokens are never
cached: each is checked again. The cache is bounded; it holds token hashes, never tokens.

Requests that miss on one token at once share one check: when a busy token's entry
expired, each of the requests then in flight (50 under the read bench) read the database
on its own, where one read answers them all.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from cachetools import LRUCache
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
        ingest: bool = False,
    ) -> None:
        self._sessionmaker = sessionmaker
        self._ingest = ingest  # the trace receiver's cache also takes INGEST tokens
        self._ttl = ttl
        self._clock = clock
        self._entries: LRUCache[str, tuple[float, Actor]] = LRUCache(maxsize=max_entries)
        self._checking: dict[str, asyncio.Task[Actor]] = {}

    async def authenticate(self, token: str | None) -> Actor:
        """The token's actor; raises UNAUTHENTICATED as `server.auth.authenticate` does."""
        key = hash_token(token) if token and len(token) <= MAX_TOKEN_LENGTH else ""
        entry = self._entries.get(key) if key else None
        now = self._clock()
        if entry is not None and entry[0] > now:
            return entry[1]
        if not key:
            return await self._check(token)
        checking = self._checking.get(key)
        if checking is None:
            checking = asyncio.get_running_loop().create_task(self._check_and_keep(key, token))
            checking.add_done_callback(_retrieved)
            self._checking[key] = checking
        # A request that goes away (a client hung up) leaves the check to the others.
        return await asyncio.shield(checking)

    async def _check_and_keep(self, key: str, token: str | None) -> Actor:
        now = self._clock()
        try:
            actor = await self._check(token)
        finally:
            del self._checking[key]
        if self._ttl > 0:
            self._entries[key] = (now + self._ttl, actor)  # the least recent gives way
        return actor

    async def _check(self, token: str | None) -> Actor:
        async with self._sessionmaker() as session:
            return await authenticate(session, token, ingest=self._ingest)

    def forget(self, matches: Callable[[Actor], bool]) -> None:
        """Drop the entries whose actor `matches`: this process honours its own revocations,
        role changes and settings at once (other processes within `ttl`)."""
        for key in [k for k, (_, actor) in self._entries.items() if matches(actor)]:
            del self._entries[key]


def _retrieved(check: asyncio.Task[Actor]) -> None:
    """A refusal nobody awaited any more is not an unretrieved exception to log."""
    if not check.cancelled():
        check.exception()
