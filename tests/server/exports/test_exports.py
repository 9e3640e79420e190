"""Exports over HTTP: a comparison's cases, a run's items and a run diff as CSV and JSONL,
one row per (case, cohort, trial); untrusted text stays text; the caller's workspace only."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import func, select

from bench.kit.factories import comparison_cases, make_comparison_setup, make_workspace
from bench.kit.harness import Backend
from server.comparisons.models import Trial
from server.connections.service import Simulation
from server.workspaces.roles import Role
from tests.server.cli.invoke import shipwise
from tests.server.dispatch.api import create, start
from tests.server.runs.api import experiment, import_run, item

TRICKY = [
    '=HYPERLINK("http://evil.example","click")',
    "+1+2",
    "-3",
    "@SUM(A1:A2)",
    "\tindented",
    "\rcarriage",
    'a, "quoted", text\nover two lines',
    "plain answer",
]
"""Outputs a spreadsheet would run as formulas or split into cells if written raw."""


def _safe(text: str) -> str:
    """What the CSV cell must hold: a formula-leading text behind a `'`."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


async def _get(
    backend: Backend, path: str, bearer: str | None = None, **params: str
) -> httpx.Response:
    headers = {"Authorization": f"Bearer {bearer}"} if bearer else {}
    return await backend.client.get(path, headers=headers, params=params)


def _csv(response: httpx.Response) -> list[dict[str, str]]:
    assert response.headers["content-type"] == "text/csv; charset=utf-8"
    return list(csv.DictReader(io.StringIO(response.text, newline="")))


def _jsonl(response: httpx.Response) -> list[dict[str, Any]]:
    assert response.headers["content-type"] == "application/x-ndjson"
    return [json.loads(line) for line in response.text.splitlines()]


async def _comparison(backend: Backend, token_role: Role = Role.MEMBER) -> tuple[Any, str]:
    """A DONE comparison of 8 cases × 2 cohorts × 2 trials whose outputs are `TRICKY`."""
    ws = await make_workspace(backend.sessionmaker)
    cases = comparison_cases(len(TRICKY))
    script = {c["datasetItemId"]: text for c, text in zip(cases, TRICKY, strict=True)}
    setup = await make_comparison_setup(
        backend.sessionmaker, ws, case_list=cases, simulation=Simulation(script=script)
    )
    member = ws.tokens[token_role]
    comparison_id = await create(backend, member, setup.input(trialsPerCase=2))
    started = await start(backend, member, comparison_id, background=False)
    assert started["status"] == "DONE"
    return ws, comparison_id


async def test_a_comparisons_cases_as_csv_and_jsonl(backend: Backend) -> None:
    ws, comparison_id = await _comparison(backend)
    path = f"/comparisons/{comparison_id}/cases"
    as_csv = await _get(backend, path + ".csv", ws.tokens[Role.VIEWER])
    as_jsonl = await _get(backend, path + ".jsonl", ws.tokens[Role.VIEWER])
    assert as_csv.status_code == as_jsonl.status_code == 200
    assert "attachment" in as_csv.headers["content-disposition"]
    rows, records = _csv(as_csv), _jsonl(as_jsonl)
    async with backend.sessionmaker() as session:
        trials = list(
            await session.scalars(
                select(Trial)
                .where(Trial.comparison_id == comparison_id)
                .order_by(Trial.case_ordinal, Trial.cohort_index, Trial.trial_index)
            )
        )
    assert len(rows) == len(records) == len(trials) == len(TRICKY) * 2 * 2
    for row, record, trial in zip(rows, records, trials, strict=True):
        key = (trial.case_ordinal, trial.cohort_index, trial.trial_index)
        assert (record["caseOrdinal"], record["cohortIndex"], record["trialIndex"]) == key
        assert (int(row["caseOrdinal"]), int(row["cohortIndex"]), int(row["trialIndex"])) == key
        assert record["datasetItemId"] == row["datasetItemId"] == f"q-{trial.case_ordinal:03d}"
        # JSONL keeps the text exactly; the CSV cell keeps it, formula-safe.
        assert record["output"] == trial.output == TRICKY[trial.case_ordinal]
        assert row["output"] == _safe(TRICKY[trial.case_ordinal])
        assert record["checks"] == trial.check_results
        assert json.loads(row["checks"]) == trial.check_results
        assert record["passed"] is trial.passed
        assert row["passed"] == ("true" if trial.passed else "false")
        assert (record["latencyMs"], record["inputTokens"], record["outputTokens"]) == (
            trial.latency_ms,
            trial.input_tokens,
            trial.output_tokens,
        )
        assert int(row["costMicros"]) == record["costMicros"] == trial.cost_micros
        assert record["input"] == {
            "question": f"What is {trial.case_ordinal:03d} + {trial.case_ordinal:03d}?"
        }
    assert {r["cohortLabel"] for r in records} == {r["cohortLabel"] for r in rows} and len(
        {r["cohortLabel"] for r in records}
    ) == 2


async def test_a_run_and_a_diff_export_one_row_per_trial(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    token = ws.tokens[Role.MEMBER]
    exp = await experiment(backend, token)

    def items(passed: bool) -> list[dict[str, Any]]:
        found = []
        for index, text in enumerate(TRICKY):
            entry = item([passed, True], item_id=f"case-{index}", scores={"len": 0.5})
            for trial in entry["trials"]:
                trial["output"] = text
            found.append(entry)
        return found

    baseline = await import_run(backend, token, exp, items(True), key="b")
    candidate = await import_run(backend, token, exp, items(False), key="c")

    run_csv = _csv(await _get(backend, f"/runs/{candidate}/items.csv", token))
    run_jsonl = _jsonl(await _get(backend, f"/runs/{candidate}/items.jsonl", token))
    assert len(run_csv) == len(run_jsonl) == len(TRICKY) * 2
    for index, (row, record) in enumerate(zip(run_csv, run_jsonl, strict=True)):
        assert (record["position"], record["trialIndex"]) == (index // 2, index % 2)
        assert record["output"] == TRICKY[index // 2]
        assert row["output"] == _safe(TRICKY[index // 2])
        assert record["passed"] is (index % 2 == 1)
        assert record["evaluators"] == {"len": 0.5}

    path = f"/experiments/{exp}/runs/{candidate}/diff"
    diff_jsonl = _jsonl(await _get(backend, path + ".jsonl", token, baselineRunId=baseline))
    diff_csv = _csv(await _get(backend, path + ".csv", token, baselineRunId=baseline))
    assert len(diff_jsonl) == len(diff_csv) == len(TRICKY) * 2 * 2
    first = diff_jsonl[:4]
    assert [(r["side"], r["trialIndex"]) for r in first] == [
        ("CANDIDATE", 0),
        ("CANDIDATE", 1),
        ("BASELINE", 0),
        ("BASELINE", 1),
    ]
    assert {r["status"] for r in diff_jsonl} == {"REGRESSED"}  # 2/2 passed → 1/2 passed
    assert {r["runId"] for r in diff_jsonl if r["side"] == "BASELINE"} == {baseline}
    assert [r["output"] for r in diff_csv[:4]] == [_safe(TRICKY[0])] * 4


async def test_who_may_download(backend: Backend) -> None:
    ws, comparison_id = await _comparison(backend)
    other = await make_workspace(backend.sessionmaker)
    path = f"/comparisons/{comparison_id}/cases.csv"

    unauthenticated = await _get(backend, path)
    assert unauthenticated.status_code == 401
    assert unauthenticated.json()["errors"][0]["extensions"]["code"] == "UNAUTHENTICATED"

    # Another workspace's id is as unknown as a made-up one, and shows nothing of it.
    foreign = await _get(backend, path, other.owner)
    unknown = await _get(backend, "/comparisons/cmp_nope/cases.csv", other.owner)
    assert foreign.status_code == unknown.status_code == 404
    assert foreign.json() == unknown.json()
    assert foreign.json()["errors"][0]["extensions"]["code"] == "NOT_FOUND"
    assert "HYPERLINK" not in foreign.text

    bad_format = await _get(backend, f"/comparisons/{comparison_id}/cases.xlsx", ws.owner)
    assert bad_format.status_code == 404

    forged = await _get(backend, path, token="abc.def")
    assert forged.status_code == 403
    assert forged.json()["errors"][0]["extensions"]["code"] == "FORBIDDEN"


async def test_a_diff_needs_a_baseline_and_completed_runs(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    token = ws.tokens[Role.MEMBER]
    exp = await experiment(backend, token)
    done = await import_run(backend, token, exp, [item(True, item_id="a")], key="d")
    running = await import_run(
        backend, token, exp, [item(True, item_id="a")], key="r", complete=False
    )
    path = f"/experiments/{exp}/runs/{done}/diff.csv"
    missing = await _get(backend, path, token)
    assert missing.status_code == 400
    assert missing.json()["errors"][0]["extensions"]["field"] == "baselineRunId"
    conflict = await _get(backend, path, token, baselineRunId=running)
    assert conflict.status_code == 409
    assert conflict.json()["errors"][0]["extensions"]["reason"] == "RUN_NOT_COMPLETED"
    wrong_experiment = await _get(
        backend, f"/experiments/exp_other/runs/{done}/diff.csv", token, baselineRunId=done
    )
    assert wrong_experiment.status_code == 404


@pytest.mark.parametrize(
    ("text", "cell"),
    [
        ("=1+1", "'=1+1"),
        ("-2", "'-2"),
        ("plain", "plain"),
        ("a,b", "a,b"),
    ],
)
def test_text_cells_are_formula_safe(text: str, cell: str) -> None:
    from server.exports.encoding import csv_cell

    assert csv_cell(text) == cell
    assert csv_cell(-2) == -2  # numbers we computed stay numbers


async def test_shipwise_export_writes_each_export(backend: Backend, tmp_path: Path) -> None:
    ws = await make_workspace(backend.sessionmaker)
    token = ws.tokens[Role.MEMBER]
    env = {"SHIPWISE_URL": backend.base_url, "SHIPWISE_TOKEN": token}
    exp = await experiment(backend, token)
    first = [item([True, False], item_id="a"), item([True], item_id="b")]
    baseline = await import_run(backend, token, exp, first, key="b")
    candidate = await import_run(backend, token, exp, first, key="c")

    out = tmp_path / "items.csv"
    done = await shipwise(
        "export", "run", candidate, "--format", "csv", "--output", str(out), env=env
    )
    assert done.code == 0, done.stderr
    rows = list(csv.DictReader(out.open(newline="")))
    assert [(r["datasetItemId"], r["trialIndex"], r["passed"]) for r in rows] == [
        ("a", "0", "true"),
        ("a", "1", "false"),
        ("b", "0", "true"),
    ]
    done = await shipwise(
        "export", "diff", "--candidate", candidate, "--baseline", baseline, "--format", "jsonl",
        env=env,
    )  # fmt: skip
    assert done.code == 0, done.stderr
    records = [json.loads(line) for line in done.stdout.splitlines()]
    assert [(r["side"], r["datasetItemId"]) for r in records] == [
        ("CANDIDATE", "a"), ("CANDIDATE", "a"), ("BASELINE", "a"), ("BASELINE", "a"),
        ("CANDIDATE", "b"), ("BASELINE", "b"),
    ]  # fmt: skip

    missing = tmp_path / "missing.csv"
    unknown = await shipwise("export", "comparison", "cmp_nope", "-o", str(missing), env=env)
    assert unknown.code == 2
    assert "NOT_FOUND" in unknown.stderr
    assert not missing.exists() and not (tmp_path / "missing.csv.part").exists()


EXPORT_LINK = """mutation($t: ExportTarget!, $id: ID!, $f: ExportFormat!, $b: ID, $h: Int! = 168) {
  exportLink(target: $t, id: $id, format: $f, baselineRunId: $b, expiresInHours: $h) {
    url expiresAt
  }
}"""


async def test_a_signed_export_link_downloads_without_a_token(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    token = ws.tokens[Role.MEMBER]
    exp = await experiment(backend, token)
    baseline = await import_run(backend, token, exp, [item(True, item_id="a")], key="b")
    candidate = await import_run(backend, token, exp, [item(False, item_id="a")], key="c")

    made = await backend.gql(
        EXPORT_LINK, {"t": "RUN_DIFF", "id": candidate, "f": "JSONL", "b": baseline}, token=token
    )
    url = made.ok()["exportLink"]["url"]
    assert url.startswith(f"/experiments/{exp}/runs/{candidate}/diff.jsonl?baselineRunId=")
    opened = await backend.client.get(url)
    assert opened.status_code == 200
    assert [r["side"] for r in _jsonl(opened)] == ["CANDIDATE", "BASELINE"]
    # The same token opens the CSV, not another export.
    assert (await backend.client.get(url.replace("diff.jsonl", "diff.csv"))).status_code == 200
    token_only = url.split("token=", 1)[1]
    other = await backend.client.get(f"/runs/{candidate}/items.csv", params={"token": token_only})
    assert other.status_code == 403

    run_link = await backend.gql(
        EXPORT_LINK, {"t": "RUN_ITEMS", "id": candidate, "f": "CSV"}, token=token
    )
    assert len(_csv(await backend.client.get(run_link.ok()["exportLink"]["url"]))) == 1

    viewer = await backend.gql(
        EXPORT_LINK, {"t": "RUN_ITEMS", "id": candidate, "f": "CSV"}, token=ws.tokens[Role.VIEWER]
    )
    assert viewer.codes == ["FORBIDDEN"]
    other_ws = await make_workspace(backend.sessionmaker)
    foreign = await backend.gql(
        EXPORT_LINK, {"t": "COMPARISON_CASES", "id": candidate, "f": "CSV"}, token=other_ws.owner
    )
    assert foreign.codes == ["NOT_FOUND"]
    too_long = await backend.gql(
        EXPORT_LINK, {"t": "RUN_ITEMS", "id": candidate, "f": "CSV", "h": 721}, token=token
    )
    assert too_long.codes == ["VALIDATION_FAILED"]
    no_baseline = await backend.gql(
        EXPORT_LINK, {"t": "RUN_DIFF", "id": candidate, "f": "CSV"}, token=token
    )
    assert no_baseline.errors[0]["extensions"]["field"] == "baselineRunId"


async def test_the_export_bench_seeds_past_the_default_call_limit(backend: Backend) -> None:
    """`bench/export.py --cases 100000` seeds 600,000 trials: its workspace's own limit on a
    comparison's calls (20,000 unless an ADMIN sets it) must not refuse the comparison.
    3,400 cases × 2 cohorts × 3 trials is just past that default."""
    from bench.export import COHORTS, TRIALS, seed_comparison

    token, comparison_id = await seed_comparison(backend.sessionmaker, 3_400)
    async with backend.sessionmaker() as session:
        trials = await session.scalar(
            select(func.count()).select_from(Trial).where(Trial.comparison_id == comparison_id)
        )
    assert trials == 3_400 * COHORTS * TRIALS
    exported = await _get(backend, f"/comparisons/{comparison_id}/cases.jsonl", token)
    assert exported.status_code == 200
    assert exported.text.count("\n") == 3_400 * COHORTS * TRIALS
