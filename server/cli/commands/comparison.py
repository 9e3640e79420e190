"""`shipwise comparison …`: create, preview, start (and wait), status, gate and cancel over
the API.

Exit codes: 0 success; 1 a comparison `start --wait` saw end FAILED or CANCELLED, or a
preview that cannot start; 2 an operational error (bad flags, the server unreachable or
refusing, an API error). `gate` and `start --wait --gate`: 0 when the decision is SHIP, 1
on any other decision, 2 on an operational error (docs/decision.md). Ctrl-C during `start
--wait` exits 130 and says the comparison goes on running, and how to cancel it.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Annotated, Any

import typer

from server.cli.client import DEFAULT_URL, ApiClient, ApiError, TokenOption, UrlOption
from server.cli.commands import decision_gate, gate_reports
from server.cli.commands.client_setup import explain, fail
from server.cli.commands.comparison_follow import (
    FIELDS,
    GET,
    INTERRUPTED,
    interrupted,
    wait_for_decision,
)
from server.cli.commands.comparison_input import BadInput, comparison_input
from server.cli.groups import command_group
from server.money import dollars
from server.words import comparison_status, words

comparison_app = command_group("Comparisons (API client: --url, --token).")

NOT_SUCCESSFUL = 1

CREATE = (
    "mutation($input: CreateComparisonInput!) { createComparison(input: $input) {" + FIELDS + "} }"
)
PREVIEW = """
query($input: CreateComparisonInput!) {
  comparisonPreview(input: $input) {
    caseCount trialsPerCase totalCalls judgeCalls callLimit costBoundCents canStart summary
    cohorts { cohortIndex label isCandidate calls costBoundCents }
    variables { text }
    warnings { code message }
    blockers { code message }
  }
}
"""
START = "mutation($id: ID!) { startComparison(id: $id, background: true) {" + FIELDS + "} }"
CANCEL = "mutation($id: ID!) { cancelComparison(id: $id) {" + FIELDS + "} }"
EXPERIMENTS = (
    "query($after: String) { experiments(first: 100, after: $after) "
    "{ edges { node { id name } } pageInfo { hasNextPage endCursor } } }"
)
CREATE_EXPERIMENT = (
    "mutation($name: String!) { createExperiment(input: {name: $name}) { id name } }"
)

CohortOption = Annotated[
    list[str],
    typer.Option(
        "--cohort-json",
        help="A cohort as JSON, repeatable; the first is the candidate. "
        '{"kind": "RELEASE", "releaseId": "…"} or {"cohort_kind": "variant", '
        '"base_release_id": "…", "overrides": {"prompt_template": "<version id>"}}.',
    ),
]
DatasetOption = Annotated[
    str | None, typer.Option("--dataset", help="A dataset id: its latest sealed version.")
]
DatasetVersionOption = Annotated[
    str | None, typer.Option("--dataset-version", help="A sealed dataset version id instead.")
]
MAX_TRIALS = 10
"""As the server's (server/comparisons/inputs.py), said before a request is sent."""


def _trials(value: int | None) -> int | None:
    if value is not None and not 1 <= value <= MAX_TRIALS:
        raise typer.BadParameter(f"trials per case are 1 to {MAX_TRIALS}, not {value}")
    return value


TrialsOption = Annotated[
    int | None,
    typer.Option(
        "--trials", callback=_trials, help=f"Trials per case, 1 to {MAX_TRIALS} (default 3)."
    ),
]
SplitOption = Annotated[str | None, typer.Option("--split", help="DEV (default) or HOLDOUT.")]
ChecksOption = Annotated[
    str | None,
    typer.Option("--checks-json", help='Checks as JSON, e.g. [{"kind": "EXACT_MATCH"}].'),
]
BudgetOption = Annotated[
    float | None, typer.Option("--budget-cents", help="Stop once this much is spent.")
]
ExperimentOption = Annotated[
    str | None,
    typer.Option(
        "--experiment",
        help="An experiment id, or a name (created if new); default: named after the dataset.",
    ),
]
LabelOption = Annotated[str | None, typer.Option("--label", help="A label for the comparison.")]
SampleOption = Annotated[
    int | None, typer.Option("--sample-size", min=1, help="Run a seeded sample of the cases.")
]
SeedOption = Annotated[int, typer.Option("--sample-seed", help="The sample's seed.")]
JsonOption = Annotated[bool, typer.Option("--json", help="Print the API's answer as JSON.")]
WaitOption = Annotated[
    float,
    typer.Option("--wait-seconds", min=0, help="How long to wait for the decision (default 600)."),
]


def _experiment_id(client: ApiClient, experiment: str | None) -> str | None:
    """An `exp_…` id as given; a name looked up, or created when the workspace has none."""
    if experiment is None or experiment.startswith("exp_"):
        return experiment
    after: str | None = None
    while True:
        page = client.execute(EXPERIMENTS, {"after": after})["experiments"]
        for edge in page["edges"]:
            if edge["node"]["name"] == experiment:
                return str(edge["node"]["id"])
        if not page["pageInfo"]["hasNextPage"]:
            break
        after = page["pageInfo"]["endCursor"]
    return str(client.execute(CREATE_EXPERIMENT, {"name": experiment})["createExperiment"]["id"])


def _input(client: ApiClient, **flags: Any) -> dict[str, Any]:
    experiment = flags.pop("experiment")
    value = comparison_input(experiment_id=None, **flags)
    experiment_id = _experiment_id(client, experiment)
    if experiment_id is not None:
        value["experimentId"] = experiment_id
    return value


def _describe(comparison: dict[str, Any]) -> str:
    """A few lines a person reads: status, progress, spend, cohorts."""
    progress = comparison["progress"]
    status = comparison_status(comparison["status"], comparison.get("stopReason"))
    head = f"comparison {comparison['id']}: {status}"
    if comparison.get("errorCode"):
        head += f" error {comparison['errorCode']}"
    lines = [
        head,
        f"  experiment {comparison['experiment']['name']} · dataset version "
        f"{comparison['datasetVersion']['id']} · {comparison['caseCount']} cases × "
        f"{comparison['trialsPerCase']} trials ({words(comparison['split'])} split)",
        f"  calls {progress['doneCalls']}/{progress['totalCalls']} "
        f"({progress['percent']:.1f}%), {progress['failedCalls']} failed; "
        f"spent {dollars(comparison['spentCentsSoFar'])}"
        + (
            f" of {dollars(comparison['budgetCapCents'])}"
            if comparison.get("budgetCapCents") is not None
            else ""
        ),
    ]
    for cohort in comparison["cohorts"]:
        role = "candidate" if cohort["isCandidate"] else "baseline"
        rate = "—" if cohort["passRate"] is None else f"{100 * cohort['passRate']:.1f}%"
        lines.append(
            f"  cohort {cohort['cohortIndex'] + 1} ({role}) {cohort['label']}: pass rate {rate}"
        )
    decision = comparison.get("decision")
    if decision is not None:
        lines.append(decision_gate.describe(decision).splitlines()[0])
    elif comparison["status"] == "DONE":
        lines.append(f"decision: not yet (verdict {words(comparison['verdictState']).lower()})")
    return "\n".join(lines)


def _run(url: str, token: str, call: Any) -> Any:
    try:
        with ApiClient(url, token) as client:
            return call(client)
    except (BadInput, decision_gate.NoDecision) as exc:
        fail(str(exc))
    except ApiError as exc:
        fail(explain(exc, url))
    except OSError as exc:
        fail(f"cannot write the report: {exc.strerror or exc}")


InputHandler = Callable[[dict[str, Any], bool], None]


def _input_command(query: str, field: str) -> Callable[[InputHandler], Callable[..., None]]:
    """A command taking the CreateComparisonInput flags: it sends `query` and hands the answer
    (and `--json`) to the decorated function, whose docstring is the command's help."""

    def decorate(handler: InputHandler) -> Callable[..., None]:
        def command(
            token: TokenOption,
            cohort_json: CohortOption,
            dataset: DatasetOption = None,
            dataset_version: DatasetVersionOption = None,
            trials: TrialsOption = None,
            split: SplitOption = None,
            checks_json: ChecksOption = None,
            budget_cents: BudgetOption = None,
            experiment: ExperimentOption = None,
            label: LabelOption = None,
            sample_size: SampleOption = None,
            sample_seed: SeedOption = 0,
            as_json: JsonOption = False,
            url: UrlOption = DEFAULT_URL,
        ) -> None:
            flags = {
                "cohorts": cohort_json,
                "dataset": dataset,
                "dataset_version": dataset_version,
                "trials": trials,
                "split": split,
                "checks_json": checks_json,
                "budget_cents": budget_cents,
                "experiment": experiment,
                "label": label,
                "sample_size": sample_size,
                "sample_seed": sample_seed,
            }
            answer = _run(
                url, token, lambda c: c.execute(query, {"input": _input(c, **flags)})[field]
            )
            handler(answer, as_json)

        command.__name__, command.__doc__ = handler.__name__, handler.__doc__
        return command

    return decorate


@comparison_app.command("create")
@_input_command(CREATE, "createComparison")
def create_command(comparison: dict[str, Any], as_json: bool) -> None:
    """Create a SETUP comparison (nothing runs yet); its id is printed alone on the last line."""
    typer.echo(json.dumps(comparison, indent=2) if as_json else _describe(comparison))
    sys.stdout.write(comparison["id"] + "\n")


@comparison_app.command("preview")
@_input_command(PREVIEW, "comparisonPreview")
def preview_command(preview: dict[str, Any], as_json: bool) -> None:
    """What the comparison would run and cost, and whether it can start (exit 1 if not)."""
    if as_json:
        typer.echo(json.dumps(preview, indent=2))
    else:
        typer.echo(preview["summary"])
        for cohort in preview["cohorts"]:
            role = "candidate" if cohort["isCandidate"] else "baseline"
            typer.echo(
                f"  cohort {cohort['cohortIndex'] + 1} ({role}) {cohort['label']}: "
                f"{cohort['calls']} calls, at most {dollars(cohort['costBoundCents'])}"
            )
        for variable in preview["variables"]:
            typer.echo(f"  {variable['text']}")
        for warning in preview["warnings"]:
            typer.echo(f"warning: {warning['message']}")
        for blocker in preview["blockers"]:
            typer.echo(f"blocked: {blocker['message']}")
        typer.echo("can start" if preview["canStart"] else "cannot start")
    if not preview["canStart"]:
        raise typer.Exit(NOT_SUCCESSFUL)


@comparison_app.command("start")
def start_command(
    comparison_id: Annotated[str, typer.Argument(metavar="ID", help="A SETUP comparison.")],
    token: TokenOption,
    wait: Annotated[
        bool,
        typer.Option("--wait", help="Follow it until it ends and its decision is in."),
    ] = False,
    gate: Annotated[
        bool,
        typer.Option("--gate", help="With --wait: exit 0 only when the decision is SHIP."),
    ] = False,
    wait_seconds: WaitOption = decision_gate.DEFAULT_WAIT_SECONDS,
    url: UrlOption = DEFAULT_URL,
) -> None:
    """Start a SETUP comparison; with --wait, print its decision and exit 1 unless it ends
    DONE (with --gate: unless its decision is SHIP)."""
    if gate and not wait:
        fail("--gate needs --wait")

    def call(client: ApiClient) -> dict[str, Any]:
        started: dict[str, Any] = client.execute(START, {"id": comparison_id})["startComparison"]
        if not wait:
            return started
        typer.echo(f"comparison {comparison_id}: started", err=True)
        try:
            return wait_for_decision(
                client, url=url, token=token, comparison_id=comparison_id, timeout=wait_seconds
            )
        except KeyboardInterrupt:
            typer.echo("", err=True)  # past the progress bar's line
            typer.echo(interrupted(url, token, comparison_id), err=True)
            raise typer.Exit(INTERRUPTED) from None

    comparison = _run(url, token, call)
    typer.echo(_describe(comparison))
    if gate:
        decision_gate.gate_exit(comparison.get("decision") or {"outcome": None})
    if wait and comparison["status"] != "DONE":
        raise typer.Exit(NOT_SUCCESSFUL)


@comparison_app.command("gate")
def gate_command(
    comparison_id: Annotated[str, typer.Argument(metavar="ID")],
    token: TokenOption,
    wait_seconds: WaitOption = decision_gate.DEFAULT_WAIT_SECONDS,
    markdown: gate_reports.MarkdownOption = None,
    junit: gate_reports.JunitOption = None,
    url: UrlOption = DEFAULT_URL,
) -> None:
    """Print the comparison's decision (waiting for it) and exit 0 on SHIP, 1 on any other
    decision, 2 on an operational error. `--markdown` and `--junit` also write it as CI
    output (README, "In CI")."""

    def call(client: ApiClient) -> dict[str, Any]:
        decision = decision_gate.gate(client, comparison_id, timeout=wait_seconds)
        gate_reports.write_comparison(
            client, url=url, comparison_id=comparison_id, decision=decision,
            markdown=markdown, junit=junit,
        )  # fmt: skip
        return decision

    decision_gate.gate_exit(_run(url, token, call))


@comparison_app.command("status")
def status_command(
    comparison_id: Annotated[str, typer.Argument(metavar="ID")],
    token: TokenOption,
    as_json: JsonOption = False,
    url: UrlOption = DEFAULT_URL,
) -> None:
    """The comparison's status, progress, spend and cohorts."""
    comparison = _run(url, token, lambda c: c.execute(GET, {"id": comparison_id})["comparison"])
    typer.echo(json.dumps(comparison, indent=2) if as_json else _describe(comparison))


@comparison_app.command("cancel")
def cancel_command(
    comparison_id: Annotated[str, typer.Argument(metavar="ID")],
    token: TokenOption,
    url: UrlOption = DEFAULT_URL,
) -> None:
    """Stop a SETUP or RUNNING comparison before its next call."""
    comparison = _run(
        url, token, lambda c: c.execute(CANCEL, {"id": comparison_id})["cancelComparison"]
    )
    typer.echo(_describe(comparison))
