"""CI output of a gate: a Markdown summary and a JUnit XML file, shared by `shipwise gate`
and `shipwise comparison gate`.

Each command turns what it decided into a `GateReport` (the outcome, the criteria, every
dataset case with its status and a link) and calls `write_markdown` / `write_junit`. The
Markdown fits a pull-request comment and `$GITHUB_STEP_SUMMARY` (the outcome, the
criteria table, the worst cases with links); the JUnit file has one test case per dataset
case, a regressed case a failure, valid against the Jenkins xUnit `junit-10.xsd` that CI
systems read. Case ids, evaluator names and other text from users stay text: escaped for
Markdown and HTML, and stripped of the characters XML 1.0 cannot hold.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from server.decisions import wording
from server.words import criterion_title, metric_value, words

WORST_CASES = 10
MAX_CELL = 120
MAX_SENTENCE = 1000
_XML_INVALID = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_\[\]|~#])")


@dataclass(frozen=True)
class Criterion:
    """One row of the criteria table; `status` as the gate reads it (MET, VIOLATED, …)."""

    name: str
    status: str
    baseline: str = ""
    candidate: str = ""
    estimate: str = ""
    interval: str = ""
    threshold: str = ""


@dataclass(frozen=True)
class CaseResult:
    """One dataset case: its id, status and pass fractions; `failed` makes it a JUnit failure."""

    case_id: str
    status: str
    baseline: float | None
    candidate: float | None
    failed: bool
    link: str | None = None
    detail: str = ""

    @property
    def drop(self) -> float:
        """How much worse the candidate is (the worst cases first)."""
        if self.baseline is None or self.candidate is None:
            return 0.0
        return self.baseline - self.candidate


@dataclass(frozen=True)
class GateReport:
    title: str
    outcome: str
    """`SHIP`, `DONT_SHIP`, … or `PASS` / `FAIL` for a gate without a policy."""
    passed: bool
    sentence: str
    suite: str
    """The JUnit test suite's name (e.g. the experiment and the runs)."""
    criteria: Sequence[Criterion] = ()
    cases: Sequence[CaseResult] = ()
    link: str | None = None
    properties: dict[str, str] = field(default_factory=dict)

    def worst(self, limit: int = WORST_CASES) -> list[CaseResult]:
        failed = [case for case in self.cases if case.failed]
        return sorted(failed, key=lambda case: -case.drop)[:limit]


SCORECARD_ROWS: Final = {
    "PASS_RATE": "pass_rate",
    "COST_PER_CASE": "cost_per_case_cents",
    "LATENCY_P50": "latency_p50_ms",
    "LATENCY_P95": "latency_p95_ms",
    "OUTPUT_TOKENS": "output_tokens_mean",
    "FAILED_OR_MISSING": "failed_or_missing_rate",
}
"""A decision metric's scorecard row (`scorecard.metrics { name }`): the cohorts' own values."""

CohortValues = Mapping[str, Mapping[int, float | None]]
"""Scorecard row name → cohort index → value."""


def _in_points(metric: str) -> bool:
    return metric in ("PASS_RATE", "FAILED_OR_MISSING")


def _figure(metric: str, value: float | None) -> str:
    if value is None:
        return "unbounded"
    return wording.points(value) if _in_points(metric) else wording.percent_change(value)


def _bound(kind: str, metric: str, threshold: float | None) -> str:
    """The line a criterion is held to, as the portal's `criterionBound` says it."""
    bound = _figure(metric, threshold) + (" points" if _in_points(metric) else "")
    if kind == "QUALITY":
        return f"margin {bound}"
    if kind == "GAIN":
        return f"must be above {bound}" if metric == "PASS_RATE" else f"must be below {bound}"
    return f"allowed up to {bound}"


def cohort_name(labels: Mapping[int, str], index: int) -> str:
    """A cohort's label as the portal shows it, or "cohort N" numbered from 1 (the preview's)."""
    return labels.get(index) or f"cohort {index + 1}"


def decision_criteria(
    decision: Mapping[str, Any],
    *,
    labels: Mapping[int, str],
    candidate: int = 0,
    values: CohortValues | None = None,
) -> list[Criterion]:
    """A ship decision's criteria (`comparison.decision` / `runDiff.decision`) as rows, in the
    portal's words: "Quality (pass rate) vs quiz v1", "Uncertain", "−2.7 points"; `labels`
    name the cohorts by index, `values` fill the baseline and candidate columns."""
    rows = []
    for c in decision.get("criteria") or []:
        kind, metric = str(c.get("kind", "")), str(c.get("metric", ""))
        against = int(c["baselineCohortIndex"])
        status = words(c.get("status", ""))
        if c.get("reason"):
            status += f" ({words(c['reason']).lower()})"
        row = (values or {}).get(SCORECARD_ROWS.get(metric, ""), {})
        low, high = c.get("low"), c.get("high")
        estimate = c.get("estimate")
        unit = " points" if _in_points(metric) else ""
        rows.append(
            Criterion(
                name=f"{criterion_title(kind, metric)} vs {cohort_name(labels, against)}",
                status=status,
                baseline=_value(metric, row.get(against)),
                candidate=_value(metric, row.get(candidate)),
                estimate="not measured" if estimate is None else _figure(metric, estimate) + unit,
                interval=""
                if low is None and high is None
                else f"{_figure(metric, low)} to {_figure(metric, high)}",
                threshold=_bound(kind, metric, c.get("threshold")),
            )
        )
    return rows


def _value(metric: str, value: float | None) -> str:
    return metric_value(SCORECARD_ROWS.get(metric, ""), value) if value is not None else "—"


def md_text(text: str, limit: int = MAX_CELL) -> str:
    """User text as literal Markdown: no markup, no HTML, no table breaks, one line, at most
    `limit` characters (a table cell's by default; the decision's sentence is whole)."""
    text = _XML_INVALID.sub("", text).replace("\r", " ").replace("\n", " ")
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return _MARKDOWN_SPECIAL.sub(r"\\\1", text)


def _fraction(value: float | None) -> str:
    return "—" if value is None else f"{value:.2f}"


def _link(text: str, url: str | None) -> str:
    if not url:
        return text
    return f"[{text}](<{url.replace('>', '%3E').replace(' ', '%20')}>)"


def outcome_words(outcome: str) -> str:
    """A decision's outcome as the portal says it ("Don't ship"); a gate's PASS or FAIL as is."""
    return wording.OUTCOME_WORDS.get(outcome, outcome)


def render_markdown(report: GateReport) -> str:
    mark = "✅" if report.passed else "❌"
    lines = [
        f"### {mark} {md_text(report.title)}: **{md_text(outcome_words(report.outcome))}**",
        "",
        md_text(report.sentence, MAX_SENTENCE) if report.sentence else "",
        "",
    ]
    if report.criteria:
        lines += [
            "| criterion | status | baseline | candidate | estimate | interval | threshold |",
            "|---|---|---|---|---|---|---|",
        ]
        for c in report.criteria:
            cells = (c.name, c.status, c.baseline, c.candidate, c.estimate, c.interval, c.threshold)
            lines.append("| " + " | ".join(md_text(cell) or " " for cell in cells) + " |")
        lines.append("")
    failed = [case for case in report.cases if case.failed]
    worst = report.worst()
    if worst:
        more = f" (the {len(worst)} worst)" if len(failed) > len(worst) else ""
        lines += [
            f"**{len(failed)} of {len(report.cases)} cases regressed**{more}:",
            "",
            "| case | status | baseline | candidate | |",
            "|---|---|---|---|---|",
        ]
        for case in worst:
            lines.append(
                f"| {md_text(case.case_id)} | {md_text(words(case.status))} | "
                f"{_fraction(case.baseline)} | {_fraction(case.candidate)} | "
                f"{_link('open', case.link)} |"
            )
        lines.append("")
    elif report.cases:
        lines += [f"No case of {len(report.cases)} regressed.", ""]
    if report.link:
        lines.append(_link("Open the comparison in shipwise", report.link))
    return "\n".join(lines).rstrip() + "\n"


def _xml(text: str) -> str:
    return _XML_INVALID.sub("", text)


def render_junit(report: GateReport) -> bytes:
    """`<testsuites>` with one `<testsuite>`: a test case per dataset case."""
    failures = sum(1 for case in report.cases if case.failed)
    root = ET.Element(
        "testsuites", name="shipwise", tests=str(len(report.cases)), failures=str(failures),
        errors="0",
    )  # fmt: skip
    suite = ET.SubElement(
        root, "testsuite", name=_xml(report.suite), tests=str(len(report.cases)),
        failures=str(failures), errors="0", skipped="0",
    )  # fmt: skip
    properties = ET.SubElement(suite, "properties")
    for name, value in {"outcome": report.outcome, **report.properties}.items():
        ET.SubElement(properties, "property", name=_xml(name), value=_xml(value))
    for case in report.cases:
        element = ET.SubElement(
            suite, "testcase", name=_xml(case.case_id), classname=_xml(report.suite)
        )
        if case.failed:
            failure = ET.SubElement(
                element, "failure", type=_xml(case.status),
                message=_xml(
                    f"{case.status}: pass fraction {_fraction(case.baseline)} → "
                    f"{_fraction(case.candidate)}"
                ),
            )  # fmt: skip
            failure.text = _xml("\n".join(filter(None, [case.detail, case.link or ""])))
    ET.indent(root)
    body: bytes = ET.tostring(root, encoding="utf-8", xml_declaration=True)
    return body + b"\n"


def write_markdown(report: GateReport, path: Path) -> None:
    path.write_text(render_markdown(report), encoding="utf-8")


def write_junit(report: GateReport, path: Path) -> None:
    path.write_bytes(render_junit(report))
