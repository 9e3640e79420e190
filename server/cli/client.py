"""The command-line API clients' GraphQL client (`--url`, `--token`): the SDK's transport."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Annotated, Any, BinaryIO

import typer
from shipwise.errors import ShipwiseError
from shipwise.transport import BlockingTransport, request_body

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


@contextmanager
def _as_api_errors() -> Iterator[None]:
    try:
        yield
    except ShipwiseError as exc:
        raise ApiError(exc.code, exc.message, exc.extensions) from None


class ApiClient(BlockingTransport):
    """The command line's face of the SDK's `BlockingTransport` (one GraphQL client for
    both): no retries, since not every command's mutation is idempotent, and the process's
    TLS context (`server.tls`). Errors come as `ApiError`."""

    def __init__(self, url: str, token: str, *, timeout: float = 120) -> None:
        super().__init__(url, token, timeout=timeout, retries=0, verify=client_tls())

    def execute(self, document: str, variables: dict[str, Any] | None = None) -> dict[str, Any]:
        """The `data` of the answer; raises ApiError on the first GraphQL error."""
        return self.execute_body(request_body(document, variables))

    def execute_body(self, body: bytes) -> dict[str, Any]:
        """`execute` for a request body already written as JSON (e.g. spliced from a file)."""
        with _as_api_errors():
            data: dict[str, Any] = super().execute_body(body)
        return data

    def download(self, path: str, params: dict[str, str], sink: BinaryIO) -> int:
        """Stream `GET path` into `sink`; its size. Raises ApiError on an error answer."""
        with _as_api_errors():
            return super().download(path, params, sink)
