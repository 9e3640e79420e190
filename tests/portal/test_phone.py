"""The portal on a phone (390 × 844, docs/portal.md "The whole workplace"): no route scrolls
sideways, the navigation collapses to "Menu", dialogs fit the screen, long notes wrap as
text."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from playwright.async_api import expect

from bench.kit.harness import Backend
from server.workspaces.roles import Role
from tests.portal.harness import axe_violations, screenshot, sign_in
from tests.server.reports.api import RESOLVE_MANY, finalized_comparison
from tests.server.runs.api import experiment, import_run, item
from tests.server.traces.otlp_bodies import agent_trace, new_trace_id, post_spans

ROOT = Path(__file__).resolve().parents[2]
PHONE = {"width": 390, "height": 844}
NOTE = "Checked by hand with the support team; the expected answer was outdated. " * 6

WIDTH = "() => [document.documentElement.scrollWidth, window.innerWidth]"
WIDE = """() => {
  const over = (e) => e.getBoundingClientRect().right > window.innerWidth + 1;
  const name = (e) => e.tagName + '.' + e.className;
  const all = [...document.querySelectorAll('body, body *')];
  const outer = all.filter((e) => over(e) && ![...e.children].some(over));
  const wide = all.filter((e) => e.scrollWidth > window.innerWidth);
  return outer.slice(0, 5).map((e) => name(e) + ' ' + (e.textContent || '').slice(0, 40))
    .concat(wide.slice(0, 8).map((e) => name(e) + ':' + e.scrollWidth + '/' + e.clientWidth));
}"""


APP_ROUTES = set(re.findall(r'path="(/[^"]+)"', (ROOT / "web/src/App.tsx").read_text()))
"""The portal's routes, as web/src/App.tsx declares them ("/comparisons/:id", …)."""


def _route_patterns(paths: list[str]) -> set[str]:
    """The App.tsx route each measured path matches (ids as `:id`, the query dropped)."""
    patterns = set()
    for path in ["/sign-in", *paths]:
        parts = path.split("?")[0].split("/")
        patterns.add(
            "/".join(
                ":id" if n == 2 and part not in ("new",) else part for n, part in enumerate(parts)
            )
        )
    return patterns


async def _fits(page: Any, path: str) -> None:
    """The page at `path` is no wider than the screen (measured once its heading shows)."""
    await page.get_by_role("heading", level=1).first.wait_for(timeout=10_000)
    await page.wait_for_load_state("networkidle")
    scroll_width, inner_width = await page.evaluate(WIDTH)
    wide = await page.evaluate(WIDE) if scroll_width > inner_width else []
    assert scroll_width <= inner_width, f"{path} is {scroll_width} px wide on 390 px: {wide}"


async def _dialog_fits(dialog: Any) -> None:
    await dialog.wait_for()
    box = await dialog.bounding_box()
    assert box is not None
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], box
    assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"], box
    await dialog.get_by_role("button", name="Close").click()


async def test_no_route_scrolls_sideways_and_the_navigation_collapses(
    sqlite_backend: Backend,
    portal_page: Any,
) -> None:
    page = portal_page
    await page.set_viewport_size(PHONE)
    done = await finalized_comparison(sqlite_backend)
    report = await done.generate()
    follow_ups = await done.follow_ups(report["id"])
    await done.gql(RESOLVE_MANY, {"ids": [f["id"] for f in follow_ups[:2]], "note": NOTE})
    member = done.token(Role.MEMBER)
    exp = await experiment(sqlite_backend, member, "nightly evals")
    items = [item(n % 3 != 0, item_id=f"c-{n:02d}") for n in range(24)]
    baseline = await import_run(sqlite_backend, member, exp, items, key="run-1")
    candidate = await import_run(sqlite_backend, member, exp, items[::-1], key="run-2")
    trace_id = new_trace_id()
    await post_spans(sqlite_backend, agent_trace(trace_id, NOTE, NOTE), token=member)
    live = (
        await done.gql(
            "mutation($i: CreateLiveComparisonInput!) { createLiveComparison(input: $i) { id } }",
            {"i": {"service": "agent-app", "candidateRelease": "v2", "baselineReleases": ["v1"]}},
        )
    ).ok()["createLiveComparison"]["id"]

    await page.goto(f"{sqlite_backend.base_url}/sign-in")
    await _fits(page, "/sign-in")
    await sign_in(page, sqlite_backend.base_url, done.token(Role.OWNER))
    nav = page.get_by_role("navigation", name="Main")
    await expect(nav.get_by_role("link", name="Comparisons")).to_be_hidden()
    await nav.get_by_role("button", name="Menu").click()
    await expect(nav.get_by_role("button", name="Menu")).to_have_attribute("aria-expanded", "true")
    await nav.get_by_role("link", name="Settings").click()
    await page.get_by_role("heading", name="Settings", exact=True).wait_for()
    await expect(nav.get_by_role("link", name="Comparisons")).to_be_hidden()

    routes = [
        "/comparisons",
        "/comparisons/new",
        f"/comparisons/{done.comparison_id}",
        f"/comparisons/{done.comparison_id}/review",
        "/experiments",
        f"/experiments/{exp}",
        f"/experiments/{exp}/diff?candidate={candidate}&baseline={baseline}",
        "/datasets",
        f"/datasets/{done.setup.dataset_id}",
        "/releases",
        "/audit",
        "/traces",
        f"/traces/{trace_id}",
        "/live",
        f"/live/{live}",
        "/live/new",
        "/settings",
        "/prompts",
        "/playground",
    ]
    assert _route_patterns(routes) == APP_ROUTES, "every route of web/src/App.tsx is measured"
    for path in routes:
        await page.goto(f"{sqlite_backend.base_url}{path}")
        await _fits(page, path)
        assert page.console_errors == [], path

    # The set-up dialogs fit the screen too.
    for path, button, name in (
        ("/settings", "Add connection", "Model connection"),
        ("/datasets", "Upload dataset", "Upload dataset"),
        ("/releases", "New release", "New release"),
        ("/prompts", "New prompt template", "New prompt template"),
    ):
        await page.goto(f"{sqlite_backend.base_url}{path}")
        await page.get_by_role("button", name=button).click()
        await _dialog_fits(page.get_by_role("dialog", name=name))
    assert page.console_errors == []


async def test_the_comparison_page_its_notes_and_dialogs_fit_a_phone(
    sqlite_backend: Backend,
    portal_page: Any,
) -> None:
    page = portal_page
    await page.set_viewport_size(PHONE)
    done = await finalized_comparison(sqlite_backend)
    report = await done.generate()
    follow_ups = await done.follow_ups(report["id"])
    await done.gql(RESOLVE_MANY, {"ids": [follow_ups[0]["id"]], "note": NOTE})
    await sign_in(
        page, sqlite_backend.base_url, done.token(Role.ADMIN), f"/comparisons/{done.comparison_id}"
    )
    region = page.get_by_role("region", name="Reports")
    note = region.get_by_role("table", name="Follow-ups").get_by_role("cell", name=NOTE.strip())
    await note.wait_for()
    box = await note.bounding_box()
    assert box is not None and box["width"] >= 200, f"the note is {box} wide: a word per line"
    await _fits(page, "the comparison page")
    await screenshot(page, "phone-comparison")

    debug = page.get_by_role("button", name="Debug").first
    await debug.click()
    dialog = page.get_by_role("dialog")
    await dialog.wait_for()
    box = await dialog.bounding_box()
    assert box is not None
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"]
    assert await axe_violations(page) == []
    await dialog.get_by_role("button", name="Close").click()
    await expect(dialog).to_be_hidden()
    assert page.console_errors == []
