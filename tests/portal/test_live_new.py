"""`/live/new` (web/src/pages/live/NewLivePage.tsx): a canary started from the portal alone —
the service and releases offered from the stored traces, quality from a feedback score, the
policy from the workspace's default; what is wrong said at its field; a VIEWER cannot start
one; axe clean; at 390 px without sideways scroll."""

from __future__ import annotations

import re
from typing import Any

from playwright.async_api import expect

from bench.kit.factories import make_workspace
from bench.kit.harness import Backend
from server.workspaces.roles import Role
from tests.portal.harness import axe_violations, sign_in
from tests.server.live.canary import post_release, read

WIDTH = "() => [document.documentElement.scrollWidth, window.innerWidth]"


async def test_a_canary_started_from_the_portal_watches_the_traces_it_names(
    sqlite_backend: Backend, portal_page: Any
) -> None:
    page = portal_page
    backend = sqlite_backend
    ws = await make_workspace(backend.sessionmaker)
    await post_release(backend, ws, release="checkout-v1", passes=[True] * 2, service="checkout")
    await post_release(backend, ws, release="checkout-v2", passes=[True] * 2, service="checkout")
    await sign_in(page, backend.base_url, ws.tokens[Role.MEMBER], "/live")
    await expect(
        page.get_by_text("No live comparison yet: New live comparison starts one.")
    ).to_be_visible()
    await page.get_by_role("button", name="New live comparison").click()
    await page.get_by_role("heading", name="New live comparison").wait_for()
    await page.wait_for_load_state("networkidle")
    # The stored traces' services and releases are offered.
    service = page.get_by_role("combobox", name="Service")
    offered = await page.evaluate(
        "(id) => [...document.getElementById(id).options].map((o) => o.value)",
        await service.get_attribute("list"),
    )
    assert offered == ["checkout"], offered
    assert await axe_violations(page) == []

    # Asked with nothing filled in: each field says what it wants, nothing is made.
    await page.get_by_role("button", name="Start live comparison").click()
    await expect(page.get_by_text("Name the service whose traces it watches.")).to_be_visible()
    await expect(page.get_by_text("Name at least one release it replaces.")).to_be_visible()
    await service.fill("checkout")
    await page.get_by_role("combobox", name="Candidate release").fill("checkout-v2")
    baselines = page.get_by_role("combobox", name="Baseline releases")
    await baselines.fill("checkout-v2")
    await page.get_by_role("button", name="Start live comparison").click()
    await expect(page.get_by_text("A baseline must differ from the candidate.")).to_be_visible()
    await expect(baselines).to_have_attribute("aria-invalid", "true")
    await baselines.fill("checkout-v1")
    await page.get_by_role("radio", name="A feedback score on the trace").check()
    await page.get_by_role("textbox", name="Feedback name").fill("stars")
    await page.get_by_role("spinbutton", name="Passes at a score of at least").fill("4")
    await page.get_by_role("textbox", name="Label").fill("<b>checkout</b> canary")
    await page.get_by_role("button", name="Start live comparison").click()

    await page.get_by_role("heading", name="<b>checkout</b> canary").wait_for()
    live_id = page.url.rsplit("/", 1)[1]
    made = await read(backend, ws.tokens[Role.VIEWER], live_id)
    assert made["service"] == "checkout" and made["status"] == "RUNNING"
    assert (made["candidateRelease"], made["baselineReleases"]) == ("checkout-v2", ["checkout-v1"])
    checks = await backend.gql(
        "query($id: ID!) { liveComparison(id: $id) { checks shipPolicy { qualityMarginPoints } } }",
        {"id": live_id},
        token=ws.tokens[Role.VIEWER],
    )
    shown = checks.ok()["liveComparison"]
    assert shown["checks"] == [{"kind": "FEEDBACK", "name": "stars", "atLeast": 4.0}]
    assert shown["shipPolicy"]["qualityMarginPoints"] == 2.0  # the workspace's default
    assert page.console_errors == []

    await page.set_viewport_size({"width": 390, "height": 844})
    await page.goto(f"{backend.base_url}/live/new")
    await page.get_by_role("heading", name="New live comparison").wait_for()
    await page.wait_for_load_state("networkidle")
    scroll_width, inner_width = await page.evaluate(WIDTH)
    assert scroll_width <= inner_width, scroll_width


async def test_a_viewer_cannot_start_one(sqlite_backend: Backend, portal_page: Any) -> None:
    ws = await make_workspace(sqlite_backend.sessionmaker)
    await sign_in(portal_page, sqlite_backend.base_url, ws.tokens[Role.VIEWER], "/live")
    button = portal_page.get_by_role("button", name=re.compile("New live comparison"))
    await expect(button).to_be_disabled()
