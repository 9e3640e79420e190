"""`shipwise run import` and `shipwise diff`: API clients of a server (`shipwise gate` is
`gate`).

Exit codes: `run import` 0 imported, 1 a bad line (the run is left FAILED), 2 an
operational error; `diff` 0 or 2.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from server.cli.client import DEFAULT_URL, ApiClient, ApiError, TokenOption, UrlOption
from server.cli.commands import format_import
from server.cli.commands.chunk_upload import DEFAULT_IN_FLIGHT
from server.cli.commands.client_setup import (
    OPERATIONAL_ERROR,
    InFlightOption,
    explain,
    fail,
    run_import,
)
from server.cli.commands.format_options import (
    FilterOption,
    FormatOption,
    ScorerOption,
    ThresholdOption,
    VariantOption,
    resolve_format,
)
from server.cli.commands.run_import import import_file
from server.cli.groups import command_group
from server.result_formats.reading import Options
from server.runs import pass_flips
from server.runs.items import MAX_ITEMS_PER_CHUNK
from server.words import words

run_app = command_group("Runs (API client: --url, --token).")

STATUSES = ("ALL", "REGRESSED", "IMPROVED", "CHANGED")
PAGE = 100

SUMMARY = """
  baselinePassRate candidatePassRate passRateDelta deltaLow deltaHigh method pValue
  significant significanceReason improvedCount regressedCount unchangedCount addedCount
  removedCount pairedCount gradedPairCount epsilon pairing passFlipsToFail passFlipsToPass
  evaluators { name pairedCount baselineMean candidateMean delta adjustedPValue significant }
"""
DIFF = (
    "query($c: ID!, $b: ID!, $eps: Float, $status: DiffCaseFilter!, $first: Int, $after: String)"
    " { runDiff(candidateRunId: $c, baselineRunId: $b, epsilon: $eps) { summary {"
    + SUMMARY
    + "} cases(status: $status, first: $first, after: $after) { totalCount"
    " pageInfo { hasNextPage endCursor } edges { node { datasetItemId position status passFlip"
    " evaluators { name delta status } } } } } }"
)

CandidateOption = Annotated[str, typer.Option("--candidate", help="The run under review.")]
BaselineOption = Annotated[str, typer.Option("--baseline", help="The run compared against.")]
EpsilonOption = Annotated[
    float | None, typer.Option("--epsilon", help="Pass-rate units; default 0.01 (1 point).")
]


@run_app.command("import")
def import_command(
    file: Annotated[
        Path, typer.Argument(help="shipwise JSONL (one item per line), or another tool's file.")
    ],
    token: TokenOption,
    experiment: Annotated[
        str, typer.Option("--experiment", help="The experiment's name (created if new).")
    ],
    url: UrlOption = DEFAULT_URL,
    idempotency_key: Annotated[
        str | None,
        typer.Option("--idempotency-key", help="Default: a hash of the file and experiment."),
    ] = None,
    metadata: Annotated[
        str | None, typer.Option("--metadata", help="A JSON object kept with the run.")
    ] = None,
    chunk_size: Annotated[
        int,
        typer.Option("--chunk-size", min=1, max=MAX_ITEMS_PER_CHUNK, help="Items per call."),
    ] = MAX_ITEMS_PER_CHUNK,
    in_flight: InFlightOption = DEFAULT_IN_FLIGHT,
    file_format: FormatOption = "auto",
    scorer: ScorerOption = None,
    pass_threshold: ThresholdOption = 1.0,
    variant: VariantOption = None,
    filter_name: FilterOption = None,
    judge_evaluator: Annotated[
        str | None,
        typer.Option(
            "--judge-evaluator",
            help="The evaluator that is an LLM judge's grade (0.5 or above a pass): its "
            "agreement with human labels is measured.",
        ),
    ] = None,
    checks_json: Annotated[
        str | None,
        typer.Option(
            "--checks-json",
            help='Checks the server grades each trial with: \'[{"kind": "CONTAINS"}]\' '
            "(a shipwise JSONL; items carry `expected`, trials `toolCalls`).",
        ),
    ] = None,
) -> None:
    """Import a results file as a COMPLETED run; prints the run id alone on the last line.

    A shipwise JSONL's bad line is reported as `line N: reason` and the run is left FAILED
    (exit 1); another tool's bad record names its line or zip member (exit 2).
    """
    meta = _metadata(metadata)
    checks = _checks(checks_json)
    options = Options(scorer, pass_threshold, variant, filter_name)
    fmt = resolve_format(file, file_format, options)
    if fmt != "shipwise" and checks is not None:
        fail("--checks-json grades a shipwise JSONL; another tool's results are graded by it")
    if fmt != "shipwise":
        format_import.run_command(
            file, url=url, token=token, fmt=fmt, options=options, experiment=experiment,
            idempotency_key=idempotency_key, metadata=meta, chunk_size=chunk_size,
            in_flight=in_flight, judge_evaluator=judge_evaluator,
        )  # fmt: skip
        return
    imported = run_import(
        file,
        url=url,
        token=token,
        with_reason=True,
        call=lambda client: import_file(
            client,
            file,
            experiment=experiment,
            idempotency_key=idempotency_key,
            metadata=meta,
            chunk_size=chunk_size,
            in_flight=in_flight,
            judge_evaluator=judge_evaluator,
            checks=checks,
        ),
    )
    typer.echo(
        f"run {imported.run_id}: {imported.item_count} items, {words(imported.status).lower()}, "
        f"in experiment {experiment!r}"
    )
    sys.stdout.write(imported.run_id + "\n")


def _checks(text: str | None) -> list[Any] | None:
    if text is None:
        return None
    try:
        value = json.loads(text)
    except ValueError:
        fail("--checks-json must be a JSON list of checks", OPERATIONAL_ERROR)
    if not isinstance(value, list):
        fail("--checks-json must be a JSON list of checks", OPERATIONAL_ERROR)
    return value


def _metadata(text: str | None) -> dict[str, Any] | None:
    if text is None:
        return None
    try:
        value = json.loads(text)
    except ValueError:
        fail("--metadata must be a JSON object", OPERATIONAL_ERROR)
    if not isinstance(value, dict):
        fail("--metadata must be a JSON object", OPERATIONAL_ERROR)
    return value


def diff_command(
    token: TokenOption,
    candidate: CandidateOption,
    baseline: BaselineOption,
    url: UrlOption = DEFAULT_URL,
    status: Annotated[
        str, typer.Option("--status", help="ALL, REGRESSED, IMPROVED or CHANGED.")
    ] = "ALL",
    epsilon: EpsilonOption = None,
    limit: Annotated[
        int, typer.Option("--limit", min=0, help="Most cases to print; 0 for all.")
    ] = 50,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead.")] = False,
) -> None:
    """Compare two COMPLETED runs item by item: the summary, then the cases."""
    status = status.upper()
    if status not in STATUSES:
        fail(f"--status must be one of {', '.join(STATUSES)}", OPERATIONAL_ERROR)
    try:
        with ApiClient(url, token) as client:
            summary, total, cases = _fetch(client, candidate, baseline, status, epsilon, limit)
    except ApiError as exc:
        fail(explain(exc, url, with_reason=True), OPERATIONAL_ERROR)
    if as_json:
        typer.echo(json.dumps({"summary": summary, "totalCount": total, "cases": cases}))
        return
    typer.echo(format_summary(summary, candidate, baseline))
    typer.echo("")
    typer.echo(
        f"{status.lower()} cases: {total}"
        + (f" (first {len(cases)})" if total > len(cases) else "")
    )
    if cases:
        typer.echo(format_cases(cases))


def _fetch(
    client: ApiClient,
    candidate: str,
    baseline: str,
    status: str,
    epsilon: float | None,
    limit: int,
) -> tuple[dict[str, Any], int, list[dict[str, Any]]]:
    cases: list[dict[str, Any]] = []
    after = None
    while True:
        first = PAGE if limit == 0 else min(PAGE, limit - len(cases))
        variables = {
            "c": candidate, "b": baseline, "eps": epsilon, "status": status,
            "first": first, "after": after,
        }  # fmt: skip
        answer = client.execute(DIFF, variables)["runDiff"]
        page = answer["cases"]
        cases += [edge["node"] for edge in page["edges"]]
        done = limit != 0 and len(cases) >= limit
        if done or not page["pageInfo"]["hasNextPage"]:
            return answer["summary"], int(page["totalCount"]), cases
        after = page["pageInfo"]["endCursor"]


def rate(value: float | None) -> str:
    return "—" if value is None else f"{value:.3f}"


def signed(value: float | None) -> str:
    return "—" if value is None else f"{value:+.3f}"


def format_summary(summary: dict[str, Any], candidate: str, baseline: str) -> str:
    interval = ""
    if summary["deltaLow"] is not None:
        interval = f" [{summary['deltaLow']:+.3f}, {summary['deltaHigh']:+.3f}]"
    verdict = "significant" if summary["significant"] else "not significant"
    lines = [
        f"candidate {candidate} vs baseline {baseline}: {summary['pairedCount']} pairs by "
        f"{summary['pairing']}, ε {summary['epsilon']:g}",
        f"pass rate  {rate(summary['baselinePassRate'])} → {rate(summary['candidatePassRate'])}"
        f"  Δ {signed(summary['passRateDelta'])}{interval}  p {summary['pValue']:.4g}"
        f" ({summary['method']})  {verdict} ({summary['significanceReason']})",
        f"items      {summary['regressedCount']} regressed · {summary['improvedCount']} improved"
        f" · {summary['unchangedCount']} no change · {summary['addedCount']} added"
        f" · {summary['removedCount']} removed",
        pass_flips.line(summary["passFlipsToFail"], summary["passFlipsToPass"]),
    ]
    for e in summary["evaluators"]:
        mark = "significant" if e["significant"] else "not significant"
        lines.append(
            f"evaluator  {e['name']}: {e['baselineMean']:.3f} → {e['candidateMean']:.3f}"
            f"  Δ {e['delta']:+.3f}  Holm p {e['adjustedPValue']:.4g}  {mark}"
        )
    return "\n".join(lines)


def format_cases(cases: list[dict[str, Any]]) -> str:
    rows: list[tuple[str, ...]] = [("STATUS", "POSITION", "ITEM", "FLIP", "EVALUATORS")]
    for case in cases:
        moved = ", ".join(
            f"{e['name']} {signed(e['delta'])}"
            for e in case["evaluators"]
            if e["delta"] is not None
        )
        rows.append(
            (
                case["status"],
                str(case["position"]),
                case["datasetItemId"] or "—",
                "yes" if case["passFlip"] else "",
                moved,
            )
        )
    return table(rows)


def table(rows: list[tuple[str, ...]]) -> str:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return "\n".join(
        "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()
        for row in rows
    )
