"""`shipwise gate --markdown FILE --junit FILE`: a run diff's gate as CI output."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any
from urllib.parse import urlencode

import typer

from server.cli.ci_reports import (
    CaseResult,
    Criterion,
    GateReport,
    decision_criteria,
    write_junit,
    write_markdown,
)
from server.cli.client import ApiClient
from server.decisions import approval

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
    """The pass rate decides (docs/statistics.md's rule); each evaluator is informational."""
    interval = ""
    if summary["deltaLow"] is not None:
        interval = f"{summary['deltaLow']:+.3f} to {summary['deltaHigh']:+.3f}"
    rows = [
        Criterion(
            name="pass rate",
            status="Violated" if regression else "Met",
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
                status="Informational",
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
    decision: dict[str, Any] | None = None,
) -> None:
    """Read every case of the diff and write the files asked for; with a ship `decision`
    (a gate by policy), it is the outcome and its criteria are the table."""
    if markdown is None and junit is None:
        return
    experiment_id, cases = _cases(client, candidate, baseline, epsilon)
    query = urlencode({"candidate": candidate, "baseline": baseline})
    link = f"{url.rstrip('/')}/experiments/{experiment_id}/diff?{query}"
    report = GateReport(
        title=f"shipwise gate: {candidate} vs {baseline}",
        outcome=decision["outcome"] if decision else "FAIL" if regression else "PASS",
        passed=approval.passes(decision) if decision else not regression,
        sentence=str(decision.get("sentence") or "") if decision else verdict,
        suite=f"shipwise.{experiment_id}",
        criteria=decision_criteria(
            decision,
            labels={1: baseline},
            values={"pass_rate": {0: summary["candidatePassRate"], 1: summary["baselinePassRate"]}},
        )
        if decision
        else criteria(summary, regression),
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


COMPARISON_COHORTS = """query($id: ID!) { comparison(id: $id) {
  cohorts { cohortIndex isCandidate label }
  scorecard { metrics { name values { cohortIndex value } } } } }"""
COMPARISON_CASES = """query($id: ID!, $b: Int, $after: String) { comparison(id: $id) {
  cases(filter: ALL, baselineCohortIndex: $b, first: 100, after: $after) {
    pageInfo { hasNextPage endCursor }
    edges { node { ordinal datasetItemId cohorts { cohortIndex passFraction } } } } } }"""


def _comparison_fractions(
    client: ApiClient, comparison_id: str, baseline: int
) -> dict[str, tuple[int, dict[int, float | None]]]:
    """Each case's ordinal and its cohorts' pass fractions, as seen against `baseline`."""
    found: dict[str, tuple[int, dict[int, float | None]]] = {}
    after = None
    while True:
        variables = {"id": comparison_id, "b": baseline, "after": after}
        page = client.execute(COMPARISON_CASES, variables)["comparison"]["cases"]
        for edge in page["edges"]:
            node = edge["node"]
            fractions = {c["cohortIndex"]: c["passFraction"] for c in node["cohorts"]}
            found[node["datasetItemId"]] = (int(node["ordinal"]), fractions)
        if not page["pageInfo"]["hasNextPage"]:
            return found
        after = page["pageInfo"]["endCursor"]


def comparison_cases(
    client: ApiClient, url: str, comparison_id: str, cohorts: list[dict[str, Any]]
) -> list[CaseResult]:
    """Every case of a comparison: failed when the candidate's pass fraction is below any
    baseline's (its REGRESSED cases), the worst baseline shown."""
    candidate = next(c["cohortIndex"] for c in cohorts if c["isCandidate"])
    baselines = [c["cohortIndex"] for c in cohorts if not c["isCandidate"]]
    link = f"{url.rstrip('/')}/comparisons/{comparison_id}"
    seen: dict[str, tuple[int, dict[int, float | None]]] = {}
    for index in baselines:
        for item_id, (ordinal, fractions) in _comparison_fractions(
            client, comparison_id, index
        ).items():
            seen.setdefault(item_id, (ordinal, {}))[1].update(fractions)
    results = []
    for item_id, (_, fractions) in sorted(seen.items(), key=lambda kv: kv[1][0]):
        mine = fractions.get(candidate)
        theirs = [fractions.get(b) for b in baselines]
        known = [t for t in theirs if t is not None]
        worst = max(known) if known else None
        failed = mine is not None and worst is not None and mine < worst
        better = mine is not None and bool(known) and mine > min(known)
        status = "REGRESSED" if failed else "IMPROVED" if better else (
            "NO_VERDICT" if mine is None else "NO_CHANGE"
        )  # fmt: skip
        results.append(CaseResult(item_id, status, worst, mine, failed, link))
    return results


def write_comparison(
    client: ApiClient,
    *,
    url: str,
    comparison_id: str,
    decision: dict[str, Any],
    markdown: Path | None,
    junit: Path | None,
) -> None:
    """`shipwise comparison gate ID --markdown FILE --junit FILE`: its decision as CI output."""
    if markdown is None and junit is None:
        return
    found = client.execute(COMPARISON_COHORTS, {"id": comparison_id})["comparison"]
    cohorts: list[dict[str, Any]] = found["cohorts"]
    metrics = (found.get("scorecard") or {}).get("metrics") or []
    report = GateReport(
        title=f"shipwise comparison gate: {comparison_id}",
        outcome=str(decision["outcome"]),
        passed=approval.passes(decision),
        sentence=str(decision.get("sentence") or ""),
        suite=f"shipwise.{comparison_id}",
        criteria=decision_criteria(
            decision,
            labels={c["cohortIndex"]: c["label"] for c in cohorts},
            candidate=next(c["cohortIndex"] for c in cohorts if c["isCandidate"]),
            values={
                row["name"]: {v["cohortIndex"]: v["value"] for v in row["values"]}
                for row in metrics
            },
        ),
        cases=comparison_cases(client, url, comparison_id, cohorts),
        link=f"{url.rstrip('/')}/comparisons/{comparison_id}",
        properties={"comparisonId": comparison_id},
    )
    if markdown is not None:
        write_markdown(report, markdown)
    if junit is not None:
        write_junit(report, junit)
