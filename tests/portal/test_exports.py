"""The portal's "Download CSV" and "Download JSONL" buttons where rows are shown: the run
diff's cases and a comparison's cases download through a signed `exportLink` (docs/domain.md,
Exports); a VIEWER sees them disabled, described by the role they need."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

from playwright.async_api import expect

from bench.kit.factories import make_workspace
from bench.kit.harness import Backend
from server.workspaces.roles import Role
from tests.portal.harness import (
    sign_in,
)
from tests.server.reports.api import finalized_comparison
from tests.server.runs.api import experiment, import_run, item

FORMULA = '=HYPERLINK("http://x","y"), "quoted"\nnext line'


async def _download(page: Any, name: str, tmp_path: Path) -> str:
    async with page.expect_download() as waiting:
        await page.get_by_role("button", name=name).click()
    download = await waiting.value
    target = tmp_path / str(download.suggested_filename)
    await download.save_as(target)
    return target.read_text()


async def test_a_run_diff_downloads_as_csv_and_jsonl(
    sqlite_backend: Backend,
    portal_page: Any,
    tmp_path: Path,
) -> None:
    page = portal_page
    ws = await make_workspace(sqlite_backend.sessionmaker)
    member = ws.tokens[Role.MEMBER]
    exp = await experiment(sqlite_backend, member, "exported evals")
    baseline_items = [item(True, item_id=f"c-{n}") for n in range(3)]
    candidate_items = [item(n != 1, item_id=f"c-{n}") for n in range(3)]
    candidate_items[1]["trials"][0]["output"] = FORMULA
    baseline = await import_run(sqlite_backend, member, exp, baseline_items, key="b")
    candidate = await import_run(sqlite_backend, member, exp, candidate_items, key="c")
    path = f"/experiments/{exp}/diff?candidate={candidate}&baseline={baseline}"

    await sign_in(page, sqlite_backend.base_url, member, path)
    await page.get_by_role("heading", name="Cases").wait_for()
    text = await _download(page, "Download CSV", tmp_path)
    rows = list(csv.DictReader(io.StringIO(text)))
    assert len(rows) == 6  # 3 cases × candidate and baseline × 1 trial
    assert {(r["datasetItemId"], r["side"]) for r in rows} == {
        (f"c-{n}", side) for n in range(3) for side in ("CANDIDATE", "BASELINE")
    }
    (regressed,) = [r for r in rows if r["side"] == "CANDIDATE" and r["datasetItemId"] == "c-1"]
    assert regressed["output"] == "'" + FORMULA  # a cell a spreadsheet keeps as text
    lines = (await _download(page, "Download JSONL", tmp_path)).splitlines()
    assert sorted(json.loads(line)["runId"] for line in lines) == sorted(
        [candidate] * 3 + [baseline] * 3
    )
    assert page.console_errors == []

    await page.evaluate("sessionStorage.clear()")  # signed out: the token is the tab's
    await sign_in(page, sqlite_backend.base_url, ws.tokens[Role.VIEWER], path)
    await page.get_by_role("heading", name="Cases").wait_for()
    await expect(page.get_by_role("button", name="Download CSV")).to_be_disabled()
    await expect(page.get_by_role("button", name="Download JSONL")).to_be_disabled()


async def test_a_comparisons_cases_download_as_csv_and_jsonl(
    sqlite_backend: Backend,
    portal_page: Any,
    tmp_path: Path,
) -> None:
    page = portal_page
    done = await finalized_comparison(sqlite_backend, [["P", "F", "P"], ["P", "P", "F"]])
    await sign_in(
        page, sqlite_backend.base_url, done.token(Role.MEMBER), f"/comparisons/{done.comparison_id}"
    )
    failures = page.get_by_role("region", name="Failure analysis")
    await failures.wait_for()
    rows = list(csv.DictReader(io.StringIO(await _download(page, "Download CSV", tmp_path))))
    assert len(rows) == 6  # 3 cases × 2 cohorts × 1 trial
    assert {r["comparisonId"] for r in rows} == {done.comparison_id}
    assert sorted((r["caseOrdinal"], r["cohortIndex"]) for r in rows) == [
        (str(c), str(k)) for c in range(3) for k in range(2)
    ]
    lines = (await _download(page, "Download JSONL", tmp_path)).splitlines()
    assert len(lines) == 6 and all(
        json.loads(line)["comparisonId"] == done.comparison_id for line in lines
    )
    assert page.console_errors == []
