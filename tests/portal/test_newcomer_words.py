"""The smaller dead ends of issue 51 point 12, in Chromium by role and name: the header names
the member, a simulated connection never claims a provider answered, trials out of range say
"1 to 10", follow-ups read in case order with "Select all", a built-in prompt is as old as the
database that holds it, and a comparison's header names its dataset by its name."""

from __future__ import annotations

import re
from typing import Any

from playwright.async_api import expect

from bench.kit.factories import make_comparison_setup, make_workspace
from bench.kit.harness import Backend
from server.workspaces.roles import Role
from tests.portal.harness import sign_in
from tests.server.reports.api import finalized_comparison

ADD_MEMBER = """
mutation { addMember(name: "Dana Reyes", role: ADMIN, email: null) { id } }"""
CREATE_TOKEN = """
mutation ($memberId: ID) { createToken(name: "laptop", memberId: $memberId) { secret } }"""
DATASET_NAME = "query ($id: ID!) { dataset(id: $id) { name } }"


async def test_header_connection_trials_and_built_in_age_in_words(
    sqlite_backend: Backend,
    portal_page: Any,
) -> None:
    page = portal_page
    base = sqlite_backend.base_url
    ws = await make_workspace(sqlite_backend.sessionmaker)
    await make_comparison_setup(sqlite_backend.sessionmaker, ws, cases=4)  # SIMULATED
    dana = (await sqlite_backend.gql(ADD_MEMBER, token=ws.owner)).ok()["addMember"]["id"]
    made = await sqlite_backend.gql(CREATE_TOKEN, {"memberId": dana}, token=ws.owner)
    secret = made.ok()["createToken"]["secret"]

    # The owner of `shipwise workspace create` is named "owner": said once, not "owner · Owner".
    await sign_in(page, base, ws.owner, "/settings")
    header = page.get_by_role("banner")
    await expect(header).to_contain_text("acme · Owner")
    assert "owner · Owner" not in await header.inner_text()

    connections = page.get_by_role("table", name="Model connections")
    await connections.get_by_role("button", name="Check").first.click()
    await expect(connections).to_contain_text("a simulated connection answers without a provider")
    assert "the provider answered" not in await connections.inner_text()

    await page.goto(f"{base}/prompts")
    templates = page.get_by_role("table", name="Prompt templates")
    built_in = templates.get_by_role("row").filter(has_text="built-in").first
    await built_in.wait_for()
    latest = await built_in.get_by_role("cell").nth(2).inner_text()
    # The test database was made by this session's migrations minutes ago: never "7 days ago".
    assert re.fullmatch(r"just now|\d+ min ago|\d+ h ago", latest), latest

    await page.goto(f"{base}/comparisons/new")
    trials = page.get_by_role("spinbutton", name="Trials per case")
    await trials.fill("-3")
    await expect(trials).to_have_accessible_description("Trials per case must be from 1 to 10.")

    # A member with a name reads by it, with the role beside it.
    await page.get_by_role("button", name="Sign out").click()
    await sign_in(page, base, secret)
    await expect(page.get_by_role("banner")).to_contain_text("acme · Dana Reyes (Admin)")
    assert page.console_errors == []


async def test_follow_ups_in_case_order_with_select_all_and_the_dataset_by_name(
    sqlite_backend: Backend,
    portal_page: Any,
) -> None:
    page = portal_page
    done = await finalized_comparison(sqlite_backend)
    report = await done.generate()
    opened = await done.follow_ups(report["id"])
    dataset = (await done.gql(DATASET_NAME, {"id": done.setup.dataset_id})).ok()["dataset"]
    await sign_in(
        page, sqlite_backend.base_url, done.token(Role.MEMBER), f"/comparisons/{done.comparison_id}"
    )
    await expect(page.get_by_text(re.compile(r"^Dataset: "))).to_have_text(
        f"Dataset: {dataset['name']} version 1"
    )

    region = page.get_by_role("region", name="Reports")
    table = region.get_by_role("table", name="Follow-ups")
    await expect(table.get_by_role("row")).to_have_count(len(opened) + 1)
    rows = await table.locator("tbody tr").evaluate_all(
        "(rows) => rows.map((r) => [r.cells[2].innerText, r.cells[1].innerText])"
    )
    # By baseline in cohort order, then by case within it: q-000 before q-001 ….
    by_baseline: dict[str, list[str]] = {}
    for baseline, case in rows:
        by_baseline.setdefault(baseline, []).append(case)
    assert list(by_baseline) == sorted(by_baseline, key=lambda b: ["v3", "v2"].index(b))
    for cases in by_baseline.values():
        assert cases == sorted(cases), cases

    await region.get_by_role("button", name="Select all").click()
    await expect(region.get_by_text(f"{len(opened)} selected")).to_be_visible()
    await expect(table.get_by_role("checkbox", checked=True)).to_have_count(len(opened))
    await region.get_by_role("button", name="Resolve selected").click()
    dialog = page.get_by_role("dialog", name="Resolve follow-ups")
    await dialog.get_by_role("textbox", name="Note").fill("All checked by hand.")
    await dialog.get_by_role("button", name="Resolve").click()
    await expect(dialog).to_be_hidden()
    await expect(table.get_by_role("checkbox")).to_have_count(0)  # none open now
    assert page.console_errors == []
