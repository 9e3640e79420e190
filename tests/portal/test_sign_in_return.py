"""Signing in returns to the page asked for; a refused link token is said in words and leaves
the address bar (issue 34 e)."""

from __future__ import annotations

from typing import Any

from playwright.async_api import expect

from bench.kit.factories import make_workspace
from bench.kit.harness import Backend
from server.workspaces.roles import Role
from tests.portal.harness import axe_violations


async def test_signing_in_from_a_deep_link_returns_to_it(
    sqlite_backend: Backend,
    portal_page: Any,
) -> None:
    page = portal_page
    ws = await make_workspace(sqlite_backend.sessionmaker)
    base = sqlite_backend.base_url
    await page.goto(f"{base}/releases?x=1")
    token_box = page.get_by_role("textbox", name="API token")
    await token_box.fill(ws.tokens[Role.VIEWER])
    await page.get_by_role("button", name="Sign in").click()
    await page.get_by_role("heading", name="Releases", exact=True).wait_for()
    assert page.url == f"{base}/releases?x=1"

    await page.get_by_role("button", name="Sign out").click()
    await token_box.wait_for()
    await page.goto(f"{base}/sign-in")  # signing out is not a deep link: the list follows
    await token_box.fill(ws.tokens[Role.VIEWER])
    await page.get_by_role("button", name="Sign in").click()
    await page.get_by_role("heading", name="Comparisons", exact=True).wait_for()
    assert page.url == f"{base}/comparisons"

    await page.get_by_role("button", name="Sign out").click()
    await token_box.wait_for()
    await page.goto(f"{base}/audit")  # signed out: the link is kept through sign-in
    await token_box.fill(ws.tokens[Role.ADMIN])
    await page.get_by_role("button", name="Sign in").click()
    await page.get_by_role("heading", name="Audit log").wait_for()
    assert page.url == f"{base}/audit"
    assert page.console_errors == []


async def test_a_refused_token_in_the_sign_in_link_is_said_and_leaves_the_url(
    sqlite_backend: Backend,
    portal_page: Any,
) -> None:
    page = portal_page
    base = sqlite_backend.base_url
    await page.goto(f"{base}/sign-in#token=sw_not_a_real_token")
    alert = page.get_by_role("alert")
    await expect(alert).to_contain_text("The sign-in link's token was refused")
    await expect(page.get_by_role("textbox", name="API token")).to_be_visible()
    assert "sw_not_a_real_token" not in page.url and "#" not in page.url
    assert page.url == f"{base}/sign-in"
    assert await page.evaluate("sessionStorage.length") == 0
    assert await axe_violations(page) == []

    # A good link pasted over the open sign-in page changes only the fragment: no new load.
    ws = await make_workspace(sqlite_backend.sessionmaker)
    good = ws.tokens[Role.VIEWER]
    await page.evaluate("() => { window.__same_document = true; }")
    await page.goto(f"{base}/sign-in#token={good}")
    await page.get_by_role("heading", name="Comparisons", exact=True).wait_for()
    assert await page.evaluate("window.__same_document === true")
    assert page.url == f"{base}/comparisons"
    assert await page.evaluate("sessionStorage.getItem('shipwise.token')") == good
