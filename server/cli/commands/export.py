"""`shipwise export comparison ID | run ID | diff --candidate RUN --baseline RUN`: an API
client that streams an export (CSV or JSONL) to a file or stdout.

Exit codes: 0 written, 2 an operational error (server unreachable, token refused, an
unknown id, a diff of a run that is not completed — the API's code is printed).
"""

from __future__ import annotations

import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated, BinaryIO
from urllib.parse import quote

import typer

from server.cli.client import DEFAULT_URL, ApiClient, ApiError, TokenOption, UrlOption
from server.cli.commands.client_setup import explain, fail
from server.cli.groups import command_group

export_app = command_group(
    "Exports as CSV or JSONL, one row per (case, cohort, trial) (API client)."
)


class Format(StrEnum):
    csv = "csv"
    jsonl = "jsonl"


FormatOption = Annotated[Format, typer.Option("--format", help="csv or jsonl.")]
OutputOption = Annotated[
    Path | None, typer.Option("--output", "-o", help="The file to write; stdout if omitted.")
]
EXPERIMENT_OF = "query($id: ID!) { run(id: $id) { experiment { id } } }"


def write_export(
    url: str, token: str, path: str, params: dict[str, str], output: Path | None, *, diff: bool
) -> None:
    try:
        with ApiClient(url, token, timeout=600) as client:
            if diff:
                found = client.execute(EXPERIMENT_OF, {"id": params["candidate"]})
                experiment = found["run"]["experiment"]["id"]
                path = path.format(experiment=quote(experiment, safe=""))
                params = {"baselineRunId": params["baselineRunId"]}
            if output is None:
                _download(client, path, params, sys.stdout.buffer)
                return
            partial = output.with_name(output.name + ".part")
            try:
                with partial.open("wb") as sink:
                    size = _download(client, path, params, sink)
            except BaseException:
                partial.unlink(missing_ok=True)  # a failed download leaves no half file
                raise
            partial.replace(output)
            typer.echo(f"wrote {size} bytes to {output}", err=True)
    except ApiError as exc:
        fail(explain(exc, url, with_reason=True))
    except OSError as exc:
        fail(f"cannot write {output}: {exc.strerror}")


def _download(client: ApiClient, path: str, params: dict[str, str], sink: BinaryIO) -> int:
    return client.download(path, params, sink)


@export_app.command("comparison")
def comparison_export(
    comparison_id: Annotated[str, typer.Argument(help="The comparison's id.")],
    token: TokenOption,
    export_format: FormatOption = Format.csv,
    output: OutputOption = None,
    url: UrlOption = DEFAULT_URL,
) -> None:
    """A comparison's trials: one row per (case, cohort, trial)."""
    path = f"/comparisons/{quote(comparison_id, safe='')}/cases.{export_format.value}"
    write_export(url, token, path, {}, output, diff=False)


@export_app.command("run")
def run_export(
    run_id: Annotated[str, typer.Argument(help="The run's id.")],
    token: TokenOption,
    export_format: FormatOption = Format.csv,
    output: OutputOption = None,
    url: UrlOption = DEFAULT_URL,
) -> None:
    """A run's items: one row per (item, trial)."""
    path = f"/runs/{quote(run_id, safe='')}/items.{export_format.value}"
    write_export(url, token, path, {}, output, diff=False)


@export_app.command("diff")
def diff_export(
    candidate: Annotated[str, typer.Option("--candidate", help="The run under review.")],
    baseline: Annotated[str, typer.Option("--baseline", help="The run compared against.")],
    token: TokenOption,
    export_format: FormatOption = Format.csv,
    output: OutputOption = None,
    url: UrlOption = DEFAULT_URL,
) -> None:
    """A run diff: each case's status, then both runs' trials."""
    path = (
        f"/experiments/{{experiment}}/runs/{quote(candidate, safe='')}/diff.{export_format.value}"
    )
    params = {"candidate": candidate, "baselineRunId": baseline}
    write_export(url, token, path, params, output, diff=True)
