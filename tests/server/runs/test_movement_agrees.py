"""One vocabulary of movement (docs/domain.md "Movement"): a finalized comparison's cases, the
run diff of its hosted runs and `shipwise compare` over the same trials name the same
movement for every case, and each `CaseFilter` selects the same cases in both lists."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from bench.kit.factories import make_workspace
from bench.kit.harness import Backend
from bench.kit.scenarios import finalized, hosted_runs_of, scripted_setup
from server.workspaces.roles import Role
from tests.server.cli.commands.compare_helpers import read_records, shipwise_compare
from tests.server.runs.api import RUN, diff

# 24 cases × 2 trials, candidate against the baseline.
PAIRS = (
    [("PP", "PP")] * 6  # same → NO_CHANGE
    + [("PF", "PP")] * 4  # the majority outcome flips to fail → REGRESSED
    + [("FF", "PF")] * 4  # both fail; the pass fraction falls → REGRESSED
    + [("PP", "FF")] * 4  # flips to pass → IMPROVED
    + [("PF", "FF")] * 2  # the pass fraction rises → IMPROVED
    + [("PF", "PF")] * 4  # same → NO_CHANGE
)
EXPECTED = (
    ["NO_CHANGE"] * 6 + ["REGRESSED"] * 8 + ["IMPROVED"] * 6 + ["NO_CHANGE"] * 4
)  # fmt: skip

COMPARISON_CASES = """
query($id: ID!, $filter: CaseFilter!) {
  comparison(id: $id) {
    cases(filter: $filter, baselineCohortIndex: 1, first: 100) {
      totalCount edges { node { datasetItemId movement } } } } }
"""


async def _comparison_cases(
    backend: Backend, token: str, comparison_id: str, case_filter: str
) -> dict[str, str]:
    found = await backend.gql(
        COMPARISON_CASES, {"id": comparison_id, "filter": case_filter}, token=token
    )
    edges = found.ok()["comparison"]["cases"]["edges"]
    return {e["node"]["datasetItemId"]: e["node"]["movement"] for e in edges}


async def _diff_cases(
    backend: Backend, token: str, candidate: str, baseline: str, case_filter: str
) -> dict[str, str]:
    found = await diff(backend, token, candidate, baseline, case_filter=case_filter)
    edges = found.ok()["runDiff"]["cases"]["edges"]
    published = {"UNCHANGED": "NO_CHANGE"}  # seed 001's name for the same movement
    return {
        e["node"]["datasetItemId"]: published.get(e["node"]["status"], e["node"]["status"])
        for e in edges
    }


async def _results_file(backend: Backend, token: str, run_id: str, path: Path) -> Path:
    """The hosted run's items as a results JSONL file, the trials' grades as they are."""
    found = (await backend.gql(RUN, {"id": run_id, "first": 100}, token=token)).ok()
    items = [edge["node"] for edge in found["run"]["items"]["edges"]]
    rows = [
        {
            "datasetItemId": item["datasetItemId"],
            "position": item["position"],
            "input": item["input"],
            "trials": [{"passed": t["passed"], "output": t["output"]} for t in item["trials"]],
        }
        for item in items
    ]
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    return path


async def test_comparisons_run_diffs_and_the_offline_compare_name_the_same_movement(
    backend: Backend, tmp_path: Path
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    candidate = [c for c, _ in PAIRS]
    baseline = [b for _, b in PAIRS]
    setup = await scripted_setup(backend.sessionmaker, ws, [candidate, baseline])
    comparison_id, _ = await finalized(backend, setup, trialsPerCase=2)
    token = ws.tokens[Role.MEMBER]
    runs = await hosted_runs_of(backend, token, comparison_id)
    candidate_run, baseline_run = runs[0]["id"], runs[1]["id"]

    in_comparison = await _comparison_cases(backend, token, comparison_id, "ALL")
    expected = dict(zip(in_comparison, EXPECTED, strict=True))  # in case order
    assert in_comparison == expected

    in_diff = await _diff_cases(backend, token, candidate_run, baseline_run, "ALL")
    assert in_diff == expected

    main = await _results_file(backend, token, baseline_run, tmp_path / "main.jsonl")
    branch = await _results_file(backend, token, candidate_run, tmp_path / "branch.jsonl")
    out = tmp_path / "out.jsonl"
    done = await asyncio.to_thread(
        shipwise_compare, "--baseline", str(main), "--treatment", str(branch), "--output", str(out)
    )
    assert done.code == 0, done.stderr
    (record,) = read_records(out)
    assert {c["item"]: c["movement"] for c in record["cases"]} == expected
    assert record["itemsByMovement"] == {"NO_CHANGE": 10, "REGRESSED": 8, "IMPROVED": 6}
    assert "Items: 8 regressed · 6 improved · 10 no change · 0 no verdict" in done.stdout

    for comparison_filter, diff_filter, kept in (
        ("REGRESSIONS", "REGRESSED", {"REGRESSED"}),
        ("IMPROVEMENTS", "IMPROVED", {"IMPROVED"}),
        ("DIVERGED", "CHANGED", {"REGRESSED", "IMPROVED"}),
    ):
        wanted = {key: m for key, m in expected.items() if m in kept}
        assert await _comparison_cases(backend, token, comparison_id, comparison_filter) == wanted
        # The names added after the release and deprecated since still answer the same.
        assert await _comparison_cases(backend, token, comparison_id, diff_filter) == wanted
        assert await _diff_cases(backend, token, candidate_run, baseline_run, diff_filter) == wanted


async def test_a_filter_name_neither_published_nor_added_is_refused(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    found = await backend.gql(
        COMPARISON_CASES,
        {"id": "cmp_missing", "filter": "UNCHANGED"},
        token=ws.tokens[Role.MEMBER],
    )
    assert found.errors and found.errors[0]["extensions"]["code"] == "VALIDATION_FAILED"
