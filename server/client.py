"""A small GraphQL client for the command-line API clients (`--url`, `--token`)."""

from __future__ import annotations

from types import TracebackType
from typing import Annotated, Any

import httpx
import typer

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


class ApiClient:
    """POSTs GraphQL documents to `<url>/graphql` with a bearer token; one connection pool."""

    def __init__(self, url: str, token: str, *, timeout: float = 120) -> None:
        self._http = httpx.Client(
            base_url=url.rstrip("/"),
            headers={"Authorization": f"Bearer {token}"},
            timeout=timeout,
        )

    def execute(self, document: str, variables: dict[str, Any] | None = None) -> dict[str, Any]:
        """The `data` of the answer; raises ApiError on the first GraphQL error."""
        try:
            response = self._http.post(
                "/graphql", json={"query": document, "variables": variables or {}}
            )
        except httpx.HTTPError as exc:
            raise ApiError("UNREACHABLE", f"cannot reach {self._http.base_url}") from exc
        try:
            body = response.json()
        except ValueError as exc:
            raise ApiError("INTERNAL", f"the server answered HTTP {response.status_code}") from exc
        errors = body.get("errors") or []
        if errors:
            first = errors[0]
            extensions = first.get("extensions") or {}
            raise ApiError(extensions.get("code", "INTERNAL"), first.get("message", ""), extensions)
        data: dict[str, Any] = body["data"]
        return data

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
