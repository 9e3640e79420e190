"""GraphQL over HTTP to `<url>/graphql` with a bearer token: one core, two faces.

`Transport` (async, the SDK's) and `BlockingTransport` (the `shipwise` command line's)
share everything but the HTTP call itself: the request body, how an answer becomes `data`
or a typed `ShipwiseError`, and the retry policy (tenacity). Transient failures (no answer,
HTTP 5xx, RATE_LIMITED) are retried `retries` times with backoff: every mutation the SDK
sends is idempotent (a run's key, items at fixed positions); the command line asks for none.
"""

from __future__ import annotations

import json
import ssl
from types import TracebackType
from typing import Any, BinaryIO, Generic, Self, TypeVar

import httpx
from tenacity import (
    AsyncRetrying,
    Retrying,
    retry_if_exception,
    stop_after_attempt,
    wait_exponential,
)

from shipwise.errors import ShipwiseError, UnreachableError, from_graphql

RETRIES = 4
BACKOFF_SECONDS = 0.5
TRANSIENT = frozenset({"UNREACHABLE", "UNAVAILABLE", "RATE_LIMITED"})
JSON = {"Content-Type": "application/json"}

Verify = ssl.SSLContext | bool
C = TypeVar("C", httpx.AsyncClient, httpx.Client)


def request_body(document: str, variables: dict[str, Any] | None) -> bytes:
    """The POST body of one GraphQL request."""
    return json.dumps({"query": document, "variables": variables or {}}).encode()


def _transient(exc: BaseException) -> bool:
    return isinstance(exc, ShipwiseError) and exc.code in TRANSIENT


class _Core(Generic[C]):
    """What both faces share: the server, its answers and the retry policy; a face opens
    its own kind of httpx client (`_connect`)."""

    def __init__(
        self,
        url: str,
        token: str,
        *,
        timeout: float = 60,
        retries: int = RETRIES,
        verify: Verify = True,
    ) -> None:
        self.url = url.rstrip("/")
        self.retries = retries
        self._http: C = self._connect(
            base_url=self.url,
            headers={"Authorization": f"Bearer {token}"},
            timeout=timeout,
            verify=verify,
        )

    def _connect(self, **options: Any) -> C:
        raise NotImplementedError

    def policy(self) -> dict[str, Any]:
        """tenacity's arguments: 0.5 · 2ⁿ s after the n-th transient failure."""
        return {
            "retry": retry_if_exception(_transient),
            "stop": stop_after_attempt(self.retries + 1),
            "wait": wait_exponential(multiplier=BACKOFF_SECONDS),
            "reraise": True,
        }

    def unreachable(self, exc: httpx.HTTPError) -> UnreachableError:
        return UnreachableError(f"cannot reach {self.url} ({type(exc).__name__})")

    def data(self, response: httpx.Response) -> Any:
        """The answer's `data`; the first GraphQL error raised as its typed exception."""
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

    def download_error(self, response: httpx.Response, body: bytes) -> ShipwiseError:
        """A non-200 download: its JSON error's code, else the HTTP status."""
        try:
            first = json.loads(body)["errors"][0]
            return from_graphql(first if isinstance(first, dict) else {})
        except (ValueError, KeyError, IndexError, TypeError):
            return ShipwiseError(f"the server answered HTTP {response.status_code}")


class Transport(_Core[httpx.AsyncClient]):
    """One asynchronous connection pool to a shipwise server."""

    def _connect(self, **options: Any) -> httpx.AsyncClient:
        return httpx.AsyncClient(**options)

    async def execute(self, document: str, variables: dict[str, Any] | None = None) -> Any:
        """The answer's `data`; the first GraphQL error raised as its typed exception."""
        return await self.execute_body(request_body(document, variables))

    async def execute_body(self, body: bytes) -> Any:
        """`execute` for a request body already written as JSON."""

        async def once() -> Any:
            try:
                response = await self._http.post("/graphql", content=body, headers=JSON)
            except httpx.HTTPError as exc:
                raise self.unreachable(exc) from None
            return self.data(response)

        return await AsyncRetrying(**self.policy())(once)

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


class BlockingTransport(_Core[httpx.Client]):
    """`Transport`'s blocking face (one pool, the same answers and policy), plus downloads."""

    def _connect(self, **options: Any) -> httpx.Client:
        return httpx.Client(**options)

    def execute(self, document: str, variables: dict[str, Any] | None = None) -> Any:
        """The answer's `data`; the first GraphQL error raised as its typed exception."""
        return self.execute_body(request_body(document, variables))

    def execute_body(self, body: bytes) -> Any:
        """`execute` for a request body already written as JSON (e.g. spliced from a file)."""

        def once() -> Any:
            try:
                response = self._http.post("/graphql", content=body, headers=JSON)
            except httpx.HTTPError as exc:
                raise self.unreachable(exc) from None
            return self.data(response)

        return Retrying(**self.policy())(once)

    def download(self, path: str, params: dict[str, str], sink: BinaryIO) -> int:
        """Stream `GET path` into `sink`; its size. Raises ShipwiseError on an error answer."""
        try:
            with self._http.stream("GET", path, params=params) as response:
                if response.status_code != 200:
                    raise self.download_error(response, response.read())
                size = 0
                for chunk in response.iter_bytes():
                    sink.write(chunk)
                    size += len(chunk)
                return size
        except httpx.HTTPError as exc:
            raise self.unreachable(exc) from None

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
