"""The portal's live comparisons: `/live` lists them, `/live/:id` shows the arms, the
sequence against the margin as it narrows and the decision in the comparison page's words,
updating while traces arrive; axe clean; at 390 px without sideways scroll."""

from __future__ import annotations

import re
from typing import Any

from playwright.async_api import expect

from bench.kit.factories import make_workspace
from bench.kit.harness import Backend
from server.workspaces.roles import Role
from tests.portal.harness import axe_violations, sign_in
from tests.server.live.canary import create, pattern, post_release

WIDTH = "() => [document.documentElement.scrollWidth, window.innerWidth]"


async def test_a_canary_moves_from_no_decision_to_dont_ship(
    sqlite_backend: Backend, portal_page: Any
) -> None:
    page = portal_page
    backend = sqlite_backend
    ws = await make_workspace(backend.sessionmaker)
    live = await create(backend, ws, label="checkout canary")
    await sign_in(page, backend.base_url, ws.tokens[Role.VIEWER], "/live")
    await page.get_by_role("heading", name="Live comparisons").wait_for()
    table = page.get_by_role("table", name="Live comparisons")
    row = table.get_by_role("row", name=re.compile(r"checkout canary shop v2 vs v1 Running"))
    await row.wait_for()
    assert await axe_violations(page) == []
    await row.get_by_role("link", name="checkout canary").click()

    await page.get_by_role("heading", name="checkout canary").wait_for()
    decision = page.get_by_role("region", name="Decision")
    await expect(decision).to_contain_text("No trace graded yet")
    # A few traces: under 20 an arm, the page says no decision yet, and updates itself.
    await post_release(backend, ws, release="v2", passes=[True] * 10)
    await post_release(backend, ws, release="v1", passes=[True] * 10)
    await expect(decision.get_by_role("heading")).to_have_text(
        "Decision: No decision", timeout=15_000
    )
    arms = page.get_by_role("table", name="Arms")
    await expect(
        arms.get_by_role("row", name=re.compile(r"^v2 \(candidate\) 10 10 100\.0%"))
    ).to_be_visible()
    figure = page.get_by_role("figure", name="Sequence")
    await expect(figure.get_by_role("img")).to_have_attribute(
        "aria-label",
        re.compile(r"after 10 traces an arm: 0\.0 points, sequence −\d+\.\d to \+\d+\.\d"),
    )
    # The canary breaks: Don't ship, with the violated criterion in words.
    for _ in range(4):
        await post_release(backend, ws, release="v2", passes=pattern(0.5, 50))
        await post_release(backend, ws, release="v1", passes=[True] * 50)
    await expect(decision.get_by_role("heading")).to_have_text(
        "Decision: Don't ship", timeout=20_000
    )
    await expect(decision).to_contain_text("Don't ship v2")
    criteria = decision.get_by_role("list", name="Criteria")
    await expect(criteria.get_by_role("listitem").first).to_contain_text(
        "Violated Quality (pass rate) vs v1"
    )
    await expect(page.get_by_text(re.compile(r"Decided · started"))).to_be_visible()
    label = await figure.get_by_role("img").get_attribute("aria-label") or ""
    assert "the margin is −2.0 points" in label, label
    ends = re.search(r"sequence (\S+) to (\S+);", label)
    assert ends is not None, label
    low, high = (float(end.replace("−", "-")) for end in ends.groups())
    assert high - low < 82.4, label  # the band narrowed as the traces came in
    assert await axe_violations(page) == []

    await page.set_viewport_size({"width": 390, "height": 844})
    for path in ("/live", f"/live/{live['id']}"):
        await page.goto(f"{backend.base_url}{path}")
        await page.get_by_role("heading", level=1).first.wait_for()
        await page.wait_for_load_state("networkidle")
        scroll_width, inner_width = await page.evaluate(WIDTH)
        assert scroll_width <= inner_width, (path, scroll_width)
    assert page.console_errors == []


async def test_another_workspaces_live_comparison_is_not_found(
    sqlite_backend: Backend, portal_page: Any
) -> None:
    ws = await make_workspace(sqlite_backend.sessionmaker)
    other = await make_workspace(sqlite_backend.sessionmaker, name="other")
    live = await create(sqlite_backend, ws)
    await sign_in(portal_page, sqlite_backend.base_url, other.owner, f"/live/{live['id']}")
    await expect(portal_page.get_by_text("NOT_FOUND").first).to_be_visible()
