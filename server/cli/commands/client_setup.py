"""What the API-client commands share: failing with an exit code, explaining API errors,
and running an import (file check, client, the exit code of each kind of failure)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Annotated, NoReturn, TypeVar

import typer

from server.cli.client import ApiClient, ApiError
from server.cli.commands.chunk_upload import BadLine, EmptyFile

DATA_ERROR = 1
OPERATIONAL_ERROR = 2

InFlightOption = Annotated[
    int, typer.Option("--in-flight", min=1, max=8, help="Chunks sent at once.")
]

T = TypeVar("T")


def fail(message: str, code: int = OPERATIONAL_ERROR, notes: list[str] | None = None) -> NoReturn:
    """Print `error: message` (and each note) on stderr and exit with `code`."""
    typer.echo(f"error: {message}", err=True)
    for note in notes or []:
        typer.echo(f"error: {note}", err=True)
    raise typer.Exit(code)


def explain(error: ApiError, url: str, *, with_reason: bool = False) -> str:
    """A one-line reason for an API failure, without the server's internals."""
    if error.code == "UNREACHABLE":
        return f"cannot reach the shipwise server at {url}"
    if error.code == "UNAUTHENTICATED":
        return "the server refused the token (missing, unknown or revoked): check --token"
    reason = error.extensions.get("reason") if with_reason else None
    return f"{error.code}: {error.message}" + (f" ({reason})" if reason else "")


def run_import(
    file: Path,
    *,
    url: str,
    token: str,
    call: Callable[[ApiClient], T],
    with_reason: bool = False,
) -> T:
    """`call(client)` for an import of `file`: a bad line or an empty file exits 1 (with the
    clean-up's notes), an API error or an unreadable file 2."""
    if not file.is_file():
        fail(f"{file} is not a readable file", OPERATIONAL_ERROR)
    try:
        with ApiClient(url, token) as client:
            return call(client)
    except (BadLine, EmptyFile) as exc:
        fail(str(exc), DATA_ERROR, getattr(exc, "__notes__", None))
    except ApiError as exc:
        notes = getattr(exc, "__notes__", None)
        fail(explain(exc, url, with_reason=with_reason), OPERATIONAL_ERROR, notes)
    except OSError as exc:
        fail(f"cannot read {file}: {exc.strerror or exc}", OPERATIONAL_ERROR)
