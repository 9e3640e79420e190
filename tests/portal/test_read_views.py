"""The read views: datasets (versions, cases paged), releases and the audit log with its
filters (docs/portal.md)."""

from __future__ import annotations

import re
from typing import Any

from playwright.async_api import expect

from bench.kit.factories import make_dataset, make_release, make_workspace
from bench.kit.harness import Backend
from server.workspaces.roles import Role
from tests.portal.harness import (
    Requests,
    axe_violations,
    screenshot,
    sign_in,
)

CREATE_EXPERIMENT = "mutation($n: String!) { createExperiment(input: {name: $n}) { id } }"


async def test_datasets_list_and_a_dataset_with_its_cases_paged(
    sqlite_backend: Backend,
    portal_page: Any,
) -> None:
    page = portal_page
    ws = await make_workspace(sqlite_backend.sessionmaker)
    await make_dataset(sqlite_backend.sessionmaker, ws, cases=125, holdout=5, name="arithmetic")
    requests = Requests(page, sqlite_backend.base_url)
    await sign_in(page, sqlite_backend.base_url, ws.tokens[Role.VIEWER], "/datasets")
    await page.get_by_role("heading", name="Datasets", exact=True).wait_for()
    datasets = page.get_by_role("table", name="Datasets")
    row = datasets.get_by_role("row", name=re.compile(r"^arithmetic Version 1 130 "))
    await row.wait_for()
    assert await axe_violations(page) == []
    await row.get_by_role("link", name="arithmetic").click()

    await page.get_by_role("heading", name="arithmetic").wait_for()
    versions = page.get_by_role("table", name="Versions")
    await versions.get_by_role(
        "row", name=re.compile(r"^Version 1 Sealed 130 125 dev, 5 holdout")
    ).wait_for()
    await expect(page.get_by_role("combobox", name="Version")).to_have_value(re.compile(".+"))
    cases = page.get_by_role("table", name="Cases")
    await expect(cases.get_by_role("row")).to_have_count(51)
    await cases.get_by_role("row", name=re.compile(r"^case-0000 Dev")).wait_for()
    await page.get_by_role("button", name="Load more").click()
    await expect(cases.get_by_role("row")).to_have_count(101)
    # Past 100 rows the oldest page goes: never more than 100 rows at once.
    await page.get_by_role("button", name="Load more").click()
    await cases.get_by_role("row", name=re.compile(r"^case-0129 Holdout")).wait_for()
    await expect(cases.get_by_role("row")).to_have_count(81)
    await expect(cases.get_by_role("row", name=re.compile(r"^case-0049 "))).to_have_count(0)
    await expect(page.get_by_role("button", name="Load more")).to_have_count(0)
    await page.get_by_role("button", name="Back to the start").click()
    await cases.get_by_role("row", name=re.compile(r"^case-0000 Dev")).wait_for()
    await expect(cases.get_by_role("row")).to_have_count(51)
    assert await axe_violations(page) == []
    await screenshot(page, "datasets")
    assert page.console_errors == []
    assert requests.outside() == []


async def test_releases_show_their_bindings(
    sqlite_backend: Backend,
    portal_page: Any,
) -> None:
    page = portal_page
    ws = await make_workspace(sqlite_backend.sessionmaker)
    await make_release(sqlite_backend.sessionmaker, ws, name="capitals-v4")
    requests = Requests(page, sqlite_backend.base_url)
    await sign_in(page, sqlite_backend.base_url, ws.tokens[Role.VIEWER], "/releases")
    await page.get_by_role("heading", name="Releases", exact=True).wait_for()
    releases = page.get_by_role("table", name="Releases")
    row = releases.get_by_role(
        "row", name=re.compile(r"^capitals-v4 Prompt template → .+ v1 Model config → .+ v1")
    )
    await row.wait_for()
    assert await axe_violations(page) == []
    await screenshot(page, "releases")
    assert page.console_errors == []
    assert requests.outside() == []


async def test_the_audit_log_with_its_filters(
    sqlite_backend: Backend,
    portal_page: Any,
) -> None:
    page = portal_page
    ws = await make_workspace(sqlite_backend.sessionmaker)
    for name, role in (("nightly", Role.MEMBER), ("weekly", Role.OWNER)):
        made = await sqlite_backend.gql(CREATE_EXPERIMENT, {"n": name}, token=ws.tokens[role])
        made.ok()
    await make_release(sqlite_backend.sessionmaker, ws, name="capitals-v4")
    requests = Requests(page, sqlite_backend.base_url)
    await sign_in(page, sqlite_backend.base_url, ws.tokens[Role.VIEWER], "/audit")
    await page.get_by_role("heading", name="Audit log", exact=True).wait_for()
    log = page.get_by_role("table", name="Audit log")
    # A table of time, actor, action and target in words; the details on demand, not JSON.
    heads = await log.get_by_role("columnheader").all_inner_texts()
    assert heads == ["Time", "Actor", "Action", "Target", "Details"]
    nightly = log.get_by_role(
        "row",
        name=re.compile(
            r"^(just now|\d+ min ago) member \(Member\) Experiment: create Experiment nightly"
        ),
    )
    await nightly.wait_for()
    weekly = log.get_by_role("row", name=re.compile(r"Experiment: create Experiment weekly"))
    assert "{" not in await log.inner_text()  # no raw JSON until asked for
    details = weekly.get_by_role("group").filter(has_text="Details")
    await weekly.get_by_text("Details", exact=True).click()
    await expect(details.get_by_role("definition").first).to_be_visible()
    await expect(details.get_by_role("term").filter(has_text="Name")).to_have_count(1)
    await expect(details.get_by_role("definition").filter(has_text="weekly")).to_have_count(1)
    assert await axe_violations(page) == []
    await screenshot(page, "audit")

    await page.get_by_role("textbox", name="Action").fill("experiment.create")
    await page.get_by_role("button", name="Filter").click()
    await expect(log.get_by_role("row")).to_have_count(3)
    await page.get_by_role("combobox", name="Actor").select_option(label="owner")
    await page.get_by_role("button", name="Filter").click()
    await expect(log.get_by_role("row")).to_have_count(2)
    await log.get_by_role(
        "row",
        name=re.compile(
            r"^(just now|\d+ min ago) owner \(Owner\) Experiment: create Experiment weekly"
        ),
    ).wait_for()
    await page.get_by_role("textbox", name="Action").fill("no.such_action")
    await page.get_by_role("button", name="Filter").click()
    await log.get_by_role("row", name="No events match.").wait_for()
    assert page.console_errors == []
    assert requests.outside() == []
