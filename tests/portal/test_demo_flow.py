"""The demo from the banner's link to a sign-off, through the portal alone — by mouse, and
again from the keyboard alone.

`shipwise serve --demo` runs as its own process; the test reads its banner, opens the link it
prints first, and goes: new comparison of the demo's two releases → live progress → the
verdict "Regressed vs capitals v1" → a regression's Debug → Generate report → Resolve
selected → Sign off refused for the owner who started it, with the reason shown → sign off
as a second admin. Elements are found by role and accessible name only.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.demo_server import demo_server
from tests.portal.harness import (
    Requests,
    axe_violations,
    screenshot,
)

pytestmark = pytest.mark.slow

VERDICT = "Regressed vs capitals v1: −11.7 points, outside the noise"
DECISION = "Don't ship capitals v2: more than 2 points worse than capitals v1 (Δ −11.7 points"
REFUSED = "You started this comparison"
MAX_TABS = 120


@pytest.fixture
def demo(tmp_path: Path) -> Iterator[tuple[str, str]]:
    """(base URL, the sign-in link the banner prints first) of a fresh demo server."""
    with demo_server(tmp_path / "data") as (base, printed):
        urls = re.findall(r"http://\S+", printed.banner)
        assert urls, printed.banner
        assert re.fullmatch(rf"{re.escape(base)}/sign-in#token=sw_\S+", urls[0]), urls[:3]
        yield base, urls[0]


def _second_admin(base: str, link: str) -> str:
    """A reviewer ADMIN's token, made through the API with the demo owner's token."""
    owner = link.split("#token=", 1)[1]

    def run(query: str, variables: dict[str, Any]) -> dict[str, Any]:
        body = httpx.post(
            f"{base}/graphql",
            json={"query": query, "variables": variables},
            headers={"Authorization": f"Bearer {owner}"},
            timeout=30,
        ).json()
        assert not body.get("errors"), body
        data: dict[str, Any] = body["data"]
        return data

    member = run('mutation { addMember(name: "reviewer", role: ADMIN) { id } }', {})
    token = run(
        'mutation($id: ID!) { createToken(name: "reviewer", memberId: $id) { secret } }',
        {"id": member["addMember"]["id"]},
    )
    secret: str = token["createToken"]["secret"]
    return secret


class Driver:
    """Clicks and fills by mouse, or the same steps by keyboard alone (Tab to it, then keys)."""

    def __init__(self, page: Any, *, keyboard: bool) -> None:
        self.page = page
        self.keyboard = keyboard

    async def _focus(self, locator: Any) -> None:
        """Press Tab until `locator` has the focus (keyboard), as a person would."""
        await locator.wait_for()
        handle = await locator.element_handle()
        for _ in range(MAX_TABS):
            if await self.page.evaluate("(el) => document.activeElement === el", handle):
                return
            await self.page.keyboard.press("Tab")
        raise AssertionError(f"Tab never reached {locator}")

    async def click(self, locator: Any) -> None:
        await locator.wait_for()
        await _enabled(locator)
        if not self.keyboard:
            await locator.click()
            return
        if await locator.evaluate("(el) => el.type === 'radio' && !el.checked"):
            await self._choose_radio(locator)
            return
        await self._focus(locator)
        role = await locator.evaluate("(el) => el.getAttribute('role') || el.tagName")
        toggles = role in ("checkbox", "radio", "INPUT")
        await self.page.keyboard.press("Space" if toggles else "Enter")

    async def _choose_radio(self, locator: Any) -> None:
        """Tab reaches a radio group at its checked radio; the arrow keys move the choice."""
        handle = await locator.element_handle()
        for _ in range(MAX_TABS):
            if await self.page.evaluate(
                "(el) => document.activeElement?.type === 'radio'"
                " && document.activeElement.name === el.name",
                handle,
            ):
                break
            await self.page.keyboard.press("Tab")
        else:
            raise AssertionError(f"Tab never reached the radio group of {locator}")
        for _ in range(MAX_TABS):
            if await locator.is_checked():
                return
            await self.page.keyboard.press("ArrowUp")
        raise AssertionError(f"the arrow keys never reached {locator}")

    async def select(self, locator: Any, label: str) -> None:
        """Choose the option whose label is `label` or starts with it ("Capital cities — …")."""
        await locator.wait_for()
        # The options come with a query: wait for the one asked for, not the placeholder.
        await locator.locator("option").filter(has_text=label).first.wait_for(state="attached")
        options: list[str] = await locator.evaluate("(el) => [...el.options].map((o) => o.label)")
        wanted = next((o for o in options if o == label or o.startswith(label)), None)
        assert wanted is not None, f"{label!r} not among {options}"
        if not self.keyboard:
            await locator.select_option(label=wanted)
            return
        await self._focus(locator)
        for _ in range(len(options)):
            if await locator.evaluate("(el) => el.options[el.selectedIndex]?.label") == wanted:
                return
            await self.page.keyboard.press("ArrowDown")
        raise AssertionError(f"ArrowDown never reached {wanted!r}")

    async def fill(self, locator: Any, text: str) -> None:
        if not self.keyboard:
            await locator.fill(text)
            return
        await self._focus(locator)
        await self.page.keyboard.type(text)


async def _enabled(locator: Any) -> None:
    await locator.page.wait_for_function("(el) => !el.disabled", arg=await locator.element_handle())


async def _no_violations(page: Any, where: str) -> None:
    assert await axe_violations(page) == [], where


async def _walk_the_demo(page: Any, base: str, link: str, *, keyboard: bool) -> None:
    go = Driver(page, keyboard=keyboard)
    requests = Requests(page, base)
    shots = not keyboard

    await page.goto(link)
    await page.get_by_role("heading", name="Comparisons", exact=True).wait_for()
    assert "#token" not in page.url
    await _no_violations(page, "comparisons")

    await go.click(page.get_by_role("button", name="New comparison"))
    await page.get_by_role("heading", name="New comparison").wait_for()
    await go.click(page.get_by_role("button", name="Add release cohort"))
    await go.click(page.get_by_role("button", name="Add release cohort"))
    candidate = page.get_by_role("group", name="Cohort 1 (Candidate)")
    baseline = page.get_by_role("group", name="Cohort 2", exact=True)
    await go.select(candidate.get_by_role("combobox", name="Release"), "capitals v2")
    await go.select(baseline.get_by_role("combobox", name="Release"), "capitals v1")
    await go.select(page.get_by_role("combobox", name="On dataset"), "Capital cities")
    await page.get_by_text("Up to 360 model calls").wait_for()
    await _no_violations(page, "new comparison")
    await go.click(page.get_by_role("button", name="Run", exact=True))

    await page.wait_for_url(re.compile(r"/comparisons/cmp_\w+$"))
    progress = page.get_by_role("progressbar", name="Progress")
    verdict = page.get_by_role("region", name="Verdict")
    await progress.or_(verdict).first.wait_for()
    await verdict.get_by_text(VERDICT).wait_for(timeout=60_000)
    # The README's step 3: the page answers first, with the demo's decision.
    decision = page.get_by_role("region", name="Decision")
    await decision.get_by_role("heading", name="Decision: Don't ship").wait_for()
    await decision.get_by_text(DECISION).wait_for()
    await _no_violations(page, "finalized comparison")

    analysis = page.get_by_role("region", name="Failure analysis")
    tab = analysis.get_by_role("tab", name=re.compile(r"^Regressions \(\d+\)$"))
    assert await tab.get_attribute("aria-selected") == "true"
    await go.click(analysis.get_by_role("button", name="Debug").first)
    dialog = page.get_by_role("dialog", name=re.compile(r"^Case "))
    await dialog.wait_for()
    await _no_violations(page, "case dialog")
    if shots:
        await screenshot(page, "demo-case-debug")
    await page.keyboard.press("Escape")
    await dialog.wait_for(state="hidden")

    reports = page.get_by_role("region", name="Reports")
    await go.click(reports.get_by_role("button", name="Generate report"))
    await reports.get_by_role("link", name="Open report page").wait_for()
    follow_ups = reports.get_by_role("table", name="Follow-ups")
    boxes = follow_ups.get_by_role("checkbox")
    await boxes.first.wait_for()
    for index in range(await boxes.count()):
        await go.click(boxes.nth(index))
    await go.click(reports.get_by_role("button", name="Resolve selected"))
    resolve = page.get_by_role("dialog", name="Resolve follow-ups")
    await go.fill(resolve.get_by_role("textbox", name="Note"), "Checked: known misses.")
    await go.click(resolve.get_by_role("button", name="Resolve"))
    await resolve.wait_for(state="hidden")
    await _no_violations(page, "reports")

    await go.click(reports.get_by_role("button", name="Sign off"))
    sign = page.get_by_role("dialog", name="Sign off")
    await go.click(sign.get_by_role("radio", name="Approve"))
    await go.click(sign.get_by_role("button", name="Sign off"))
    await sign.get_by_text(REFUSED).wait_for()
    await _no_violations(page, "sign-off refused")
    if shots:
        await screenshot(page, "demo-sign-off-refused")
    await page.keyboard.press("Escape")

    comparison_url = page.url
    reviewer = _second_admin(base, link)
    await go.click(page.get_by_role("button", name="Sign out"))
    await go.fill(page.get_by_role("textbox", name="API token"), reviewer)
    await go.click(page.get_by_role("button", name="Sign in"))
    await page.get_by_role("heading", name="Comparisons", exact=True).wait_for()
    await page.goto(comparison_url)
    reports = page.get_by_role("region", name="Reports")
    await go.click(reports.get_by_role("button", name="Sign off"))
    sign = page.get_by_role("dialog", name="Sign off")
    await go.click(sign.get_by_role("radio", name="Approve"))
    await go.click(sign.get_by_role("button", name="Sign off"))
    # The demo's candidate regressed: its decision is Don't ship, which approving overrides.
    await sign.get_by_text("The decision is Don't ship, not Ship").wait_for()
    await go.click(sign.get_by_role("checkbox", name="Override open follow-ups or the decision"))
    await go.fill(sign.get_by_role("textbox", name="Justification"), "Accepted: a known trade.")
    await go.click(sign.get_by_role("button", name="Sign off"))
    await sign.wait_for(state="hidden")
    await page.get_by_text("PROMOTE").first.wait_for()
    if shots:
        await screenshot(page, "demo-signed")

    assert page.console_errors == []
    assert requests.outside() == []


async def test_the_demo_from_the_banner_link_to_a_sign_off(
    demo: tuple[str, str],
    portal_page: Any,
) -> None:
    base, link = demo
    await _walk_the_demo(portal_page, base, link, keyboard=False)


async def test_the_demo_flow_from_the_keyboard_alone(
    demo: tuple[str, str],
    portal_page: Any,
) -> None:
    base, link = demo
    await _walk_the_demo(portal_page, base, link, keyboard=True)
