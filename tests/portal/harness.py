"""Driving the portal in headless Chromium: signing in, axe-core, outside requests, screenshots;
and the comparison set-ups the page tests share.

Tests find elements by role and accessible name only (docs/portal.md's contract). The portal must be
built (`make install` runs `npm ci && npm run build` in web/); without it the tests skip loudly,
and fail under CI=true.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bench.kit import services
from bench.kit.browser import ConsoleRecorder
from bench.kit.factories import ComparisonSetup, make_comparison_setup, make_workspace
from bench.kit.harness import Backend
from server.portal.files import DEFAULT_DIR

ROOT = Path(__file__).resolve().parents[2]
AXE = ROOT / "web" / "node_modules" / "axe-core" / "axe.min.js"
SCREENSHOTS = ROOT / "docs" / "screenshots"
SERIOUS = {"serious", "critical"}


def require_portal() -> None:
    """Skip (fail under CI=true) when web/ was not built or axe-core is not installed."""
    missing = [p for p in (DEFAULT_DIR / "index.html", AXE) if not p.is_file()]
    if not missing:
        return
    message = f"portal tests need the built portal (make install, with npm): missing {missing}"
    if services.in_ci():
        pytest.fail(f"CI=true: {message}", pytrace=False)
    pytest.skip(f"!!! {message} !!!")


@pytest.fixture
async def portal_page(browser: Any) -> AsyncIterator[Any]:
    """A fresh page for the portal; `page.console_errors` lists its console and page errors.

    The context bypasses the Content-Security-Policy so that axe-core can be injected; that
    also makes the untrusted-text tests prove the portal's own escaping, not the policy's.
    A test of its own checks the policy header.
    """
    require_portal()
    context = await browser.new_context(viewport={"width": 1280, "height": 900}, bypass_csp=True)
    page = await context.new_page()
    page.console_errors = ConsoleRecorder(page).errors
    try:
        yield page
    finally:
        await context.close()


async def sign_in(page: Any, base_url: str, token: str, path: str = "/comparisons") -> None:
    """Sign in through the form, then open `path`."""
    await page.goto(f"{base_url}/sign-in")
    await page.get_by_role("textbox", name="API token").fill(token)
    await page.get_by_role("button", name="Sign in").click()
    await page.get_by_role("heading", name="Comparisons", exact=True).wait_for()
    if path != "/comparisons":
        await page.goto(f"{base_url}{path}")


async def axe_violations(page: Any) -> list[dict[str, Any]]:
    """axe-core's violations of impact serious or critical on the page as it is now."""
    if not await page.evaluate("typeof window.axe !== 'undefined'"):
        await page.add_script_tag(path=str(AXE))
    result: dict[str, Any] = await page.evaluate("async () => await axe.run(document)")
    return [
        {"id": v["id"], "impact": v["impact"], "nodes": [n["target"] for n in v["nodes"]][:5]}
        for v in result["violations"]
        if v.get("impact") in SERIOUS
    ]


class Requests:
    """Every request the page makes, to tell those that leave the server."""

    def __init__(self, page: Any, base_url: str) -> None:
        self.base_url = base_url
        self.urls: list[str] = []
        page.on("request", lambda request: self.urls.append(request.url))

    def outside(self) -> list[str]:
        ws_base = self.base_url.replace("http://", "ws://")
        return [
            url
            for url in self.urls
            if not (url.startswith(self.base_url) or url.startswith(ws_base))
            and not url.startswith("data:")
        ]


async def screenshot(page: Any, name: str) -> None:
    """Save the page to docs/screenshots/<name>.png (committed when it changes)."""
    if os.environ.get("SHIPWISE_SCREENSHOTS", "1") == "0":
        return
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    await page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)


async def serial_comparison_setup(
    backend: Backend, *, cases: int = 20, **connection: Any
) -> ComparisonSetup:
    """A fresh workspace and `cases` cases of two releases on a SIMULATED connection that makes
    one call at a time, so a run takes a while; `connection`: its simulation, price or cap."""
    ws = await make_workspace(backend.sessionmaker)
    return await make_comparison_setup(
        backend.sessionmaker, ws, cases=cases, max_concurrency=1, **connection
    )
