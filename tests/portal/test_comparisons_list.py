"""The comparisons list (`/comparisons`): rows with their verdict chips and pass rates, the
Status filter, "Load more" within 100 rows, a running row followed live, the role rule."""

from __future__ import annotations

import re
from typing import Any

from playwright.async_api import expect

from bench.kit.factories import (
    WorkspaceFixture,
    make_comparison,
    make_comparison_setup,
    make_workspace,
)
from bench.kit.harness import Backend
from bench.kit.scenarios import CREATE
from server.connections.service import Simulation
from server.workspaces.roles import Role
from tests.portal.harness import (
    Requests,
    axe_violations,
    screenshot,
    serial_comparison_setup,
    sign_in,
)
from tests.server.reports.api import finalized_comparison

START = "mutation($id: ID!) { startComparison(id: $id, background: true) { id status } }"
STATE = "query($id: ID!) { comparison(id: $id) { status verdictState } }"


async def setup_comparisons(backend: Backend, ws: WorkspaceFixture, count: int) -> None:
    """`count` SETUP comparisons of two releases on a two-case dataset (nothing runs)."""
    setup = await make_comparison_setup(backend.sessionmaker, ws, cases=2)
    for n in range(count):
        await make_comparison(backend.sessionmaker, setup, trials=1, label=f"setup-{n:03d}")


async def labelled_setup_comparisons(backend: Backend, ws: WorkspaceFixture, count: int) -> None:
    """`count` SETUP comparisons made through GraphQL, their cohorts labelled "v2" and "v1"."""
    setup = await make_comparison_setup(backend.sessionmaker, ws, cases=2)
    cohorts = setup.labelled_cohorts("v2", "v1")
    for n in range(count):
        spec = setup.input(label=f"setup-{n:03d}", cohorts=cohorts, trialsPerCase=1)
        (await backend.gql(CREATE, {"input": spec}, token=ws.tokens[Role.MEMBER])).ok()


def table(page: Any) -> Any:
    return page.get_by_role("table", name="Comparisons")


def row_of(page: Any, label: str) -> Any:
    """The table row whose label links `label`."""
    return (
        table(page).get_by_role("row").filter(has=page.get_by_role("link", name=label, exact=True))
    )


async def expect_rows(page: Any, count: int) -> None:
    """`count` comparison rows besides the header row."""
    await expect(table(page).get_by_role("row")).to_have_count(count + 1)


async def test_the_list_shows_verdicts_filters_by_status_and_loads_more(
    sqlite_backend: Backend,
    portal_page: Any,
) -> None:
    page = portal_page
    ws = await make_workspace(sqlite_backend.sessionmaker)
    await labelled_setup_comparisons(sqlite_backend, ws, 25)
    done = await finalized_comparison(sqlite_backend, ws=ws)  # the newest: the first row
    requests = Requests(page, sqlite_backend.base_url)
    await sign_in(page, sqlite_backend.base_url, ws.tokens[Role.MEMBER])

    row = row_of(page, "capitals")
    await row.wait_for()
    cells = [text.strip() for text in await row.get_by_role("cell").all_inner_texts()]
    assert cells[1:4] == ["v4", "v3, v2", "Done"], cells
    verdicts = done.comparison["scorecard"]["verdicts"]
    assert "REGRESSED" in [v["outcome"] for v in verdicts]
    tints = {"REGRESSED": "chip bad", "IMPROVED": "chip good"}
    for verdict in verdicts:
        chip = row.get_by_text(verdict["summary"], exact=True)
        await expect(chip).to_have_attribute("class", tints.get(verdict["outcome"], "chip"))
    assert cells[4] == "Don't ship"  # regressed vs v3, outside the noise
    assert "v4: 66.7%" in cells[6] and "v3: 100.0%" in cells[6] and "v2: 83.3%" in cells[6]
    assert (cells[7].startswith("$") or cells[7].endswith(" ¢")) and cells[8] == "just now"
    await expect(row.get_by_role("link", name="capitals")).to_have_attribute(
        "href", f"/comparisons/{done.comparison_id}"
    )
    created = row.get_by_role("cell").nth(8).locator("time")
    await expect(created).to_have_attribute("title", re.compile(r"^\d{4}-\d\d-\d\d .* UTC$"))

    await expect_rows(page, 20)
    await page.get_by_text("Showing 1–20 of 26.").wait_for()
    assert await axe_violations(page) == []
    await screenshot(page, "comparisons")
    await page.get_by_role("button", name="Load more").click()
    await expect_rows(page, 26)
    await expect(page.get_by_role("button", name="Load more")).to_have_count(0)
    await row_of(page, "setup-000").wait_for()  # the oldest, last

    status = page.get_by_role("combobox", name="Status")
    options = [o.strip() for o in await status.locator("option").all_inner_texts()]
    assert options == ["All", "Setup", "Running", "Done", "Failed", "Cancelled"]
    await status.select_option(label="Done")
    await expect_rows(page, 1)
    await row.wait_for()
    await status.select_option(label="Setup")
    await expect_rows(page, 20)
    await expect(row).to_have_count(0)
    await status.select_option(label="Cancelled")
    await page.get_by_text("No comparisons with the status Cancelled.").wait_for()
    await status.select_option(label="All")
    await expect_rows(page, 20)
    assert page.console_errors == []
    assert requests.outside() == []


async def test_the_list_never_shows_more_than_100_rows(
    sqlite_backend: Backend,
    portal_page: Any,
) -> None:
    page = portal_page
    ws = await make_workspace(sqlite_backend.sessionmaker)
    await setup_comparisons(sqlite_backend, ws, 105)
    await sign_in(page, sqlite_backend.base_url, ws.tokens[Role.VIEWER])
    more = page.get_by_role("button", name="Load more")
    for shown in (20, 40, 60, 80):
        await expect_rows(page, shown)
        await more.click()
    await expect_rows(page, 100)
    await page.get_by_text(
        re.compile(r"Showing 1–100 of 105\. The list shows 100 at a time")
    ).wait_for()
    await more.click()  # the next page in place of the first 100
    await expect_rows(page, 5)
    await page.get_by_text("Showing 101–105 of 105.").wait_for()
    await row_of(page, "setup-000").wait_for()
    await expect(more).to_have_count(0)
    await page.get_by_role("button", name="Back to the newest").click()
    await expect_rows(page, 20)
    await row_of(page, "setup-104").wait_for()
    assert page.console_errors == []


async def test_a_running_row_follows_its_progress_to_the_end(
    sqlite_backend: Backend,
    portal_page: Any,
) -> None:
    page = portal_page
    # 20 cases x 1 trial x 2 cohorts = 40 calls, one at a time at 100 ms: about 4 s.
    setup = await serial_comparison_setup(sqlite_backend, simulation=Simulation(latency_ms=100))
    ws = setup.workspace
    comparison_id = await make_comparison(
        sqlite_backend.sessionmaker, setup, trials=1, label="live one"
    )
    member = ws.tokens[Role.MEMBER]
    requests = Requests(page, sqlite_backend.base_url)
    await sign_in(page, sqlite_backend.base_url, ws.tokens[Role.VIEWER])
    await expect(row_of(page, "live one").get_by_role("cell").nth(3)).to_have_text("Setup")
    (await sqlite_backend.gql(START, {"id": comparison_id}, token=member)).ok()
    await page.reload()  # signed in already: the list reads it RUNNING

    status = row_of(page, "live one").get_by_role("cell").nth(3)
    calls = re.compile(r"^Running · (\d+) of 40 calls$")
    await expect(status).to_have_text(calls)
    first = int(calls.match((await status.inner_text()).strip()).group(1))  # type: ignore[union-attr]
    moved = re.compile(rf"^Running · (?!{first} of)\d+ of 40 calls$")
    await expect(status).to_have_text(moved)  # a later snapshot, live
    await expect(status).to_have_text("Done", timeout=30_000)
    state = (await sqlite_backend.gql(STATE, {"id": comparison_id}, token=member)).ok()
    assert state["comparison"]["status"] == "DONE"
    verdict = row_of(page, "live one").get_by_role("cell").nth(5)
    await expect(verdict).not_to_have_text("—", timeout=30_000)  # the refreshed row
    assert page.console_errors == []
    assert requests.outside() == []


async def test_new_comparison_needs_the_member_role(
    sqlite_backend: Backend,
    portal_page: Any,
) -> None:
    page = portal_page
    ws = await make_workspace(sqlite_backend.sessionmaker)
    await sign_in(page, sqlite_backend.base_url, ws.tokens[Role.VIEWER])
    await page.get_by_text(re.compile(r"^No comparisons yet\. ")).wait_for()
    button = page.get_by_role("button", name="New comparison")
    await expect(button).to_be_disabled()
    await expect(button).to_have_accessible_description("Needs the Member role")
    assert await axe_violations(page) == []

    await page.get_by_role("button", name="Sign out").click()
    await sign_in(page, sqlite_backend.base_url, ws.tokens[Role.MEMBER])
    button = page.get_by_role("button", name="New comparison")
    await expect(button).to_be_enabled()
    await button.click()
    await page.get_by_role("heading", name="New comparison").wait_for()
    assert page.url.endswith("/comparisons/new")
    assert page.console_errors == []
