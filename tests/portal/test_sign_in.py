"""Signing in to the portal: the form, the demo banner's link, a refused token, signing out."""

from __future__ import annotations

from typing import Any

import httpx

from bench.kit.factories import make_workspace
from bench.kit.harness import Backend
from server.workspaces.roles import Role
from tests.portal.harness import (
    Requests,
    axe_violations,
    require_portal,
    screenshot,
    sign_in,
)


async def test_the_form_signs_in_shows_who_and_signs_out(
    sqlite_backend: Backend,
    portal_page: Any,
) -> None:
    page = portal_page
    ws = await make_workspace(sqlite_backend.sessionmaker)
    requests = Requests(page, sqlite_backend.base_url)
    await page.goto(f"{sqlite_backend.base_url}/")
    await page.get_by_role("heading", name="Sign in to shipwise").wait_for()
    assert page.url.endswith("/sign-in")
    assert await axe_violations(page) == []
    await screenshot(page, "sign-in")

    me = await sqlite_backend.gql("{ workspace { name } }", token=ws.owner)
    name = me.ok()["workspace"]["name"]
    await sign_in(page, sqlite_backend.base_url, ws.owner)
    nav = page.get_by_role("navigation", name="Main")
    for name in ("Comparisons", "Datasets", "Releases", "Experiments", "Audit log"):
        await nav.get_by_role("link", name=name).wait_for()
    header = await page.locator("header").inner_text()
    assert name in header and "Owner" in header

    await page.get_by_role("button", name="Sign out").click()
    await page.get_by_role("textbox", name="API token").wait_for()
    assert await page.evaluate("sessionStorage.length") == 0
    await page.goto(f"{sqlite_backend.base_url}/comparisons")
    await page.get_by_role("button", name="Sign in").wait_for()  # forgotten: back to sign-in
    assert page.console_errors == []
    assert requests.outside() == []


async def test_a_refused_token_returns_to_sign_in_with_the_reason(
    sqlite_backend: Backend,
    portal_page: Any,
) -> None:
    page = portal_page
    await page.goto(f"{sqlite_backend.base_url}/sign-in")
    await page.get_by_role("textbox", name="API token").fill("sw_not_a_token")
    await page.get_by_role("button", name="Sign in").click()
    await page.get_by_role("alert").filter(has_text="Your token was refused").wait_for()
    assert page.url.endswith("/sign-in")
    assert await page.evaluate("sessionStorage.length") == 0


async def test_the_link_with_a_fragment_signs_in_and_clears_it(
    sqlite_backend: Backend,
    portal_page: Any,
) -> None:
    page = portal_page
    ws = await make_workspace(sqlite_backend.sessionmaker)
    token = ws.tokens[Role.VIEWER]
    await page.goto(f"{sqlite_backend.base_url}/sign-in#token={token}")
    await page.get_by_role("heading", name="Comparisons", exact=True).wait_for()
    assert "#" not in page.url and token not in page.url
    assert await page.evaluate("sessionStorage.getItem('shipwise.token')") == token


async def test_the_server_sends_the_portal_with_its_policy_and_cache_headers(
    sqlite_backend: Backend,
) -> None:
    require_portal()
    async with httpx.AsyncClient(base_url=sqlite_backend.base_url) as client:
        paths = ("/", "/sign-in", "/comparisons/cmp_x", "/experiments/e/diff", "/audit")
        for path in (*paths, "/settings", "/prompts"):
            page = await client.get(path)
            assert page.status_code == 200, path
            assert '<div id="root">' in page.text
            policy = page.headers["content-security-policy"]
            assert policy.startswith("default-src 'self'")
            assert "unsafe-inline" not in policy and "ws://127.0.0.1:" in policy
            assert page.headers["cache-control"] == "no-cache"
        script = page.text.split('src="', 1)[1].split('"', 1)[0]
        assert script.startswith("/assets/")
        asset = await client.get(script)
        assert asset.status_code == 200
        assert asset.headers["content-type"].startswith("text/javascript")
        assert "immutable" in asset.headers["cache-control"]
        assert (await client.get("/assets/../index.html")).status_code == 404
        assert (await client.get("/assets/nothing.js")).status_code == 404
        assert (await client.get("/no-such-page")).status_code == 404
