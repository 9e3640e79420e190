"""One provider per model connection per process, and the semaphore that caps its calls.

A worker or the embedded runner keeps one `ProviderPool` for its lifetime: every call to a
connection reuses the same aiohttp session, and every call in this process holds that
connection's semaphore, so no more than `maxConcurrency` calls are in flight at once.
"""

from __future__ import annotations

import asyncio
import json
import logging
from dataclasses import dataclass

from cryptography.fernet import InvalidToken

from server.connections.headers import decrypt_headers
from server.connections.models import ConnectionKind, ModelConnection
from server.providers.anthropic import AnthropicProvider
from server.providers.base import CallResult, DispatchError, ModelCall, Provider
from server.providers.http import DEFAULT_TIMEOUT, ProviderTimeout, Sleep
from server.providers.openai_compatible import OpenAICompatibleProvider
from server.providers.simulated import SimulatedProvider
from server.security import SecretBox

logger = logging.getLogger("shipwise.providers")


class UnavailableProvider:
    """Stands in for a connection that cannot be called (no base URL, an undecryptable key):
    every call records `connection_not_ready` instead of raising."""

    simulated = False

    async def call(self, request: ModelCall) -> CallResult:  # noqa: ARG002 - the protocol
        """`connection_not_ready`, without contacting anything."""
        return CallResult(output=None, attempts=0, error=DispatchError.CONNECTION_NOT_READY)

    async def aclose(self) -> None:
        """Nothing to close."""


@dataclass(frozen=True, slots=True)
class _Entry:
    fingerprint: str
    provider: Provider


def _fingerprint(connection: ModelConnection) -> str:
    """What a provider is built from: a change to any of it means a new provider."""
    return json.dumps(
        [
            connection.kind.value,
            connection.base_url,
            connection.api_key_encrypted,
            connection.headers_encrypted,
            connection.simulation,
            connection.max_concurrency,
        ],
        sort_keys=True,
        default=str,
    )


class ProviderPool:
    """Providers by connection id, rebuilt when the connection's row changes."""

    def __init__(
        self,
        secrets: SecretBox,
        *,
        timeout: ProviderTimeout = DEFAULT_TIMEOUT,
        sleep: Sleep = asyncio.sleep,
    ) -> None:
        self._secrets = secrets
        self._timeout = timeout
        self._sleep = sleep
        self._entries: dict[str, _Entry] = {}
        self._limits: dict[str, tuple[int, asyncio.Semaphore]] = {}
        self._retired: list[Provider] = []

    def get(self, connection: ModelConnection) -> Provider:
        """The connection's provider, built on first use or when its row changed."""
        fingerprint = _fingerprint(connection)
        entry = self._entries.get(connection.id)
        if entry is None or entry.fingerprint != fingerprint:
            if entry is not None:
                # Calls may still be in flight on the old client: close it with the pool.
                self._retired.append(entry.provider)
            entry = _Entry(fingerprint, self._build(connection))
            self._entries[connection.id] = entry
        capacity = max(1, connection.max_concurrency)
        current = self._limits.get(connection.id)
        if current is None or current[0] != capacity:
            self._limits[connection.id] = (capacity, asyncio.Semaphore(capacity))
        return entry.provider

    def limit(self, connection_id: str) -> asyncio.Semaphore:
        """The semaphore every call to this connection holds (`get` the provider first)."""
        try:
            return self._limits[connection_id][1]
        except KeyError:
            raise KeyError(
                "ProviderPool.limit before ProviderPool.get for this connection"
            ) from None

    async def aclose(self) -> None:
        """Close every provider this pool built."""
        providers = [e.provider for e in self._entries.values()] + self._retired
        self._entries.clear()
        self._retired.clear()
        for provider in providers:
            await provider.aclose()

    def _build(self, connection: ModelConnection) -> Provider:
        if connection.kind == ConnectionKind.SIMULATED:
            return SimulatedProvider(connection.simulation, sleep=self._sleep)
        if not connection.base_url:
            return UnavailableProvider()
        try:
            api_key = (
                self._secrets.decrypt(connection.api_key_encrypted)
                if connection.api_key_encrypted
                else None
            )
            headers = decrypt_headers(connection, self._secrets)
        except InvalidToken:
            # The service key changed since the secrets were stored: say so by code only.
            logger.error(
                "provider key cannot be decrypted",
                extra={"connection_id": connection.id, "error_code": "connection_not_ready"},
            )
            return UnavailableProvider()
        kind = (
            AnthropicProvider
            if connection.kind == ConnectionKind.ANTHROPIC
            else OpenAICompatibleProvider
        )
        return kind(
            connection.base_url,
            api_key,
            headers=headers,
            timeout=self._timeout,
            max_connections=max(1, connection.max_concurrency),
            sleep=self._sleep,
        )
