"""Numbers that agree (issue 33, point 6): for the same definition, every surface reports the
same count. A comparison's worse cases against a baseline (by pass fraction): the API's
verdict, the portal's tab label and the rows it lists, the report page's heading and rows, the
follow-ups. A run diff's pass flips (majority outcome per item): the API, the portal's diff
page and its "pass flipped" rows, the server's diff page, `shipwise diff`, `gate` and `compare`.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import httpx
from playwright.async_api import expect

from bench.kit.factories import make_workspace
from bench.kit.harness import Backend
from server.workspaces.roles import Role
from tests.portal.harness import (
    axe_violations,
    sign_in,
)
from tests.server.cli.commands.compare_helpers import shipwise_compare
from tests.server.cli.commands.test_runs_cli import client_env, import_file
from tests.server.cli.invoke import shipwise
from tests.server.reports.api import LINK, finalized_comparison
from tests.server.runs.api import experiment
from tests.server.runs.test_pass_flips import ITEMS, pass_flip_files

VERDICTS = """
query($id: ID!) { comparison(id: $id) { scorecard { verdicts {
  baselineCohortIndex worseCount betterCount } } } }
"""
FOLLOW_UPS = """
query($id: ID!, $b: Int) { report(id: $id) { followUps(first: 100, baselineCohortIndex: $b) {
  totalCount } } }
"""
RUN = "query($id: ID!) { run(id: $id) { experimentId } }"
FLIPS = """
query($c: ID!, $b: ID!) { runDiff(candidateRunId: $c, baselineRunId: $b) {
  summary { passFlipsToFail passFlipsToPass } } }
"""
DIFF_LINK = """mutation($c: ID!, $b: ID!) {
  diffLink(candidateRunId: $c, baselineRunId: $b, expiresInHours: 2) { url } }"""
LABELS = {1: "v3", 2: "v2"}


async def test_worse_cases_count_the_same_in_the_api_portal_and_report_page(
    sqlite_backend: Backend,
    portal_page: Any,
) -> None:
    page = portal_page
    f = await finalized_comparison(sqlite_backend)
    verdicts = (await f.gql(VERDICTS, {"id": f.comparison_id})).ok()["comparison"]["scorecard"]
    worse = {v["baselineCohortIndex"]: v["worseCount"] for v in verdicts["verdicts"]}
    better = {v["baselineCohortIndex"]: v["betterCount"] for v in verdicts["verdicts"]}
    # The script: v4 fails the last 8 cases, which both pass; v2 also fails the first 4.
    assert (worse, better) == ({1: 8, 2: 8}, {1: 0, 2: 4})
    report = await f.generate()
    for index, count in worse.items():
        found = (await f.gql(FOLLOW_UPS, {"id": report["id"], "b": index})).ok()
        assert found["report"]["followUps"]["totalCount"] == count

    await sign_in(
        page, sqlite_backend.base_url, f.token(Role.VIEWER), f"/comparisons/{f.comparison_id}"
    )
    failures = page.get_by_role("region", name="Failure analysis")
    panel = failures.get_by_role("tabpanel")
    for index, label in LABELS.items():
        await failures.get_by_role("combobox", name="Baseline").select_option(label=label)
        for name, count in (("Regressions", worse[index]), ("Improvements", better[index])):
            tab = failures.get_by_role("tab", name=f"{name} ({count})", exact=True)
            await tab.click()
            await expect(panel.get_by_role("button", name="Debug")).to_have_count(count)

    link = (await f.gql(LINK, {"id": report["id"], "hours": 2})).ok()["reportLink"]["url"]
    await page.goto(link)
    # The report page answers first too: its first region is the decision.
    first = page.get_by_role("region").first
    await expect(first).to_have_accessible_name(re.compile(r"^Decision: Don't ship$"))
    for index, label in LABELS.items():
        heading = page.get_by_role(
            "heading", name=f"Cases that got worse against {label} ({worse[index]})"
        )
        await expect(heading).to_be_visible()
        listed = page.locator(f"#worse-{index} tbody tr")
        await expect(listed).to_have_count(worse[index])
        line = page.locator(f'#failure-analysis p[data-baseline="{index}"]')
        await expect(line).to_contain_text(f"{worse[index]} worse, {better[index]} better")
    assert await axe_violations(page) == []
    assert page.console_errors == []


async def test_pass_flips_count_the_same_on_every_surface(
    sqlite_backend: Backend,
    portal_page: Any,
    tmp_path: Path,
) -> None:
    page = portal_page
    backend = sqlite_backend
    main, branch, to_fail, to_pass, _evaluator_only = pass_flip_files(tmp_path)
    said = f"pass flips {to_fail} pass → fail · {to_pass} fail → pass"
    compared = await asyncio.to_thread(
        shipwise_compare, "--baseline", str(main), "--treatment", str(branch)
    )
    assert compared.code == 0, compared.stderr
    assert said in compared.stdout

    ws = await make_workspace(backend.sessionmaker)
    member = ws.tokens[Role.MEMBER]
    await experiment(backend, member)
    runs = []
    for path in (main, branch):
        done = await import_file(backend, member, path)
        assert done.code == 0, done.stderr
        runs.append(done.stdout.strip().splitlines()[-1])
    baseline, candidate = runs
    summary = (await backend.gql(FLIPS, {"c": candidate, "b": baseline}, token=member)).ok()
    flips = summary["runDiff"]["summary"]
    assert (flips["passFlipsToFail"], flips["passFlipsToPass"]) == (to_fail, to_pass)

    env = client_env(backend, member)
    for command in ("diff", "gate"):
        done = await shipwise(command, "--candidate", candidate, "--baseline", baseline, env=env)
        assert said in done.stdout, (command, done.stdout, done.stderr)
    link = (await backend.gql(DIFF_LINK, {"c": candidate, "b": baseline}, token=member)).ok()
    async with httpx.AsyncClient(base_url=backend.base_url) as client:
        served = await client.get(link["diffLink"]["url"])
    assert f"{to_fail} pass → fail · {to_pass} fail → pass" in served.text

    found = (await backend.gql(RUN, {"id": candidate}, token=member)).ok()
    experiment_id = found["run"]["experimentId"]
    await sign_in(
        page,
        backend.base_url,
        ws.tokens[Role.VIEWER],
        f"/experiments/{experiment_id}/diff?candidate={candidate}&baseline={baseline}",
    )
    summary_region = page.get_by_role("region", name="Summary")
    await expect(summary_region.get_by_text("Pass flips", exact=True)).to_be_visible()
    await expect(summary_region).to_contain_text(
        f"{to_fail} pass → fail · {to_pass} fail → pass (majority outcome per item)"
    )
    await page.get_by_role("tab", name="All").click()
    cases = page.get_by_role("table", name="Cases")
    await expect(cases.get_by_role("row")).to_have_count(1 + ITEMS)
    await expect(cases.get_by_text("pass flipped", exact=True)).to_have_count(to_fail + to_pass)
    assert await axe_violations(page) == []
    assert page.console_errors == []
