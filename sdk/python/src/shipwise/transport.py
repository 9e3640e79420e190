"""GraphQL over HTTP to `<url>/graphql` with a bearer token, asynchronously.

Transient failures (no answer, HTTP 5xx, RATE_LIMITED) are retried a few times with
backoff: every mutation the SDK sends is idempotent (a run's key, items at fixed positions).
"""

from __future__ import annotations

import asyncio
import json
from types import TracebackType
from typing import Any

import httpx

from shipwise.errors import ShipwiseError, UnreachableError, from_graphql

RETRIES = 4
BACKOFF_SECONDS = 0.5
TRANSIENT = frozenset({"UNREACHABLE", "RATE_LIMITED"})


class Transport:
    """One connection pool to a shipwise server."""

    def __init__(self, url: str, token: str, *, timeout: float = 60) -> None:
        self.url = url.rstrip("/")
        self._http = httpx.AsyncClient(
            base_url=self.url,
            headers={"Authorization": f"Bearer {token}"},
            timeout=timeout,
        )

    async def execute(self, document: str, variables: dict[str, Any] | None = None) -> Any:
        """The answer's `data`; the first GraphQL error raised as its typed exception."""
        for attempt in range(RETRIES + 1):
            try:
                return await self._once(document, variables or {})
            except ShipwiseError as exc:
                if exc.code not in TRANSIENT or attempt == RETRIES:
                    raise
            await asyncio.sleep(BACKOFF_SECONDS * 2**attempt)
        raise AssertionError("unreachable")  # pragma: no cover

    async def _once(self, document: str, variables: dict[str, Any]) -> Any:
        body = json.dumps({"query": document, "variables": variables})
        try:
            response = await self._http.post(
                "/graphql", content=body, headers={"Content-Type": "application/json"}
            )
        except httpx.HTTPError as exc:
            raise UnreachableError(f"cannot reach {self.url} ({type(exc).__name__})") from None
        try:
            answer = response.json()
        except ValueError:
            code = "UNREACHABLE" if response.status_code >= 500 else "INTERNAL"
            raise ShipwiseError(
                f"{self.url} answered HTTP {response.status_code}, not GraphQL", code=code
            ) from None
        errors = answer.get("errors") if isinstance(answer, dict) else None
        if errors:
            raise from_graphql(errors[0])
        if not isinstance(answer, dict) or "data" not in answer:
            raise ShipwiseError(f"{self.url} answered without data", code="INTERNAL")
        return answer["data"]

    async def aclose(self) -> None:
        await self._http.aclose()

    async def __aenter__(self) -> Transport:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()
