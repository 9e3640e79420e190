"""`/prompts` ("Prompts and models"): an asset's versions, the text diff between two, and
"Compare on a dataset" from one version or two, opening New comparison prefilled; a prompt's
gate ship policy set in "Gate settings" and the compare form starting from it."""

from __future__ import annotations

import asyncio
import re
from typing import Any

from playwright.async_api import Route, expect

from bench.kit.factories import make_asset_version, make_dataset, make_release, make_workspace
from bench.kit.harness import Backend
from server.assets.models import AssetKind
from server.workspaces.roles import Role
from tests.portal.harness import (
    axe_violations,
    sign_in,
)

GATE_POLICY = """query { assets(kind: PROMPT_TEMPLATE, first: 100) { edges { node { id
  gateSettings { shipPolicy { qualityMarginPoints alpha requireGain } } } } } }"""


def _messages(system: str) -> dict[str, Any]:
    return {
        "messages": [{"role": "system", "content": system}, {"role": "user", "content": "{{ q }}"}]
    }


async def test_two_versions_diff_and_open_new_comparison_prefilled(
    sqlite_backend: Backend,
    portal_page: Any,
) -> None:
    page = portal_page
    ws = await make_workspace(sqlite_backend.sessionmaker)
    kind = AssetKind.PROMPT_TEMPLATE
    v1 = await make_asset_version(
        sqlite_backend.sessionmaker, ws, kind=kind, content=_messages("Be brief."), name="tone"
    )
    v2 = await make_asset_version(
        sqlite_backend.sessionmaker,
        ws,
        kind=kind,
        content=_messages("Be brief and kind."),
        name="tone",
    )
    release = await make_release(
        sqlite_backend.sessionmaker, ws, name="tone-release", prompt_version_id=v1.id
    )
    await sign_in(
        page, sqlite_backend.base_url, ws.tokens[Role.MEMBER], f"/prompts?asset={v1.asset_id}"
    )
    panel = page.get_by_role("region", name="tone (Prompt template)")
    await expect(panel.get_by_role("combobox", name="Version", exact=True)).to_have_value(v2.id)
    await expect(panel.get_by_role("figure", name="Version 2 content")).to_contain_text(
        "Be brief and kind."
    )
    changes = panel.get_by_role("region", name="Changes")
    await expect(changes.locator("del")).to_have_text("Be brief.")
    await expect(changes.locator("ins")).to_have_text("Be brief and kind.")
    assert await axe_violations(page) == []

    await panel.get_by_role("button", name="Compare these two on a dataset").click()
    await page.get_by_role("heading", name="New comparison").wait_for()
    for n, version in ((1, v2), (2, v1)):
        group = page.get_by_role("group", name=re.compile(rf"^Cohort {n}\b"))
        await expect(group.get_by_role("combobox", name="Base release")).to_have_value(release.id)
        override = group.get_by_role("group", name="Override 1")
        await expect(override.get_by_role("combobox", name="Role")).to_have_value("PROMPT_TEMPLATE")
        await expect(override.get_by_role("combobox", name="Asset version")).to_have_value(
            version.id
        )

    await page.go_back()
    panel = page.get_by_role("region", name="tone (Prompt template)")
    await panel.get_by_role("button", name="Compare on a dataset").click()
    candidate = page.get_by_role("group", name="Cohort 1 (Candidate)")
    await expect(candidate.get_by_role("combobox", name="Base release")).to_have_value(release.id)
    baseline = page.get_by_role("group", name="Cohort 2", exact=True)
    await expect(baseline.get_by_role("combobox", name="Release")).to_have_value(release.id)
    assert page.console_errors == []


async def test_compare_waits_for_the_release_it_would_take_as_its_base(
    sqlite_backend: Backend,
    portal_page: Any,
) -> None:
    """The releases are read beside the assets: until they answer, a "Compare on a dataset"
    link would lose its base release, so the button waits for them."""
    page = portal_page
    ws = await make_workspace(sqlite_backend.sessionmaker)
    version = await make_asset_version(
        sqlite_backend.sessionmaker,
        ws,
        kind=AssetKind.PROMPT_TEMPLATE,
        content=_messages("Be brief."),
        name="tone",
    )
    release = await make_release(
        sqlite_backend.sessionmaker, ws, name="tone-release", prompt_version_id=version.id
    )
    releases_answer = asyncio.Event()

    async def hold_releases(route: Route) -> None:
        if "ReleasesUsing" in (route.request.post_data or ""):
            await releases_answer.wait()
        await route.continue_()

    await page.route("**/graphql", hold_releases)
    await sign_in(
        page, sqlite_backend.base_url, ws.tokens[Role.MEMBER], f"/prompts?asset={version.asset_id}"
    )
    panel = page.get_by_role("region", name="tone (Prompt template)")
    compare = panel.get_by_role("button", name="Compare on a dataset")
    await expect(panel.get_by_role("figure", name="Version 1 content")).to_contain_text("Be brief.")
    await expect(compare).to_be_disabled()
    releases_answer.set()
    await expect(compare).to_be_enabled()
    await compare.click()
    candidate = page.get_by_role("group", name="Cohort 1 (Candidate)")
    await expect(candidate.get_by_role("combobox", name="Base release")).to_have_value(release.id)


async def test_a_gate_ship_policy_set_in_gate_settings_starts_the_compare_form(
    sqlite_backend: Backend,
    portal_page: Any,
) -> None:
    backend, page = sqlite_backend, portal_page
    ws = await make_workspace(backend.sessionmaker)
    await make_dataset(backend.sessionmaker, ws, cases=3, name="gate-one")
    v1 = await make_asset_version(
        backend.sessionmaker, ws, kind=AssetKind.PROMPT_TEMPLATE, content=_messages("A"), name="qa"
    )
    await sign_in(page, backend.base_url, ws.tokens[Role.MEMBER], f"/prompts?asset={v1.asset_id}")
    settings = page.get_by_role("region", name="Gate settings")
    own = settings.get_by_role("checkbox", name="Gate ship policy of its own")
    await expect(own).not_to_be_checked()
    await expect(settings.get_by_role("group", name="Ship policy")).to_have_count(0)
    await own.check()
    policy = settings.get_by_role("group", name="Ship policy")
    margin = policy.get_by_role("spinbutton", name="Quality margin (points)")
    await expect(margin).to_have_value("2")  # a new one starts as the workspace's default
    await margin.fill("7.5")
    await policy.get_by_role("combobox", name="Required gain").select_option(label="Lower cost")
    save = settings.get_by_role("button", name="Save gate settings")
    await settings.get_by_role("spinbutton", name="Alpha").fill("")
    await expect(save).to_be_disabled()
    await settings.get_by_role("spinbutton", name="Alpha").fill("0.1")
    await save.click()
    await expect(settings.get_by_role("status")).to_have_text("Gate settings saved.")
    stored = (await backend.gql(GATE_POLICY, token=ws.owner)).ok()
    (gate,) = [
        e["node"]["gateSettings"]
        for e in stored["assets"]["edges"]
        if e["node"]["id"] == v1.asset_id
    ]
    assert gate["shipPolicy"] == {"qualityMarginPoints": 7.5, "alpha": 0.1, "requireGain": "COST"}
    assert await axe_violations(page) == []

    await page.reload()
    await expect(own).to_be_checked()
    await expect(margin).to_have_value("7.5")
    await page.get_by_role("button", name="Compare on a dataset", exact=True).click()
    await page.get_by_role("heading", name="New comparison").wait_for()
    form_policy = page.get_by_role("group", name="Ship policy")
    await expect(form_policy).to_contain_text("It starts as the prompt's gate settings' policy.")
    await expect(
        form_policy.get_by_role("spinbutton", name="Quality margin (points)")
    ).to_have_value("7.5")
    await expect(form_policy.get_by_role("spinbutton", name="Alpha")).to_have_value("0.1")
    await expect(form_policy.get_by_role("combobox", name="Required gain")).to_have_value("COST")
    await expect(
        form_policy.get_by_role("group", name="Guardrail 1").get_by_role(
            "spinbutton", name="Max increase (points)"
        )
    ).to_have_value("5")

    # Without its own policy again, the form starts from the workspace's default, as before.
    await page.go_back()
    await own.uncheck()
    await save.click()
    await expect(settings.get_by_role("status")).to_have_text("Gate settings saved.")
    await page.reload()
    await expect(own).not_to_be_checked()
    await page.get_by_role("button", name="Compare on a dataset", exact=True).click()
    await page.get_by_role("heading", name="New comparison").wait_for()
    await expect(form_policy).to_contain_text("It starts as the workspace's default.")
    await expect(
        form_policy.get_by_role("spinbutton", name="Quality margin (points)")
    ).to_have_value("2")
    assert page.console_errors == []
