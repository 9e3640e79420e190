"""A small GraphQL client for the command-line API clients (`--url`, `--token`)."""

from __future__ import annotations

import json
from types import TracebackType
from typing import Annotated, Any, BinaryIO

import httpx
import typer

from server.tls import client_tls

DEFAULT_URL = "http://127.0.0.1:8000"

UrlOption = Annotated[
    str, typer.Option("--url", envvar="SHIPWISE_URL", help="The shipwise server.")
]
TokenOption = Annotated[str, typer.Option("--token", envvar="SHIPWISE_TOKEN", help="An API token.")]


class ApiError(Exception):
    """A GraphQL error answer, with its `extensions.code`."""

    def __init__(self, code: str, message: str, extensions: dict[str, Any] | None = None) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.extensions = extensions or {}


def _download_error(response: httpx.Response) -> ApiError:
    """The error of a non-200 download: its JSON error's code, else the HTTP status."""
    try:
        first = json.loads(response.read())["errors"][0]
        extensions = first.get("extensions") or {}
        return ApiError(extensions.get("code", "INTERNAL"), first.get("message", ""), extensions)
    except (ValueError, KeyError, IndexError, TypeError, AttributeError):
        return ApiError("INTERNAL", f"the server answered HTTP {response.status_code}")


class ApiClient:
    """POSTs GraphQL documents to `<url>/graphql` with a bearer token; one connection pool."""

    def __init__(self, url: str, token: str, *, timeout: float = 120) -> None:
        self._http = httpx.Client(
            base_url=url.rstrip("/"),
            headers={"Authorization": f"Bearer {token}"},
            timeout=timeout,
            verify=client_tls(),
        )

    def execute(self, document: str, variables: dict[str, Any] | None = None) -> dict[str, Any]:
        """The `data` of the answer; raises ApiError on the first GraphQL error."""
        return self.execute_body(
            json.dumps({"query": document, "variables": variables or {}}).encode()
        )

    def execute_body(self, body: bytes) -> dict[str, Any]:
        """`execute` for a request body already written as JSON (e.g. spliced from a file)."""
        try:
            response = self._http.post(
                "/graphql", content=body, headers={"Content-Type": "application/json"}
            )
        except httpx.HTTPError as exc:
            raise ApiError("UNREACHABLE", f"cannot reach {self._http.base_url}") from exc
        try:
            answer = response.json()
        except ValueError as exc:
            raise ApiError("INTERNAL", f"the server answered HTTP {response.status_code}") from exc
        errors = answer.get("errors") or []
        if errors:
            first = errors[0]
            extensions = first.get("extensions") or {}
            raise ApiError(extensions.get("code", "INTERNAL"), first.get("message", ""), extensions)
        data: dict[str, Any] = answer["data"]
        return data

    def download(self, path: str, params: dict[str, str], sink: BinaryIO) -> int:
        """Stream `GET path` into `sink`; its size. Raises ApiError on an error answer."""
        try:
            with self._http.stream("GET", path, params=params) as response:
                if response.status_code != 200:
                    raise _download_error(response)
                size = 0
                for chunk in response.iter_bytes():
                    sink.write(chunk)
                    size += len(chunk)
                return size
        except httpx.HTTPError as exc:
            raise ApiError("UNREACHABLE", f"cannot reach {self._http.base_url}") from exc

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> ApiClient:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
