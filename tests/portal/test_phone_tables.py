"""Tables on a phone (390 px, issue 51 point 6): the comparisons list, a comparison's Cases,
the settings tables, the list pages and the audit log are stacked rows (label: value); every
other table scrolls inside its own region with its first column kept; no table breaks a word
inside itself ("Che ck", one letter per line) and no page scrolls sideways."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.async_api import expect

from bench.kit.harness import Backend
from server.workspaces.roles import Role
from tests.fakes.webhook_receiver import WebhookReceiver
from tests.portal.harness import screenshot, sign_in
from tests.portal.widths import PHONE, first_columns_lost, page_width, stacked, words_broken
from tests.server.reports.api import RESOLVE_MANY, finalized_comparison
from tests.server.runs.api import experiment, import_run, item

CREATE_WEBHOOK = """
mutation ($url: String!) {
  createWebhook(url: $url, secret: "phone-secret-0123456789", events: [COMPARISON_FINISHED]) { id }
}"""
EXPERIMENT_OF = "query ($id: ID!) { comparison(id: $id) { experiment { id } } }"


async def _measured(page: Any, path: str) -> None:
    """The page at `path` fits the screen and its tables keep their words whole and their
    first column in view."""
    await page.get_by_role("heading", level=1).first.wait_for()
    await page.wait_for_load_state("networkidle")
    scroll_width, inner_width = await page_width(page)
    assert scroll_width <= inner_width, f"{path} is {scroll_width} px wide on {inner_width} px"
    assert await words_broken(page) == [], path
    assert await first_columns_lost(page) == [], path


@pytest.fixture
def receiver() -> Iterator[WebhookReceiver]:
    with WebhookReceiver(secret="phone-secret-0123456789") as found:
        yield found


async def test_every_table_stacks_or_scrolls_and_keeps_its_words_whole(
    sqlite_backend: Backend,
    portal_page: Any,
    receiver: WebhookReceiver,
) -> None:
    page = portal_page
    await page.set_viewport_size(PHONE)
    done = await finalized_comparison(sqlite_backend)
    report = await done.generate()
    follow_ups = await done.follow_ups(report["id"])
    await done.gql(RESOLVE_MANY, {"ids": [follow_ups[0]["id"]], "note": "Checked by hand."})
    (await done.gql(CREATE_WEBHOOK, {"url": receiver.url}, role=Role.OWNER)).ok()
    member = done.token(Role.MEMBER)
    exp = await experiment(sqlite_backend, member, "nightly evals")
    items = [item(n % 3 != 0, item_id=f"c-{n:02d}") for n in range(24)]
    await import_run(sqlite_backend, member, exp, items, key="run-1")
    await import_run(sqlite_backend, member, exp, items[::-1], key="run-2")
    hosted = (await done.gql(EXPERIMENT_OF, {"id": done.comparison_id})).ok()
    hosted_exp = hosted["comparison"]["experiment"]["id"]

    base = sqlite_backend.base_url
    await sign_in(page, base, done.token(Role.OWNER))
    comparisons = page.get_by_role("table", name="Comparisons")
    await comparisons.get_by_role("link", name="capitals").wait_for()
    await _measured(page, "/comparisons")
    await stacked(comparisons)
    await screenshot(page, "phone-comparisons")

    await page.goto(f"{base}/comparisons/{done.comparison_id}")
    cases = page.get_by_role("table", name="Cases")
    await cases.get_by_role("button", name="Debug").first.wait_for()
    await _measured(page, "the comparison page")
    await stacked(cases)

    await page.goto(f"{base}/settings")
    for name in ("Model connections", "Members", "API tokens", "Webhooks"):
        table = page.get_by_role("table", name=name)
        await expect(table.get_by_role("row")).not_to_have_count(1)
    await page.get_by_role("table", name="Webhooks").get_by_text("Comparison finished").wait_for()
    await _measured(page, "/settings")
    for name in ("Model connections", "Members", "API tokens", "Webhooks"):
        await stacked(page.get_by_role("table", name=name))
    await screenshot(page, "phone-settings")

    for path, name in (
        ("/audit", "Audit log"),
        ("/datasets", "Datasets"),
        ("/releases", "Releases"),
        ("/experiments", "Experiments"),
    ):
        await page.goto(f"{base}{path}")
        table = page.get_by_role("table", name=name)
        await table.locator("tbody td[data-label]").first.wait_for()
        await _measured(page, path)
        await stacked(table)
        if name == "Audit log":  # the details, on demand, keep their words whole too
            await table.locator("summary", has_text="Details").first.click()
            await table.get_by_role("term").first.wait_for()
            await _measured(page, "/audit with details open")

    for path in (
        f"/experiments/{exp}",
        f"/experiments/{hosted_exp}",
        f"/datasets/{done.setup.dataset_id}",
        "/prompts",
    ):
        await page.goto(f"{base}{path}")
        await page.get_by_role("table").first.locator("tbody tr").first.wait_for()
        await _measured(page, path)
    assert page.console_errors == []
