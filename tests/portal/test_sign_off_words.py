"""A sign-off over a decision, in words (issue 51, points 4 and 5): the dialog preselects what
the decision says (Hold for Don't ship), says a missing justification at its field in words,
and quotes the decision without doubled punctuation; once signed, the page's header, its
Decision region, the Sign-off summary and the comparisons list name the sign-off as what it
is ("Signed off: approved over Don't ship, by admin"), never a second "Decision:"."""

from __future__ import annotations

import re
from typing import Any

from playwright.async_api import expect

from bench.kit.harness import Backend
from server.workspaces.roles import Role
from tests.portal.harness import axe_violations, sign_in
from tests.server.reports.api import finalized_comparison

OPEN_FOLLOW_UPS = """
query($id: ID!) { report(id: $id) { followUps(first: 100, state: OPEN) {
  edges { node { id } } } } }
"""
RESOLVE_MANY = """
mutation($ids: [ID!]!, $note: String!) { resolveFollowUps(ids: $ids, note: $note) { id } }
"""
DECISION = "query($id: ID!) { comparison(id: $id) { decision { outcome sentence } } }"
SIGNED = "Signed off: approved over Don't ship, by admin"


async def test_an_override_reads_as_a_sign_off_over_the_decision_everywhere(
    sqlite_backend: Backend,
    portal_page: Any,
) -> None:
    page = portal_page
    f = await finalized_comparison(sqlite_backend)
    decision = (await f.gql(DECISION, {"id": f.comparison_id})).ok()["comparison"]["decision"]
    assert decision["outcome"] == "DONT_SHIP"
    report = await f.generate()
    edges = (await f.gql(OPEN_FOLLOW_UPS, {"id": report["id"]})).ok()["report"]["followUps"]
    ids = [e["node"]["id"] for e in edges["edges"]]
    (await f.gql(RESOLVE_MANY, {"ids": ids, "note": "looked at"})).ok()

    await sign_in(
        page, sqlite_backend.base_url, f.token(Role.ADMIN), f"/comparisons/{f.comparison_id}"
    )
    reports = page.get_by_role("region", name="Reports")
    await reports.get_by_role("button", name="Sign off").click()
    dialog = page.get_by_role("dialog", name="Sign off")
    await expect(dialog).to_contain_text("Ship decision: Don't ship")
    choices = dialog.get_by_role("radiogroup", name="Decision")
    # Point 5: the choice first selected follows the decision.
    await expect(choices.get_by_role("radio", name="Hold")).to_be_checked()
    await expect(choices.get_by_role("radio", name="Approve")).not_to_be_checked()

    await choices.get_by_role("radio", name="Approve").check()
    await dialog.get_by_role("button", name="Sign off").click()
    alert = dialog.get_by_role("alert")
    await expect(alert).to_contain_text("The decision is Don't ship, not Ship: ")
    text = await alert.inner_text()
    assert ".." not in text and ". ." not in text, text
    assert text.endswith("Hold, or approve with an override and a justification."), text

    # An override without a justification: said at the field, in words, with no API name.
    await dialog.get_by_role("checkbox", name="Override open follow-ups or the decision").check()
    await dialog.get_by_role("button", name="Sign off").click()
    justification = dialog.get_by_role("textbox", name="Justification")
    await expect(justification).to_have_accessible_description(
        "Say why you override: a justification of 1 to 2,000 characters is needed."
    )
    await expect(justification).to_have_attribute("aria-invalid", "true")
    words = await dialog.inner_text()
    for api in ("overrideJustification", "VALIDATION_FAILED", "CONFLICT", ".."):
        assert api not in words, (api, words)
    assert await axe_violations(page) == []

    await justification.fill("known flaky cases")
    await expect(justification).not_to_have_attribute("aria-invalid", "true")
    await dialog.get_by_role("button", name="Sign off").click()
    await dialog.wait_for(state="hidden")

    # Point 4: the sign-off is named as what it is wherever it stands beside the decision.
    main = page.get_by_role("main")
    region = page.get_by_role("region", name="Decision")
    await expect(region.get_by_role("heading", name="Decision: Don't ship")).to_be_visible()
    await expect(region).to_contain_text(f"{SIGNED}.")
    await expect(reports.get_by_role("region", name="Sign-off")).to_contain_text(SIGNED)
    await expect(main).to_contain_text(re.compile(rf"{SIGNED}\s*Verdict: Promote"))
    shown = await main.inner_text()
    assert shown.count("Decision:") == 1, shown  # the Decision region's heading alone
    assert "Approved" not in shown, shown

    await (
        page.get_by_role("navigation", name="Main").get_by_role("link", name="Comparisons").click()
    )
    row = page.get_by_role("table", name="Comparisons").get_by_role(
        "row", name=re.compile(r"^capitals ")
    )
    await expect(row).to_contain_text(f"Don't ship {SIGNED}")
    assert page.console_errors == []
