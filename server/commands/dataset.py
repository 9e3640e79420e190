"""`shipwise dataset …`: dataset commands, API clients of a shipwise server."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, NoReturn

import typer

from server.client import DEFAULT_URL, ApiClient, ApiError, TokenOption, UrlOption
from server.commands.dataset_import import DEFAULT_IN_FLIGHT, BadLine, EmptyFile, import_file
from server.datasets.cases import MAX_CASES_PER_CHUNK

dataset_app = typer.Typer(no_args_is_help=True, help="Datasets (API client: --url, --token).")

DATA_ERROR = 1
OPERATIONAL_ERROR = 2


def _fail(message: str, code: int, notes: list[str] | None = None) -> NoReturn:
    typer.echo(f"error: {message}", err=True)
    for note in notes or []:
        typer.echo(f"error: {note}", err=True)
    raise typer.Exit(code)


@dataset_app.command("import")
def import_command(
    file: Annotated[Path, typer.Argument(help="JSONL, one case per line; blank lines skipped.")],
    token: TokenOption,
    name: Annotated[
        str | None, typer.Option("--name", help="Create a new dataset with this name.")
    ] = None,
    dataset_id: Annotated[
        str | None, typer.Option("--dataset-id", help="Add a version to this dataset instead.")
    ] = None,
    description: Annotated[
        str | None, typer.Option("--description", help="The new dataset's description.")
    ] = None,
    url: UrlOption = DEFAULT_URL,
    chunk_size: Annotated[
        int,
        typer.Option("--chunk-size", min=1, max=MAX_CASES_PER_CHUNK, help="Cases per append call."),
    ] = MAX_CASES_PER_CHUNK,
    in_flight: Annotated[
        int, typer.Option("--in-flight", min=1, max=8, help="Chunks sent at once.")
    ] = DEFAULT_IN_FLIGHT,
) -> None:
    """Import cases into a new sealed dataset version; prints its id alone on the last line.

    A bad line is reported as `line N: reason` and the version is discarded (exit 1);
    an unreachable server or a refused token exits 2.
    """
    if (name is None) == (dataset_id is None):
        _fail("give either --name (a new dataset) or --dataset-id (a new version)", 2)
    if not file.is_file():
        _fail(f"{file} is not a readable file", OPERATIONAL_ERROR)
    try:
        with ApiClient(url, token) as client:
            imported = import_file(
                client,
                file,
                name=name,
                dataset_id=dataset_id,
                description=description,
                chunk_size=chunk_size,
                in_flight=in_flight,
            )
    except (BadLine, EmptyFile) as exc:
        _fail(str(exc), DATA_ERROR, getattr(exc, "__notes__", None))
    except ApiError as exc:
        _fail(_explain(exc, url), OPERATIONAL_ERROR, getattr(exc, "__notes__", None))
    except OSError as exc:
        _fail(f"cannot read {file}: {exc.strerror or exc}", OPERATIONAL_ERROR)
    typer.echo(
        f"dataset {imported.dataset_id}: version {imported.number} sealed with "
        f"{imported.case_count} cases (dev {imported.dev_case_count}, "
        f"holdout {imported.holdout_case_count}); sha256 {imported.content_hash}"
    )
    sys.stdout.write(imported.version_id + "\n")


def _explain(error: ApiError, url: str) -> str:
    """A one-line reason for an API failure, without the server's internals."""
    if error.code == "UNREACHABLE":
        return f"cannot reach the shipwise server at {url}"
    if error.code == "UNAUTHENTICATED":
        return "the server refused the token (missing, unknown or revoked): check --token"
    return f"{error.code}: {error.message}"
