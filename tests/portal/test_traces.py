"""The portal's traces: `/traces` (filters, the columns, the live count) and `/traces/:id`
(the `list` "Steps" as a waterfall, each step's messages and tool calls), model text shown as
text, axe clean, and both at 390 px without sideways scroll."""

from __future__ import annotations

import re
from typing import Any

from playwright.async_api import expect

from bench.kit.factories import make_workspace
from bench.kit.harness import Backend
from server.workspaces.roles import Role
from tests.portal.harness import axe_violations, sign_in
from tests.server.traces.otlp_bodies import agent_trace, new_trace_id, post_spans

UNTRUSTED = '<img src=x onerror="window.pwned=1">Order 7 ships today.'
WIDTH = "() => [document.documentElement.scrollWidth, window.innerWidth]"


async def test_the_traces_list_and_a_traces_steps(
    sqlite_backend: Backend, portal_page: Any
) -> None:
    page = portal_page
    ws = await make_workspace(sqlite_backend.sessionmaker)
    token = ws.tokens[Role.MEMBER]
    first, second = new_trace_id(), new_trace_id()
    await post_spans(
        sqlite_backend,
        agent_trace(first, "Where is order 7?", UNTRUSTED),
        token=token,
        service="support",
        **{"service.version": "v2"},
    )
    await sign_in(page, sqlite_backend.base_url, ws.tokens[Role.VIEWER], "/traces")
    await page.get_by_role("heading", name="Traces", exact=True).wait_for()
    table = page.get_by_role("table", name="Traces")
    row = table.get_by_role("row", name=re.compile(r"support v2 Where is order 7\?"))
    await row.wait_for()
    await expect(row).to_contain_text("<img src=x")  # the model's text, as text
    await expect(row.get_by_role("cell").nth(5)).to_have_text("4")  # steps
    await expect(row.get_by_role("cell").nth(6)).to_have_text("75")  # tokens
    status = page.get_by_role("status", name="Trace count")
    await expect(status).to_have_text("1 traces")
    assert await axe_violations(page) == []

    # A trace arriving later shows in the count without a reload.
    await post_spans(
        sqlite_backend,
        agent_trace(second, "Refund order 9", "Done."),
        token=token,
        service="billing",
    )
    await expect(status).to_have_text("2 traces", timeout=15_000)

    await page.get_by_role("searchbox", name="Search").fill("refund")
    await page.get_by_role("button", name="Filter").click()
    await expect(table.get_by_role("row")).to_have_count(2)
    await table.get_by_role("row", name=re.compile(r"billing")).wait_for()
    await page.get_by_role("searchbox", name="Search").fill("")
    await page.get_by_role("button", name="Filter").click()
    await expect(table.get_by_role("row")).to_have_count(3)

    await row.get_by_role("link").click()
    await page.get_by_role("heading", name="invoke_agent support").wait_for()
    steps = page.get_by_role("list", name="Steps")
    await expect(steps.locator(":scope > li")).to_have_count(4)
    await expect(steps.locator(":scope > li").nth(2)).to_contain_text("TOOL")
    await steps.get_by_text("Tool lookup_order", exact=True).click()
    await expect(steps).to_contain_text('"status": "shipped"')
    await steps.get_by_text("Output messages").first.click()
    await expect(steps).to_contain_text("Tool call lookup_order")
    await expect(page.get_by_text(UNTRUSTED).first).to_be_visible()
    assert await page.evaluate("window.pwned === undefined")
    assert await axe_violations(page) == []

    await page.set_viewport_size({"width": 390, "height": 844})
    for path in ("/traces", f"/traces/{first}"):
        await page.goto(f"{sqlite_backend.base_url}{path}")
        await page.get_by_role("heading", level=1).first.wait_for()
        await page.wait_for_load_state("networkidle")
        scroll_width, inner_width = await page.evaluate(WIDTH)
        assert scroll_width <= inner_width, (path, scroll_width)
    assert page.console_errors == []
