"""`shipwise gate`: a run diff as a CI gate, with its Markdown and JUnit output.

Exit codes: 0 no significant regression, 1 a significant pass-rate regression (whatever the
evaluators do), 2 an operational error — or, given a policy (`--margin-points`,
`--guardrail`, `--require-gain`), 0 only when the decision is SHIP (docs/decision.md).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from server.cli.client import DEFAULT_URL, ApiClient, ApiError, TokenOption, UrlOption
from server.cli.commands import decision_gate, gate_policy, gate_reports
from server.cli.commands.client_setup import OPERATIONAL_ERROR, explain, fail
from server.cli.commands.runs import (
    SUMMARY,
    BaselineOption,
    CandidateOption,
    EpsilonOption,
    rate,
    signed,
    table,
)
from server.runs import pass_flips

REGRESSION = 1
SUMMARY_ONLY = (
    "query($c: ID!, $b: ID!, $eps: Float) { runDiff(candidateRunId: $c, baselineRunId: $b, "
    "epsilon: $eps) { summary {" + SUMMARY + "} } }"
)

MarginOption = Annotated[
    float | None,
    typer.Option("--margin-points", help="Decide by a policy: the quality margin δ in points."),
]
GuardrailOption = Annotated[
    list[str] | None,
    typer.Option(
        "--guardrail",
        help="Decide by a policy: METRIC=+P% (cost_per_case, latency_p50, latency_p95, "
        "output_tokens) or failed_or_missing=+P (points); repeatable.",
    ),
]
GainOption = Annotated[
    str | None,
    typer.Option("--require-gain", help="Decide by a policy: QUALITY, COST or LATENCY."),
]


def gate_command(
    token: TokenOption,
    candidate: CandidateOption,
    baseline: BaselineOption,
    url: UrlOption = DEFAULT_URL,
    epsilon: EpsilonOption = None,
    markdown: gate_reports.MarkdownOption = None,
    junit: gate_reports.JunitOption = None,
    margin_points: MarginOption = None,
    guardrail: GuardrailOption = None,
    require_gain: GainOption = None,
) -> None:
    """Exit 1 on a significant pass-rate regression, 0 otherwise, 2 on an operational error.

    With a policy (any of --margin-points, --guardrail, --require-gain) it decides as a
    comparison does (docs/decision.md): 0 only when the decision is SHIP, 1 otherwise.
    `--markdown` and `--junit` also write the gate as CI output (README, "In CI")."""
    if margin_points is not None or guardrail or require_gain is not None:
        try:
            policy = gate_policy.policy_input(margin_points, guardrail or [], require_gain)
        except gate_policy.BadPolicy as exc:
            fail(str(exc), OPERATIONAL_ERROR)
        _decision_gate(url, token, candidate, baseline, policy, markdown, junit)
        return
    try:
        with ApiClient(url, token) as client:
            variables = {"c": candidate, "b": baseline, "eps": epsilon}
            summary = client.execute(SUMMARY_ONLY, variables)["runDiff"]["summary"]
            delta = summary["passRateDelta"]
            regression = bool(summary["significant"] and delta is not None and delta < 0)
            verdict = _verdict(summary, regression)
            gate_reports.write(
                client, url=url, summary=summary, candidate=candidate, baseline=baseline,
                epsilon=epsilon, regression=regression, verdict=verdict, markdown=markdown,
                junit=junit,
            )  # fmt: skip
    except ApiError as exc:
        fail(explain(exc, url, with_reason=True), OPERATIONAL_ERROR)
    except OSError as exc:
        fail(f"cannot write the report: {exc.strerror or exc}", OPERATIONAL_ERROR)
    typer.echo(format_gate(summary))
    typer.echo(f"gate: {verdict}")
    if regression:
        raise typer.Exit(REGRESSION)


def _verdict(summary: dict[str, Any], regression: bool) -> str:
    if regression:
        return (
            f"FAIL: significant pass-rate regression ({summary['passRateDelta'] * 100:+.1f} "
            f"points, p {summary['pValue']:.4g})"
        )
    return f"PASS: no significant pass-rate regression ({summary['significanceReason']})"


def _decision_gate(
    url: str,
    token: str,
    candidate: str,
    baseline: str,
    policy: dict[str, Any],
    markdown: Path | None,
    junit: Path | None,
) -> None:
    try:
        with ApiClient(url, token) as client:
            variables = {"c": candidate, "b": baseline, "policy": policy}
            answer = client.execute(gate_policy.DECISION, variables)["runDiff"]
            gate_reports.write(
                client, url=url, summary=answer["summary"], candidate=candidate,
                baseline=baseline, epsilon=None, regression=False, verdict="",
                markdown=markdown, junit=junit, decision=answer["decision"],
            )  # fmt: skip
    except ApiError as exc:
        fail(explain(exc, url, with_reason=True), OPERATIONAL_ERROR)
    except OSError as exc:
        fail(f"cannot write the report: {exc.strerror or exc}", OPERATIONAL_ERROR)
    typer.echo(format_gate(answer["summary"]))
    typer.echo(decision_gate.describe(answer["decision"]))
    decision_gate.gate_exit(answer["decision"])


def format_gate(summary: dict[str, Any]) -> str:
    rows: list[tuple[str, ...]] = [("METRIC", "BASELINE", "CANDIDATE", "DELTA", "P", "SIGNIFICANT")]
    rows.append(
        (
            "pass_rate",
            rate(summary["baselinePassRate"]),
            rate(summary["candidatePassRate"]),
            signed(summary["passRateDelta"]),
            f"{summary['pValue']:.4g}",
            "yes" if summary["significant"] else "no",
        )
    )
    for e in summary["evaluators"]:
        rows.append(
            (
                e["name"],
                rate(e["baselineMean"]),
                rate(e["candidateMean"]),
                signed(e["delta"]),
                f"{e['adjustedPValue']:.4g}",
                ("yes" if e["significant"] else "no") + " (informational)",
            )
        )
    pairs = f"{summary['gradedPairCount']} graded pairs of {summary['pairedCount']}"
    flips = pass_flips.line(summary["passFlipsToFail"], summary["passFlipsToPass"])
    return table(rows) + f"\n{pairs}, paired by {summary['pairing']}\n{flips}"
