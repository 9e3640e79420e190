"""The ship policy in the portal (docs/decision.md, docs/portal.md): an admin sets the workspace's
default in /settings (`group` "Ship policy", the same fields as the New comparison form); New
comparison starts from it, sends it to the preview and to create, and a refused value shows at
its field in words; a viewer reads the default with every control disabled and why."""

from __future__ import annotations

import re
from typing import Any

from playwright.async_api import expect

from bench.kit.factories import make_comparison_setup, make_workspace
from bench.kit.harness import Backend
from server.workspaces.roles import Role
from tests.portal.harness import axe_violations, sign_in

DEFAULT = """{ workspace { settings { defaultShipPolicy { qualityMarginPoints alpha requireGain
  guardrails { metric maxIncreasePercent maxIncreasePoints } } } } }"""
FROZEN = """query($id: ID!) { comparison(id: $id) { shipPolicy { qualityMarginPoints alpha
  requireGain registeredAt guardrails { metric maxIncreasePercent maxIncreasePoints } } } }"""
WANTED = {
    "qualityMarginPoints": 3.0,
    "alpha": 0.1,
    "requireGain": "COST",
    "guardrails": [
        {"metric": "FAILED_OR_MISSING", "maxIncreasePercent": None, "maxIncreasePoints": 4.0},
        {"metric": "LATENCY_P95", "maxIncreasePercent": 25.0, "maxIncreasePoints": None},
    ],
}


async def test_a_default_policy_set_in_settings_prefills_new_comparison_and_is_frozen(
    sqlite_backend: Backend,
    portal_page: Any,
) -> None:
    backend, page = sqlite_backend, portal_page
    ws = await make_workspace(backend.sessionmaker)
    setup = await make_comparison_setup(backend.sessionmaker, ws, cases=24)
    await sign_in(page, backend.base_url, ws.tokens[Role.ADMIN], "/settings")
    policy = page.get_by_role("region", name="Workspace").get_by_role("group", name="Ship policy")
    margin = policy.get_by_role("spinbutton", name="Quality margin (points)")
    await expect(margin).to_have_value("2")

    # A value the server refuses shows at its field, in words, and nothing is saved.
    alpha = policy.get_by_role("spinbutton", name="Alpha")
    await alpha.fill("0.7")
    await page.get_by_role("button", name="Save", exact=True).click()
    await expect(alpha).to_have_accessible_description("Alpha must lie strictly between 0 and 0.5")
    before = (await backend.gql(DEFAULT, token=ws.owner)).ok()
    assert before["workspace"]["settings"]["defaultShipPolicy"]["alpha"] == 0.05

    await alpha.fill("0.1")
    await policy.get_by_role("spinbutton", name="Quality margin (points)").fill("3")
    await policy.get_by_role("combobox", name="Required gain").select_option(label="Lower cost")
    first = policy.get_by_role("group", name="Guardrail 1")
    await first.get_by_role("spinbutton", name="Max increase (points)").fill("4")
    await policy.get_by_role("button", name="Add guardrail").click()
    second = policy.get_by_role("group", name="Guardrail 2")
    await second.get_by_role("combobox", name="Metric").select_option(
        label="95th percentile latency"
    )
    await second.get_by_role("spinbutton", name="Max increase (percent)").fill("25")
    await page.get_by_role("button", name="Save", exact=True).click()
    await expect(page.get_by_role("status")).to_have_text("Saved.")
    saved = (await backend.gql(DEFAULT, token=ws.owner)).ok()
    assert saved["workspace"]["settings"]["defaultShipPolicy"] == WANTED
    assert await axe_violations(page) == []

    # New comparison starts from the default.
    await page.goto(f"{backend.base_url}/comparisons/new")
    policy = page.get_by_role("group", name="Ship policy")
    margin = policy.get_by_role("spinbutton", name="Quality margin (points)")
    await expect(margin).to_have_value("3")
    await expect(policy.get_by_role("spinbutton", name="Alpha")).to_have_value("0.1")
    await expect(policy.get_by_role("combobox", name="Required gain")).to_have_value("COST")
    await expect(
        policy.get_by_role("group", name="Guardrail 2").get_by_role(
            "spinbutton", name="Max increase (percent)"
        )
    ).to_have_value("25")
    for index in (1, 2):
        await page.get_by_role("button", name="Add release cohort").click()
        cohort = page.get_by_role("group", name=re.compile(rf"^Cohort {index}"))
        await cohort.get_by_role("combobox", name="Release").select_option(
            setup.release_ids[index - 1]
        )
    await page.get_by_role("combobox", name="On dataset").select_option(setup.dataset_id)
    preview = page.get_by_role("region", name="Preview")
    await expect(preview).to_contain_text("Decides by this ship policy:")
    run = page.get_by_role("button", name="Run", exact=True)
    await expect(run).to_be_enabled()

    # The preview refuses a guardrail past 100 points: the words at the field, Run waits.
    points = policy.get_by_role("group", name="Guardrail 1").get_by_role(
        "spinbutton", name="Max increase (points)"
    )
    await points.fill("150")
    await expect(points).to_have_accessible_description("Max increase must be at most 100 points")
    await expect(run).to_be_disabled()
    await expect(run).to_have_accessible_description("Fix the field marked above.")
    await points.fill("4")
    await expect(run).to_be_enabled()
    assert await axe_violations(page) == []
    await run.click()
    await page.wait_for_url(re.compile(r"/comparisons/cmp_"))
    comparison_id = page.url.rsplit("/", 1)[-1]
    frozen = (await backend.gql(FROZEN, {"id": comparison_id}, token=ws.owner)).ok()
    shown = frozen["comparison"]["shipPolicy"]
    assert shown.pop("registeredAt")
    assert shown == WANTED
    assert page.console_errors == []


async def test_a_viewer_reads_the_default_policy_with_its_controls_disabled(
    sqlite_backend: Backend,
    portal_page: Any,
) -> None:
    page = portal_page
    ws = await make_workspace(sqlite_backend.sessionmaker)
    await sign_in(page, sqlite_backend.base_url, ws.tokens[Role.VIEWER], "/settings")
    policy = page.get_by_role("region", name="Workspace").get_by_role("group", name="Ship policy")
    await expect(policy).to_have_accessible_description(
        re.compile(r"^Changing these needs the Admin role")
    )
    margin = policy.get_by_role("spinbutton", name="Quality margin (points)")
    await expect(margin).to_have_value("2")
    await expect(margin).to_be_disabled()
    await expect(policy.get_by_role("button", name="Add guardrail")).to_be_disabled()
    await expect(
        policy.get_by_role("group", name="Guardrail 1").get_by_role(
            "spinbutton", name="Max increase (points)"
        )
    ).to_be_disabled()
    assert await axe_violations(page) == []
    assert page.console_errors == []
