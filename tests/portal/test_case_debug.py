"""The case-debug dialog: every cohort's trials, the Diff switch, closing with Escape; and
untrusted text (model outputs, case inputs) shown as text, never run."""

from __future__ import annotations

import re
from typing import Any

from playwright.async_api import expect

from bench.kit.factories import make_comparison_setup, make_workspace
from bench.kit.harness import Backend
from bench.kit.scenarios import WRONG, run_comparison, wait_finalized
from server.connections.service import Simulation
from server.workspaces.roles import Role
from tests.portal.harness import (
    Requests,
    axe_violations,
    screenshot,
    sign_in,
)
from tests.server.reports.api import finalized_comparison

IMG = '<img src=x onerror="window.__xss=1">'
SCRIPT = "<script>window.__xss=1</script>"


async def test_the_dialog_shows_each_cohort_s_trials_and_diffs_the_baselines(
    sqlite_backend: Backend,
    portal_page: Any,
) -> None:
    page = portal_page
    done = await finalized_comparison(sqlite_backend)
    requests = Requests(page, sqlite_backend.base_url)
    await sign_in(
        page, sqlite_backend.base_url, done.token(Role.VIEWER), f"/comparisons/{done.comparison_id}"
    )
    failures = page.get_by_role("region", name="Failure analysis")
    row = failures.get_by_role("row", name=re.compile(r"^q-016 "))
    debug = row.get_by_role("button", name="Debug")
    await debug.click()

    dialog = page.get_by_role("dialog", name="Case q-016")
    await dialog.wait_for()
    await expect(dialog).to_contain_text("What is 016 + 016?")  # the input
    await expect(dialog).to_contain_text("32")  # expected
    for name in ("v4 (candidate)", "v3", "v2"):
        cohort = dialog.get_by_role("region", name=name, exact=True)
        await expect(cohort).to_contain_text("Trial 1")
        await expect(cohort).to_contain_text("Contains")
        await expect(cohort).to_contain_text(" ms · ")
    candidate = dialog.get_by_role("region", name="v4 (candidate)")
    await expect(candidate).to_contain_text("Failed")
    await expect(candidate).to_contain_text(WRONG)
    await expect(dialog.get_by_role("region", name="v3", exact=True)).to_contain_text("Passed")

    switch = dialog.get_by_role("switch", name="Diff")
    await expect(switch).to_have_attribute("aria-checked", "false")
    assert await dialog.get_by_role("mark").count() == 0
    await switch.click()
    await expect(switch).to_have_attribute("aria-checked", "true")
    for baseline in ("v3", "v2"):  # every baseline, not only the first
        region = dialog.get_by_role("region", name=baseline, exact=True)
        await expect(region.get_by_role("mark")).to_have_text(["32"])  # not in the candidate's
    assert await candidate.get_by_role("mark").count() == 0  # the reference itself
    assert await axe_violations(page) == []
    await screenshot(page, "case-debug")

    await page.keyboard.press("Escape")
    await expect(dialog).to_have_count(0)
    await expect(debug).to_be_focused()

    await debug.click()
    await dialog.get_by_role("button", name="Close").click()
    await expect(dialog).to_have_count(0)
    await expect(debug).to_be_focused()
    assert page.console_errors == []
    assert requests.outside() == []


async def test_untrusted_outputs_and_inputs_show_as_text_and_never_run(
    sqlite_backend: Backend,
    portal_page: Any,
) -> None:
    page = portal_page
    ws = await make_workspace(sqlite_backend.sessionmaker)
    cases = [
        {"datasetItemId": f"x-{i}", "input": {"question": f"{SCRIPT} {i}?"}, "expected": "Paris"}
        for i in range(3)
    ]
    script = {
        c["datasetItemId"]: {
            "models": {
                "model-0": {"trials": [f"{IMG} Paris", f"{IMG} Paris"]},
                "model-1": {"trials": [f"{SCRIPT} Paris", f"Paris {IMG}"]},
            }
        }
        for c in cases
    }
    setup = await make_comparison_setup(
        sqlite_backend.sessionmaker, ws, case_list=cases, simulation=Simulation(script=script)
    )
    member = ws.tokens[Role.MEMBER]
    comparison_id = await run_comparison(
        sqlite_backend,
        member,
        setup.input(
            trialsPerCase=2,
            label=f"{IMG} label",
            cohorts=setup.labelled_cohorts(SCRIPT, "baseline"),
        ),
    )
    assert (await wait_finalized(sqlite_backend, member, comparison_id))["verdictState"] == (
        "FINALIZED"
    )
    await sign_in(
        page, sqlite_backend.base_url, ws.tokens[Role.VIEWER], f"/comparisons/{comparison_id}"
    )
    await page.get_by_role("heading", name=f"{IMG} label").wait_for()
    failures = page.get_by_role("region", name="Failure analysis")
    await failures.get_by_role("tab", name=re.compile(r"^All \(\d+\)$")).click()
    # The Cases table shows every trial's output, as text, the baseline's words marked.
    row = failures.get_by_role("table", name="Cases").get_by_role("row", name=re.compile(r"^x-1 "))
    await expect(row).to_contain_text(f"{IMG} Paris")
    await expect(row).to_contain_text(f"Paris {IMG}")
    await expect(row.get_by_role("mark").first).to_be_visible()
    assert await row.get_by_role("img").count() == 0
    await (
        failures.get_by_role("row", name=re.compile(r"^x-1 "))
        .get_by_role("button", name="Debug")
        .click()
    )
    dialog = page.get_by_role("dialog", name="Case x-1")
    await dialog.get_by_role("switch", name="Diff").click()
    baseline = dialog.get_by_role("region", name="baseline", exact=True)
    await expect(dialog).to_contain_text(f"{SCRIPT} 1?")  # the input, literally
    await expect(dialog).to_contain_text(f"{IMG} Paris")  # the candidate's output
    await expect(dialog.get_by_role("region", name=f"{SCRIPT} (candidate)")).to_be_visible()
    await expect(baseline).to_contain_text(f"{SCRIPT} Paris")  # the baseline's, marked
    await expect(baseline.get_by_role("mark").first).to_be_visible()
    assert await dialog.get_by_role("img").count() == 0
    assert await page.evaluate("typeof window.__xss") == "undefined"
    assert page.console_errors == []
