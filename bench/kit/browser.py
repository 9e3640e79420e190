"""Headless Chromium for page tests: async Playwright driving Debian's `chromium`.

`make install` installs the package when it is missing; Playwright's own browser download
is never used. The tests register the fixtures once, in `tests/conftest.py`'s `pytest_plugins`:
imported into a test module, the session's Chromium would be that module's own
(`tests/test_fixture_homes.py`).
"""

from __future__ import annotations

import shutil
from collections.abc import AsyncIterator
from typing import Any

import pytest

from bench.kit import services

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-dev-shm-usage",
]


def chromium_path() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


def _require_chromium() -> str:
    path = chromium_path()
    if path is not None:
        return path
    message = "page tests need Chromium (make install installs Debian's chromium as root)"
    if services.in_ci():
        pytest.fail(f"CI=true: {message}", pytrace=False)
    pytest.skip(message)


class ConsoleRecorder:
    """Collects console errors and uncaught page errors of one page."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.errors: list[str] = []
        page.on("console", self._on_console)
        page.on("pageerror", lambda exc: self.errors.append(f"pageerror: {exc}"))

    def _on_console(self, message: Any) -> None:
        if message.type == "error":
            self.errors.append(f"console: {message.text}")


@pytest.fixture(scope="session")
async def browser() -> AsyncIterator[Any]:
    """One Chromium for the test session."""
    executable = _require_chromium()
    from playwright.async_api import async_playwright

    async with async_playwright() as playwright:
        launched = await playwright.chromium.launch(
            executable_path=executable, headless=True, args=CHROMIUM_ARGS
        )
        try:
            yield launched
        finally:
            await launched.close()


@pytest.fixture
async def browser_page(browser: Any) -> AsyncIterator[Any]:
    """A fresh context and page; `page.console_errors` lists its console and page errors."""
    context = await browser.new_context(viewport={"width": 1280, "height": 900})
    page = await context.new_page()
    page.console_errors = ConsoleRecorder(page).errors
    try:
        yield page
    finally:
        await context.close()
