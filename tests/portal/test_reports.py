"""The comparison page's `region` "Reports": generate, versions, the signed report page link,
follow-ups resolved from the table, and sign-off with its rules (docs/portal.md)."""

from __future__ import annotations

import asyncio
import re
from typing import Any

from playwright.async_api import Route, expect

from bench.kit.harness import Backend
from bench.kit.scenarios import (
    run_comparison,
    scorecard_of,
    wait_finalized,
)
from server.workspaces.roles import Role
from tests.portal.harness import (
    Requests,
    axe_violations,
    screenshot,
    sign_in,
)
from tests.server.reports.api import (
    BASELINE_1,
    CANDIDATE,
    LABELS,
    Finalized,
    finalized_comparison,
)

XSS_NOTE = '<img src=x onerror="window.__xss=1"> <script>window.__xss=1</script>'
REPORT_IDS = "query($id: ID!) { comparison(id: $id) { reports { id } } }"
VERDICT = "query($id: ID!) { comparison(id: $id) { verdict } }"
OUTCOME = "query($id: ID!) { comparison(id: $id) { decision { outcome } } }"
OPEN_FOLLOW_UPS = """
query($id: ID!) { report(id: $id) { followUps(first: 100, state: OPEN) { edges { node {
  id datasetItemId baselineCohortIndex } } } } }
"""


async def _open_reports(page: Any, f: Finalized, role: Role) -> Any:
    await sign_in(page, f.backend.base_url, f.token(role), f"/comparisons/{f.comparison_id}")
    region = page.get_by_role("region", name="Reports")
    await region.get_by_role("button", name="Generate report").wait_for()
    return region


async def _finalized_by_admin(backend: Backend) -> Finalized:
    """A finalized comparison that the workspace's ADMIN started (so cannot sign off)."""
    seed = await finalized_comparison(backend)
    admin = seed.token(Role.ADMIN)
    cohorts = [
        {"kind": "RELEASE", "releaseId": rid, "label": label}
        for rid, label in zip(seed.setup.release_ids, LABELS, strict=False)
    ]
    spec = seed.setup.input(trialsPerCase=1, label="capitals by admin", cohorts=cohorts)
    comparison_id = await run_comparison(backend, admin, spec)
    assert (await wait_finalized(backend, admin, comparison_id))["verdictState"] == "FINALIZED"
    comparison = await scorecard_of(backend, admin, comparison_id)
    return Finalized(backend, seed.ws, seed.setup, comparison_id, comparison)


async def test_generate_versions_resolve_follow_ups_and_open_the_report_page(
    sqlite_backend: Backend,
    portal_page: Any,
) -> None:
    page = portal_page
    f = await finalized_comparison(sqlite_backend)
    requests = Requests(page, sqlite_backend.base_url)
    region = await _open_reports(page, f, Role.MEMBER)
    await region.get_by_role("button", name="Generate report").click()
    versions = region.get_by_role("table", name="Report versions")
    await versions.get_by_role("row", name=re.compile(r"Version 1 latest .* Not signed")).wait_for()
    await region.get_by_role("button", name="Generate report").click()
    await versions.get_by_role("row", name=re.compile(r"Version 2 latest")).wait_for()
    await expect(versions.get_by_role("row")).to_have_count(3)  # the header and two versions

    reports = (await f.gql(REPORT_IDS, {"id": f.comparison_id})).ok()["comparison"]["reports"]
    edges = (await f.gql(OPEN_FOLLOW_UPS, {"id": reports[-1]["id"]})).ok()["report"]
    chosen = [e["node"] for e in edges["followUps"]["edges"]][:2]
    table = region.get_by_role("table", name="Follow-ups")
    names = [f"{c['datasetItemId']} vs {LABELS[c['baselineCohortIndex']]}" for c in chosen]
    for name in names:
        await table.get_by_role("checkbox", name=f"Select {name}").check()
    await region.get_by_role("button", name="Resolve selected").click()
    dialog = page.get_by_role("dialog", name="Resolve follow-ups")
    await dialog.get_by_role("textbox", name="Note").fill(XSS_NOTE)
    await dialog.get_by_role("button", name="Resolve").click()
    await dialog.wait_for(state="hidden")
    for chosen_case, name in zip(chosen, names, strict=True):
        case, baseline = chosen_case["datasetItemId"], LABELS[chosen_case["baselineCohortIndex"]]
        row = table.get_by_role("row", name=re.compile(rf"{case} {baseline} Resolved"))
        await row.wait_for()
        await expect(row).to_contain_text(XSS_NOTE)
        await expect(table.get_by_role("checkbox", name=f"Select {name}")).to_have_count(0)
    assert await page.evaluate("typeof window.__xss") == "undefined"
    assert await axe_violations(page) == []
    await screenshot(page, "reports")

    link = region.get_by_role("link", name="Open report page")
    await link.wait_for()
    async with page.expect_navigation() as navigation:
        await link.click()
    response = await navigation.value
    assert response is not None and response.status == 200
    assert "/reports/" in page.url
    assert await page.evaluate("typeof window.__xss") == "undefined"
    assert page.console_errors == []
    assert requests.outside() == []


async def test_a_report_generated_while_the_first_read_is_on_its_way_still_shows(
    sqlite_backend: Backend,
    portal_page: Any,
) -> None:
    """The region's first read answers only after "Generate report" has: that read began
    before the write and shows no report, and the refetch the page asked for meanwhile must
    not be lost behind it (web/src/lib/query.ts)."""
    page = portal_page
    f = await finalized_comparison(sqlite_backend)
    first_read_may_answer, generate_may_answer = asyncio.Event(), asyncio.Event()
    reads = 0

    async def hold(route: Route) -> None:
        nonlocal reads
        body = route.request.post_data or ""
        if '"ReportsRegion"' in body:
            reads += 1
            if reads == 1:
                stale = await route.fetch()
                await first_read_may_answer.wait()
                await route.fulfill(response=stale)
                return
        if '"GenerateReport"' in body:
            written = await route.fetch()
            await generate_may_answer.wait()
            await route.fulfill(response=written)
            return
        await route.continue_()

    await page.route("**/graphql", hold)
    region = await _open_reports(page, f, Role.MEMBER)
    generate = region.get_by_role("button", name="Generate report")
    await generate.click()
    await expect(generate).to_be_disabled()
    generate_may_answer.set()
    await expect(generate).to_be_enabled()  # the mutation answered: the page asked to read again
    first_read_may_answer.set()
    versions = region.get_by_role("table", name="Report versions")
    await versions.get_by_role("row", name=re.compile(r"Version 1 latest .* Not signed")).wait_for()
    assert reads == 2


async def test_sign_off_says_why_it_is_refused_lists_open_items_then_overrides(
    sqlite_backend: Backend,
    portal_page: Any,
) -> None:
    page = portal_page
    f = await _finalized_by_admin(sqlite_backend)
    await f.generate(role=Role.ADMIN)
    requests = Requests(page, sqlite_backend.base_url)

    region = await _open_reports(page, f, Role.ADMIN)
    await region.get_by_role("button", name="Sign off").click()
    dialog = page.get_by_role("dialog", name="Sign off")
    await dialog.get_by_role("radio", name="Hold").check()
    await dialog.get_by_role("button", name="Sign off").click()
    await (
        dialog.get_by_role("alert")
        .filter(
            has_text="You started this comparison: another admin signs off, or allow self "
            "sign-off in the workspace settings"
        )
        .wait_for()
    )
    await dialog.get_by_role("button", name="Close").click()
    await page.get_by_role("button", name="Sign out").click()

    region = await _open_reports(page, f, Role.OWNER)
    await region.get_by_role("button", name="Sign off").click()
    dialog = page.get_by_role("dialog", name="Sign off")
    decision = dialog.get_by_role("radiogroup", name="Decision")
    for name in ("Approve", "Hold", "Request changes"):
        await decision.get_by_role("radio", name=name).wait_for()
    outcome = (await f.gql(OUTCOME, {"id": f.comparison_id})).ok()["comparison"]["decision"]
    first_choice = "Approve" if outcome["outcome"] == "SHIP" else "Hold"  # as decided
    await expect(decision.get_by_role("radio", name=first_choice)).to_be_checked()
    await decision.get_by_role("radio", name="Approve").check()
    await dialog.get_by_role("button", name="Sign off").click()
    open_items = dialog.get_by_role("list", name="Open follow-ups")
    await open_items.wait_for()
    await expect(open_items.get_by_role("listitem")).to_have_count(16)
    await expect(open_items).to_contain_text("q-016 vs v3")
    assert await axe_violations(page) == []
    await screenshot(page, "sign-off")

    await dialog.get_by_role("checkbox", name="Override open follow-ups").check()
    await dialog.get_by_role("textbox", name="Justification").fill(XSS_NOTE)
    await dialog.get_by_role("button", name="Sign off").click()
    await dialog.wait_for(state="hidden")
    signed = region.get_by_role("region", name="Sign-off")
    await expect(signed).to_contain_text(
        re.compile(r"Signed off: approved( over [^,]+)?, by owner")
    )
    await expect(signed).to_contain_text(f"Justification: {XSS_NOTE}")
    assert await page.evaluate("typeof window.__xss") == "undefined"
    versions = region.get_by_role("table", name="Report versions")
    await versions.get_by_role("row", name=re.compile(r"Version 1 latest .* Signed")).wait_for()
    await expect(region.get_by_role("button", name="Sign off")).to_be_disabled()
    verdict = (await f.gql(VERDICT, {"id": f.comparison_id})).ok()["comparison"]["verdict"]
    assert verdict == "PROMOTE"
    assert page.console_errors == []
    assert requests.outside() == []


async def test_controls_a_role_may_not_use_are_disabled_with_the_role_they_need(
    sqlite_backend: Backend,
    portal_page: Any,
) -> None:
    page = portal_page
    f = await finalized_comparison(sqlite_backend, [CANDIDATE, BASELINE_1])
    await f.generate()
    region = await _open_reports(page, f, Role.VIEWER)
    await region.get_by_role("table", name="Follow-ups").get_by_role("row").nth(1).wait_for()
    for name, needs in (
        ("Generate report", "Needs the Member role"),
        ("Resolve selected", "Needs the Member role"),
        ("Sign off", "Needs the Admin role"),
    ):
        button = region.get_by_role("button", name=name)
        await expect(button).to_be_disabled()
        await expect(button).to_have_accessible_description(needs)
    assert await axe_violations(page) == []
    await page.get_by_role("button", name="Sign out").click()

    region = await _open_reports(page, f, Role.MEMBER)
    await expect(region.get_by_role("button", name="Generate report")).to_be_enabled()
    sign_off = region.get_by_role("button", name="Sign off")
    await expect(sign_off).to_be_disabled()
    await expect(sign_off).to_have_accessible_description("Needs the Admin role")
    assert page.console_errors == []
