"""`shipwise dataset …`: dataset commands, API clients of a shipwise server."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated
from urllib.parse import quote

import typer

from server.cli.client import DEFAULT_URL, TokenOption, UrlOption
from server.cli.commands.chunk_upload import DEFAULT_IN_FLIGHT
from server.cli.commands.client_setup import InFlightOption, fail, run_import
from server.cli.commands.dataset_import import import_file
from server.cli.commands.export import Format, FormatOption, write_export
from server.cli.groups import command_group
from server.datasets.cases import MAX_CASES_PER_CHUNK

dataset_app = command_group("Datasets (API client: --url, --token).")


@dataset_app.command("import")
def import_command(
    file: Annotated[
        Path,
        typer.Argument(
            help="JSONL (one case per line) or CSV (a header row with datasetItemId and input, "
            "or a column per template variable; expected, split, tags separated by ;), "
            "as the portal's upload takes."
        ),
    ],
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
    in_flight: InFlightOption = DEFAULT_IN_FLIGHT,
) -> None:
    """Import cases into a new sealed dataset version; prints its id alone on the last line.

    A bad line is reported as `line N: reason` and the version is discarded (exit 1); a file
    that is not cases says what it is ("an Excel workbook: save it as CSV"), and creates
    nothing (exit 1); an unreachable server or a refused token exits 2.
    """
    if (name is None) == (dataset_id is None):
        fail("give either --name (a new dataset) or --dataset-id (a new version)")
    imported = run_import(
        file,
        url=url,
        token=token,
        call=lambda client: import_file(
            client,
            file,
            name=name,
            dataset_id=dataset_id,
            description=description,
            chunk_size=chunk_size,
            in_flight=in_flight,
        ),
    )
    typer.echo(
        f"dataset {imported.dataset_id}: version {imported.number} sealed with "
        f"{imported.case_count} cases (dev {imported.dev_case_count}, "
        f"holdout {imported.holdout_case_count}); sha256 {imported.content_hash}"
    )
    sys.stdout.write(imported.version_id + "\n")


@dataset_app.command("export")
def export_command(
    dataset_id: Annotated[
        str,
        typer.Argument(
            help="A dataset's id (its latest sealed version) or a version's id (dsv_…)."
        ),
    ],
    token: TokenOption,
    export_format: FormatOption = Format.csv,
    output: Annotated[
        Path | None,
        typer.Option("--out", "--output", "-o", help="The file to write; stdout if omitted."),
    ] = None,
    url: UrlOption = DEFAULT_URL,
) -> None:
    """A dataset version's cases, streamed as CSV or JSONL (datasetItemId, input, expected,
    split, tags, metadata). CSV cells that start with = + - @ get a leading ' so no
    spreadsheet runs them. An unknown id or an unreachable server exits 2."""
    path = f"/datasets/{quote(dataset_id, safe='')}/cases.{export_format.value}"
    write_export(url, token, path, {}, output, diff=False)
