"""Experiments in the portal: the list, an experiment's runs and pass-rate figure, choosing two
runs and the run diff view with its tabs; imported text renders as text (docs/portal.md)."""

from __future__ import annotations

import re
from typing import Any

from playwright.async_api import expect

from bench.kit.factories import make_workspace
from bench.kit.harness import Backend
from bench.kit.scenarios import finalized
from server.workspaces.roles import Role
from tests.portal.harness import (
    Requests,
    axe_violations,
    screenshot,
    sign_in,
)
from tests.server.reports.api import finalized_comparison
from tests.server.runs.api import experiment, import_run, item

XSS = '<img src=x onerror="window.__xss=1"> <script>window.__xss=1</script>'
CASES = 24


def _items(failing: set[int]) -> list[dict[str, Any]]:
    """24 items `c-00`…; the ones in `failing` fail; item 0's input and output are markup."""
    items = [
        item(n not in failing, item_id=f"c-{n:02d}", scores={"judge": 0.2 if n in failing else 0.9})
        for n in range(CASES)
    ]
    items[0]["input"] = XSS
    items[0]["trials"][0]["output"] = XSS
    return items


async def test_runs_figure_and_the_run_diff_with_its_tabs(
    sqlite_backend: Backend,
    portal_page: Any,
) -> None:
    page = portal_page
    ws = await make_workspace(sqlite_backend.sessionmaker)
    member = ws.tokens[Role.MEMBER]
    exp = await experiment(sqlite_backend, member, "nightly evals")
    oldest = await import_run(sqlite_backend, member, exp, _items({5}), key="run-1")
    baseline = await import_run(sqlite_backend, member, exp, _items({5, 6}), key="run-2")
    candidate = await import_run(
        sqlite_backend, member, exp, _items({0, 1, 2, 3, 4, 5, 6, 7}), key="run-3"
    )
    requests = Requests(page, sqlite_backend.base_url)
    await sign_in(page, sqlite_backend.base_url, ws.tokens[Role.VIEWER], "/experiments")
    await page.get_by_role("heading", name="Experiments", exact=True).wait_for()
    experiments = page.get_by_role("table", name="Experiments")
    await experiments.get_by_role("link", name="nightly evals").wait_for()
    assert await axe_violations(page) == []
    await experiments.get_by_role("link", name="nightly evals").click()

    await page.get_by_role("heading", name="nightly evals").wait_for()
    runs = page.get_by_role("table", name="Runs")
    for run_id, rate in ((candidate, "66.7%"), (baseline, "91.7%"), (oldest, "95.8%")):
        await runs.get_by_role(
            "row", name=re.compile(rf"{run_id} Imported Completed 24 {rate}")
        ).wait_for()
    figure = page.get_by_role("figure", name="Pass rate over runs")
    await expect(figure.get_by_role("img")).to_have_count(3)
    await figure.get_by_role("img", name=re.compile(rf"^{oldest}, .*: 95\.8% \(")).wait_for()
    assert await axe_violations(page) == []
    await screenshot(page, "experiment")

    await page.get_by_role("combobox", name="Candidate run").select_option(candidate)
    await page.get_by_role("combobox", name="Baseline run").select_option(baseline)
    await page.get_by_role("button", name="Diff").click()
    await page.get_by_role("heading", name="Run diff").wait_for()
    assert f"candidate={candidate}" in page.url and f"baseline={baseline}" in page.url
    summary = page.get_by_role("region", name="Summary")
    await expect(summary).to_contain_text("6 regressed, 0 improved, 18 no change")
    await expect(summary).to_contain_text("McNemar mid-p, p = ")  # the test in words
    await expect(summary).to_contain_text("(significant regression)")
    assert "_" not in await summary.inner_text()  # no enum value shows raw
    await (
        summary.get_by_role("table", name="Evaluators")
        .get_by_role("row", name=re.compile("judge"))
        .wait_for()
    )
    tabs = page.get_by_role("tablist", name="Cases")
    for name in ("Regressed", "Improved", "Changed", "All"):
        await tabs.get_by_role("tab", name=name).wait_for()
    await expect(tabs.get_by_role("tab", name="Regressed")).to_have_attribute(
        "aria-selected", "true"
    )
    cases = page.get_by_role("tabpanel").get_by_role("table", name="Cases")
    await expect(cases.get_by_role("row")).to_have_count(7)  # the header and 6 regressed
    xss_row = cases.get_by_role("row", name=re.compile(r"^c-00 Regressed"))
    await expect(xss_row).to_contain_text(XSS)
    await expect(xss_row).to_contain_text("judge: 0.90 → 0.20")
    await tabs.get_by_role("tab", name="All").click()
    await expect(cases.get_by_role("row")).to_have_count(CASES + 1)
    await tabs.get_by_role("tab", name="Improved").click()
    await cases.get_by_role("row", name=re.compile("No cases here")).wait_for()
    await tabs.get_by_role("tab", name="Regressed").click()
    await expect(cases.get_by_role("row")).to_have_count(7)
    assert await page.evaluate("typeof window.__xss") == "undefined"
    assert await axe_violations(page) == []
    await screenshot(page, "run-diff")
    assert page.console_errors == []
    assert requests.outside() == []


EXPERIMENT_OF = "query ($id: ID!) { comparison(id: $id) { experiment { id } } }"
RELEASE_NAMES = "{ releases(first: 50) { edges { node { id name } } } }"


async def test_hosted_runs_read_by_release_and_cohort_label(
    sqlite_backend: Backend,
    portal_page: Any,
) -> None:
    """Issue 51 point 11: runs named by their cohort label and release (not "run_… (cohort
    2)"), a line per cohort label, the newest candidate run chosen first, checks in words."""
    page = portal_page
    done = await finalized_comparison(sqlite_backend)
    cohorts = [
        {"kind": "RELEASE", "releaseId": rid, "label": label}
        for rid, label in zip(done.setup.release_ids, ["v4", "v3", "v2"], strict=True)
    ]
    again, _ = await finalized(
        sqlite_backend, done.setup, trialsPerCase=1, label="again", cohorts=cohorts
    )
    exp = (await done.gql(EXPERIMENT_OF, {"id": again})).ok()["comparison"]["experiment"]["id"]
    assert (
        exp
        == (await done.gql(EXPERIMENT_OF, {"id": done.comparison_id})).ok()["comparison"][
            "experiment"
        ]["id"]
    )
    names = {
        e["node"]["id"]: e["node"]["name"]
        for e in (await done.gql(RELEASE_NAMES)).ok()["releases"]["edges"]
    }
    await sign_in(page, sqlite_backend.base_url, done.token(Role.VIEWER), f"/experiments/{exp}")
    runs = page.get_by_role("table", name="Runs")
    for label, release_id in zip(["v4", "v3", "v2"], done.setup.release_ids, strict=True):
        named = re.compile(rf"^{label} \({re.escape(names[release_id])}\) Hosted Completed")
        await expect(runs.get_by_role("row", name=named)).to_have_count(2)
    listed = await runs.inner_text()
    assert "run_" not in listed and "(cohort" not in listed

    figure = page.get_by_role("figure", name="Pass rate over runs")
    lines = figure.get_by_role("list", name="Lines")
    await expect(lines.get_by_role("listitem")).to_have_count(3)
    for label in ("v4", "v3", "v2"):
        await expect(lines.get_by_role("listitem").filter(has_text=label)).to_have_text(
            f"{label}: 2 runs"
        )
    assert await figure.locator("polyline").count() == 3  # one per label, never a zigzag

    candidate = page.get_by_role("combobox", name="Candidate run")
    baseline = page.get_by_role("combobox", name="Baseline run")
    picked = await candidate.evaluate("(s) => s.selectedOptions[0].textContent")
    assert picked.startswith("v4 ("), picked
    picked = await baseline.evaluate("(s) => s.selectedOptions[0].textContent")
    assert picked.startswith("v3 ("), picked
    await page.get_by_role("button", name="Diff").click()
    await page.get_by_role("heading", name="Run diff").wait_for()
    summary = page.get_by_role("region", name="Summary")
    evaluators = summary.get_by_role("table", name="Evaluators")
    await evaluators.get_by_role("row", name=re.compile("Contains the expected output")).wait_for()
    assert "CONTAINS" not in await page.locator("main").inner_text()
    await expect(page.locator("main")).to_contain_text(re.compile(r"Candidate v4 \(.*\) against"))
    assert page.console_errors == []
