"""The report page in a real headless Chromium: self-contained, readable, printable."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from bench.kit.harness import Backend
from server import signed_links
from server.reports import links
from server.workspaces.roles import Role
from tests.portal.widths import PHONE, page_width, words_broken
from tests.server.reports.api import LINK_DEFAULT, RESOLVE_MANY, finalized_comparison


async def _signed_report(backend: Backend) -> tuple[Any, dict[str, Any]]:
    f = await finalized_comparison(backend)
    report = await f.generate()
    ids = [i["id"] for i in await f.follow_ups(report["id"], b=2)]
    (await f.gql(RESOLVE_MANY, {"ids": ids, "note": "label noise <b>not html</b>"})).ok()
    (await f.sign_off(report["id"], "HOLD")).ok()
    return f, report


async def test_the_page_by_link_renders_everything_offline_and_prints(
    sqlite_backend: Backend,
    browser_page: Any,
    tmp_path: Path,
) -> None:
    backend = sqlite_backend
    f, report = await _signed_report(backend)
    link = (await f.gql(LINK_DEFAULT, {"id": report["id"]})).ok()["reportLink"]
    requested: list[str] = []
    browser_page.on("request", lambda request: requested.append(request.url))
    response = await browser_page.goto(link["url"])
    assert response is not None and response.status == 200
    page = browser_page
    assert page.console_errors == []
    assert {url.split("?")[0] for url in requested} == {link["url"].split("?")[0]}  # offline

    forest = page.locator("svg#forest")
    box = await forest.bounding_box()
    assert box is not None and box["width"] >= 300
    rows = page.locator("svg#forest [data-cohort]")
    assert await rows.count() == 3
    assert [await rows.nth(i).get_attribute("data-cohort") for i in range(3)] == ["0", "1", "2"]
    assert "candidate" in (await rows.nth(0).get_attribute("class") or "")
    assert "candidate" not in (await rows.nth(1).get_attribute("class") or "")

    chips = await page.locator(".chip").all_inner_texts()
    assert chips[0] == "Regressed vs v3: −33.3 points, outside the noise"
    assert chips[1].startswith("No verdict vs v2: −16.7 points, inside the noise")
    cohort_rows = page.locator("#cohort-table tbody tr")
    assert await cohort_rows.count() == 3
    first_row = await cohort_rows.nth(0).inner_text()
    assert "66.7%" in first_row and "Candidate" in first_row  # 16 of 24 pass
    assert await page.locator("#metric-table td[data-winner]").count() >= 6
    pass_rate = await page.locator('#metric-table tr[data-metric="pass_rate"]').inner_text()
    assert "★" in pass_rate
    # Metric names and enum values in words; money by the one rule (issue 34 g).
    metrics = await page.locator("#metric-table").inner_text()
    assert "Cost per case" in metrics and "Pass rate" in metrics
    assert "cost_per_case_cents" not in metrics and "pass_rate" not in metrics
    cost = await page.locator('#metric-table tr[data-metric="cost_per_case_cents"]').inner_text()
    assert ("$" in cost or " ¢" in cost) and "$0.00\t" not in cost + "\t"
    caption = await page.locator("#forest-plot figcaption").inner_text()
    assert "interval" in caption and not re.search(r"[A-Z]{2,}_[A-Z0-9_]+", caption)

    read = page.get_by_role("link", name="Read the 8 cases that got worse")
    assert await read.count() == 2
    assert await read.first.get_attribute("href") == "#worse-1"
    await read.first.click()
    assert await page.locator("#worse-1 tbody tr").count() == 8
    resolved = await page.locator("#worse-2 tbody tr").first.inner_text()
    assert "Resolved" in resolved and "label noise <b>not html</b>" in resolved  # escaped
    assert await page.locator("#worse-2 b").count() == 0

    current = await page.locator("section.current").inner_text()
    assert "CURRENT" in current.upper() and "Signed off: Hold" in current
    assert "Follow-ups now: 8 open, 8 resolved" in current
    facts = await page.locator("#facts").inner_text()
    assert facts.startswith("Dataset ") and "Dev split · 24 cases" in facts
    assert facts.endswith("Hosted run: the prompt alone, one model call per case and trial.")

    shot = tmp_path / "report.png"
    await page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 10_000

    await page.emulate_media(media="print")
    assert not await page.locator("nav.toc").is_visible()
    pdf = await page.pdf(format="A4", print_background=True)
    (tmp_path / "report.pdf").write_bytes(pdf)
    assert pdf.startswith(b"%PDF")
    assert pdf.count(b"/Type /Page") - pdf.count(b"/Type /Pages") >= 1


async def test_the_page_with_a_bearer_token_and_refusals_as_pages(
    sqlite_backend: Backend,
    browser_page: Any,
) -> None:
    f, report = await _signed_report(sqlite_backend)
    url = sqlite_backend.base_url + report["pagePath"]
    await browser_page.set_extra_http_headers({"Authorization": f"Bearer {f.token(Role.VIEWER)}"})
    response = await browser_page.goto(url)
    assert response is not None and response.status == 200
    assert await browser_page.locator("svg#forest [data-cohort]").count() == 3
    assert browser_page.console_errors == []
    await browser_page.set_extra_http_headers({})
    # A genuine link of another workspace, pointed at this report: not found, as an unknown id.
    foreign = signed_links.sign(
        secret=sqlite_backend.settings.resolved_secret_key(),
        kind=links.KIND,
        subject=report["id"],
        workspace_id="ws_x",
        expires_at=int(time.time()) + 3600,
    )
    refused = await browser_page.goto(f"{url}?{urlencode({'token': foreign})}")
    assert refused is not None and refused.status == 404
    assert await browser_page.locator("h1").inner_text() == "Not found"


async def test_the_page_fits_a_phone_without_breaking_a_word(
    sqlite_backend: Backend,
    browser_page: Any,
) -> None:
    """Issue 51 point 6: at 390 px the report page is no wider than the screen (it was 824 px):
    its tables scroll inside their own box, their words stay whole."""
    f, report = await _signed_report(sqlite_backend)
    link = (await f.gql(LINK_DEFAULT, {"id": report["id"]})).ok()["reportLink"]
    page = browser_page
    await page.set_viewport_size(PHONE)
    response = await page.goto(link["url"])
    assert response is not None and response.status == 200
    scroll_width, inner_width = await page_width(page)
    assert scroll_width <= inner_width, f"the report page is {scroll_width} px wide on 390 px"
    assert await words_broken(page) == []
    forest = await page.locator("svg#forest").bounding_box()
    assert forest is not None and forest["width"] <= inner_width
    assert page.console_errors == []
