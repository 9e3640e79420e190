"""`shipwise gate --markdown FILE --junit FILE`: a run diff's gate as CI output."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any
from urllib.parse import urlencode

import typer

from server.cli.ci_reports import CaseResult, Criterion, GateReport, write_junit, write_markdown
from server.cli.client import ApiClient

MarkdownOption = Annotated[
    Path | None,
    typer.Option(
        "--markdown",
        help="Write a Markdown summary here (a pull-request comment, $GITHUB_STEP_SUMMARY).",
    ),
]
JunitOption = Annotated[
    Path | None,
    typer.Option("--junit", help="Write JUnit XML here: a test case per case, regressions fail."),
]

CASES = """query($c: ID!, $b: ID!, $eps: Float, $after: String) {
  run(id: $c) { experimentId }
  runDiff(candidateRunId: $c, baselineRunId: $b, epsilon: $eps) {
    cases(status: ALL, first: 100, after: $after) {
      pageInfo { hasNextPage endCursor }
      edges { node { datasetItemId position status candidatePassFraction baselinePassFraction
                     evaluators { name delta status } } } } } }"""


def _rate(value: float | None) -> str:
    return "—" if value is None else f"{value:.3f}"


def _signed(value: float | None) -> str:
    return "—" if value is None else f"{value:+.3f}"


def criteria(summary: dict[str, Any], regression: bool) -> list[Criterion]:
    """The pass rate decides (SPEC §4's rule); each evaluator is informational."""
    interval = ""
    if summary["deltaLow"] is not None:
        interval = f"{summary['deltaLow']:+.3f} to {summary['deltaHigh']:+.3f}"
    rows = [
        Criterion(
            name="pass rate",
            status="VIOLATED" if regression else "MET",
            baseline=_rate(summary["baselinePassRate"]),
            candidate=_rate(summary["candidatePassRate"]),
            estimate=_signed(summary["passRateDelta"]),
            interval=interval,
            threshold=f"no significant fall (p {summary['pValue']:.4g})",
        )
    ]
    for e in summary["evaluators"]:
        rows.append(
            Criterion(
                name=f"{e['name']} (evaluator)",
                status="INFORMATIONAL",
                baseline=_rate(e["baselineMean"]),
                candidate=_rate(e["candidateMean"]),
                estimate=_signed(e["delta"]),
                threshold=f"Holm p {e['adjustedPValue']:.4g}",
            )
        )
    return rows


def _cases(
    client: ApiClient, candidate: str, baseline: str, epsilon: float | None
) -> tuple[str, list[dict[str, Any]]]:
    found: list[dict[str, Any]] = []
    after = None
    while True:
        variables = {"c": candidate, "b": baseline, "eps": epsilon, "after": after}
        answer = client.execute(CASES, variables)
        page = answer["runDiff"]["cases"]
        found += [edge["node"] for edge in page["edges"]]
        if not page["pageInfo"]["hasNextPage"]:
            return str(answer["run"]["experimentId"]), found
        after = page["pageInfo"]["endCursor"]


def _detail(case: dict[str, Any]) -> str:
    moved = [f"{e['name']} {e['delta']:+.3f}" for e in case["evaluators"] if e["delta"] is not None]
    return "evaluators: " + ", ".join(moved) if moved else ""


def write(
    client: ApiClient,
    *,
    url: str,
    summary: dict[str, Any],
    candidate: str,
    baseline: str,
    epsilon: float | None,
    regression: bool,
    verdict: str,
    markdown: Path | None,
    junit: Path | None,
) -> None:
    """Read every case of the diff and write the files asked for."""
    if markdown is None and junit is None:
        return
    experiment_id, cases = _cases(client, candidate, baseline, epsilon)
    query = urlencode({"candidate": candidate, "baseline": baseline})
    link = f"{url.rstrip('/')}/experiments/{experiment_id}/diff?{query}"
    report = GateReport(
        title=f"shipwise gate: {candidate} vs {baseline}",
        outcome="FAIL" if regression else "PASS",
        passed=not regression,
        sentence=verdict,
        suite=f"shipwise.{experiment_id}",
        criteria=criteria(summary, regression),
        cases=[
            CaseResult(
                case_id=case["datasetItemId"] or f"position {case['position']}",
                status=case["status"],
                baseline=case["baselinePassFraction"],
                candidate=case["candidatePassFraction"],
                failed=case["status"] == "REGRESSED",
                link=link,
                detail=_detail(case),
            )
            for case in cases
        ],
        link=link,
        properties={"candidateRunId": candidate, "baselineRunId": baseline},
    )
    if markdown is not None:
        write_markdown(report, markdown)
    if junit is not None:
        write_junit(report, junit)
