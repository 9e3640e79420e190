"""The setup panel (`/comparisons/new`): cohorts (a release and a variant with an override),
dataset and options, the debounced preview in seed 002's words, its warnings and blockers,
Run's reason while it is disabled, and Run creating and starting the comparison."""

from __future__ import annotations

import re
from typing import Any

from playwright.async_api import expect

from bench.kit.factories import (
    ComparisonSetup,
    make_comparison_setup,
    make_prompt_version,
    make_workspace,
)
from bench.kit.harness import Backend
from server.workspaces.roles import Role
from tests.portal.harness import (
    Requests,
    axe_violations,
    screenshot,
    sign_in,
)

PREVIEW = """
query($input: CreateComparisonInput!) { comparisonPreview(input: $input) {
  summary connections { text } } }
"""
COMPARISON = """
query($id: ID!) { comparison(id: $id) {
  status label trialsPerCase split caseCount budgetCapCents
  cohorts { cohortIndex kind label isCandidate } } }
"""


def run_button(page: Any, name: str = "Run") -> Any:
    return page.get_by_role("button", name=name, exact=True)


async def choose_cohorts(page: Any, setup: ComparisonSetup, override_version_id: str) -> None:
    """Cohort 1 the candidate release; cohort 2 a variant of the second release whose prompt
    template is `override_version_id`."""
    await page.get_by_role("button", name="Add release cohort").click()
    candidate = page.get_by_role("group", name="Cohort 1 (Candidate)", exact=True)
    await candidate.get_by_role("combobox", name="Release").select_option(setup.release_ids[0])
    await candidate.get_by_role("textbox", name="Label").fill("candidate")

    await page.get_by_role("button", name="Add variant cohort").click()
    variant = page.get_by_role("group", name="Cohort 2", exact=True)
    await variant.get_by_role("combobox", name="Base release").select_option(setup.release_ids[1])
    override = variant.get_by_role("group", name="Override 1")
    await override.get_by_role("combobox", name="Role").select_option(label="Prompt template")
    versions = override.get_by_role("combobox", name="Asset version")
    await expect(versions.locator("option", has_text="refund-prompt v2")).to_have_count(1)
    await versions.select_option(override_version_id)
    await variant.get_by_role("textbox", name="Label").fill("refund v2")


async def a_setup(backend: Backend) -> tuple[ComparisonSetup, str]:
    """24 DEV + 5 HOLDOUT cases, two releases, and version 2 of a "refund-prompt"."""
    ws = await make_workspace(backend.sessionmaker)
    setup = await make_comparison_setup(backend.sessionmaker, ws, cases=24, holdout_cases=5)
    await make_prompt_version(backend.sessionmaker, ws, name="refund-prompt", text="{{ question }}")
    v2 = await make_prompt_version(
        backend.sessionmaker, ws, name="refund-prompt", text="Refunds: {{ question }}"
    )
    return setup, v2.id


async def test_the_panel_builds_a_release_vs_variant_comparison_and_runs_it(
    sqlite_backend: Backend,
    portal_page: Any,
) -> None:
    page = portal_page
    setup, override_id = await a_setup(sqlite_backend)
    member = setup.workspace.tokens[Role.MEMBER]
    requests = Requests(page, sqlite_backend.base_url)
    await sign_in(page, sqlite_backend.base_url, member, "/comparisons/new")
    await page.get_by_role("heading", name="New comparison").wait_for()
    comparing = page.get_by_role("group", name="Comparing", exact=True)
    await comparing.wait_for()
    await expect(run_button(page)).to_be_disabled()
    await expect(run_button(page)).to_have_accessible_description(
        "Choose two cohorts and a dataset."
    )

    await choose_cohorts(page, setup, override_id)
    await expect(run_button(page)).to_have_accessible_description(
        "Choose two cohorts and a dataset."
    )
    await page.get_by_role("combobox", name="On dataset").select_option(setup.dataset_id)
    version = page.get_by_role("combobox", name="Version", exact=True)
    await expect(version).to_have_value(setup.dataset_version_id)  # the latest sealed
    trials = page.get_by_role("spinbutton", name="Trials per case")
    await expect(trials).to_have_value("3")
    checks = page.get_by_role("group", name="Checks")
    await expect(
        checks.get_by_role("checkbox", name="Contains the expected output")
    ).to_be_checked()
    await expect(
        checks.get_by_role("checkbox", name="Matches the expected output")
    ).not_to_be_checked()
    await expect(page.get_by_role("spinbutton", name="Budget cap (cents)")).to_have_value("")
    await expect(page.get_by_role("spinbutton", name="Sample size")).to_have_value("")

    await trials.fill("1")
    preview = page.get_by_role("region", name="Preview")
    await preview.get_by_text("Use at least 3 trials to see flips.").wait_for()
    want = (
        await sqlite_backend.gql(
            PREVIEW,
            {
                "input": {
                    "datasetVersionId": setup.dataset_version_id,
                    "trialsPerCase": 1,
                    "cohorts": [
                        {"kind": "RELEASE", "releaseId": setup.release_ids[0]},
                        {
                            "kind": "VARIANT",
                            "baseReleaseId": setup.release_ids[1],
                            "overrides": [
                                {"role": "PROMPT_TEMPLATE", "assetVersionId": override_id}
                            ],
                        },
                    ],
                }
            },
            token=member,
        )
    ).ok()["comparisonPreview"]
    sentence = " ".join([want["summary"], *(c["text"] for c in want["connections"])])
    assert sentence.startswith(
        "Up to 48 model calls: 24 for each cohort, judge calls included. Up to $"
    ) and sentence.endswith("spent this month, no monthly cap.")
    await preview.get_by_text(sentence, exact=True).wait_for()
    await preview.get_by_text("question ← input.question · found in 24 of 24 cases").wait_for()
    await expect(run_button(page)).to_be_enabled()
    await expect(run_button(page)).to_have_accessible_description("")
    assert await axe_violations(page) == []
    await screenshot(page, "new-comparison")

    # The holdout: a look at it, and 5 cases give no verdict: "Run it anyway".
    await page.get_by_role("combobox", name="Split").select_option(label="Holdout")
    await preview.get_by_text(
        re.compile(r"^This comparison counts as a look at the holdout")
    ).wait_for()
    anyway = run_button(page, "Run it anyway")
    await expect(anyway).to_be_enabled()
    await expect(anyway).to_have_accessible_description(
        "This run gives no verdict: a verdict needs at least 20 cases, and this split has 5."
    )
    await page.get_by_role("combobox", name="Split").select_option(label="Dev")
    await expect(run_button(page)).to_be_enabled()

    await page.get_by_role("spinbutton", name="Budget cap (cents)").fill("500")
    await page.get_by_role("textbox", name="Comparison label").fill("refund prompt check")
    await run_button(page).click()
    await page.wait_for_url(re.compile(r"/comparisons/cmp_[0-9a-z]+$"))
    comparison_id = page.url.rsplit("/", 1)[1]
    made = (await sqlite_backend.gql(COMPARISON, {"id": comparison_id}, token=member)).ok()
    comparison = made["comparison"]
    assert comparison["status"] in ("RUNNING", "DONE")
    assert (comparison["label"], comparison["budgetCapCents"]) == ("refund prompt check", 500)
    assert (comparison["trialsPerCase"], comparison["split"], comparison["caseCount"]) == (
        1,
        "DEV",
        24,
    )
    assert [(c["kind"], c["label"], c["isCandidate"]) for c in comparison["cohorts"]] == [
        ("RELEASE", "candidate", True),
        ("VARIANT", "refund v2", False),
    ]
    assert page.console_errors == []
    assert requests.outside() == []


async def test_run_says_why_it_is_disabled(
    sqlite_backend: Backend,
    portal_page: Any,
) -> None:
    page = portal_page
    setup, override_id = await a_setup(sqlite_backend)
    await sign_in(page, sqlite_backend.base_url, setup.workspace.tokens[Role.MEMBER])
    await page.goto(f"{sqlite_backend.base_url}/comparisons/new")
    add = page.get_by_role("button", name="Add release cohort")
    for n in (1, 2):  # from the keyboard: the new cohort's release picker takes the focus
        await add.press("Enter")
        group = page.get_by_role("group", name=re.compile(rf"^Cohort {n}\b"))
        await expect(group.get_by_role("combobox", name="Release")).to_be_focused()
    await page.get_by_role("combobox", name="On dataset").select_option(setup.dataset_id)
    await expect(run_button(page)).to_have_accessible_description(
        "Choose a release for Cohort 1 (Candidate)."
    )
    for n in (1, 2):  # the same release twice: the first blocker is the reason
        group = page.get_by_role("group", name=re.compile(rf"^Cohort {n}\b"))
        await group.get_by_role("combobox", name="Release").select_option(setup.release_ids[0])
    blocked = re.compile(r"^Cohorts 1 and 2 bind the same versions")
    await expect(run_button(page)).to_have_accessible_description(blocked)
    await page.get_by_role("region", name="Preview").get_by_text(blocked).wait_for()
    await expect(run_button(page)).to_be_disabled()

    await (
        page.get_by_role("group", name="Cohort 2", exact=True)
        .get_by_role("button", name="Remove cohort")
        .click()
    )
    await page.get_by_role("button", name="Add variant cohort").click()
    variant = page.get_by_role("group", name="Cohort 2", exact=True)
    await variant.get_by_role("combobox", name="Base release").select_option(setup.release_ids[1])
    await expect(run_button(page)).to_have_accessible_description(
        re.compile(r"^Choose a role and an asset version for each override of Cohort 2")
    )
    await variant.get_by_role("button", name="Add override").click()
    for n in (1, 2):  # the prompt template overridden twice: refused, naming the role
        override = variant.get_by_role("group", name=f"Override {n}")
        await override.get_by_role("combobox", name="Role").select_option(label="Prompt template")
        await override.get_by_role("combobox", name="Asset version").select_option(override_id)
    alert = page.get_by_role("region", name="Preview").get_by_role("alert")
    await expect(alert).to_contain_text("bind prompt_template more than once")
    await expect(alert).to_contain_text("VALIDATION_FAILED")
    await expect(run_button(page)).to_be_disabled()
    await expect(run_button(page)).to_have_accessible_description(
        re.compile("bind prompt_template more than once")
    )
    await (
        variant.get_by_role("group", name="Override 2")
        .get_by_role("button", name="Remove override")
        .click()
    )
    await expect(run_button(page)).to_be_enabled()

    await page.get_by_role("spinbutton", name="Sample size").fill("10")
    anyway = run_button(page, "Run it anyway")
    await expect(anyway).to_have_accessible_description(
        "This run gives no verdict: a verdict needs at least 20 cases, and this selection has 10."
    )
    await (
        page.get_by_role("region", name="Preview")
        .get_by_text(re.compile(r"^10 of 24 cases of the Dev split"))
        .wait_for()
    )
    assert page.console_errors == []


async def test_a_viewer_sees_the_panel_with_run_disabled_for_the_role(
    sqlite_backend: Backend,
    portal_page: Any,
) -> None:
    page = portal_page
    setup, override_id = await a_setup(sqlite_backend)
    await sign_in(page, sqlite_backend.base_url, setup.workspace.tokens[Role.VIEWER])
    await page.goto(f"{sqlite_backend.base_url}/comparisons/new")
    await choose_cohorts(page, setup, override_id)
    await page.get_by_role("combobox", name="On dataset").select_option(setup.dataset_id)
    preview = page.get_by_role("region", name="Preview")
    await preview.get_by_text("Your role can read comparisons. A member can run them.").wait_for()
    await expect(run_button(page)).to_be_disabled()
    await expect(run_button(page)).to_have_accessible_description("Needs the Member role")
    assert await axe_violations(page) == []
    assert page.console_errors == []


async def test_forms_say_what_is_wrong_at_the_field_and_a_capped_run_says_so(
    sqlite_backend: Backend,
    portal_page: Any,
) -> None:
    """Trials 0 or 1,000,000 and a cap of −5 are refused at their field in words; a cap below
    one case's cost bound is a warning in the preview; the run it makes stops on the cap and
    its status says so."""
    page = portal_page
    ws = await make_workspace(sqlite_backend.sessionmaker)
    setup = await make_comparison_setup(
        sqlite_backend.sessionmaker, ws, cases=24, output_cents_per_million_tokens=100_000.0
    )
    await sign_in(page, sqlite_backend.base_url, ws.tokens[Role.MEMBER], "/comparisons/new")
    for n, release_id in enumerate(setup.release_ids[:2], start=1):
        await page.get_by_role("button", name="Add release cohort").click()
        group = page.get_by_role("group", name=re.compile(rf"^Cohort {n}\b"))
        await group.get_by_role("combobox", name="Release").select_option(release_id)
    await page.get_by_role("combobox", name="On dataset").select_option(setup.dataset_id)
    trials = page.get_by_role("spinbutton", name="Trials per case")
    for typed in ("0", "1000000"):
        await trials.fill(typed)
        await expect(trials).to_have_attribute("aria-invalid", "true")
        await expect(trials).to_have_accessible_description("Trials per case must be from 1 to 10.")
        await expect(run_button(page)).to_be_disabled()
    await trials.fill("1")
    await expect(trials).not_to_have_attribute("aria-invalid", "true")
    cap = page.get_by_role("spinbutton", name="Budget cap (cents)")
    await cap.fill("-5")
    await expect(cap).to_have_accessible_description(
        "A budget cap cannot be below zero: give an amount in cents, or leave it empty for no cap."
    )
    assert await axe_violations(page) == []
    await cap.fill("0.01")
    warnings = page.get_by_role("region", name="Preview").get_by_role("list", name="Warnings")
    await expect(warnings).to_contain_text(
        re.compile(r"^The budget cap \([^)]+\) is below what one case may cost \(up to ")
    )
    await expect(run_button(page)).to_be_enabled()
    await run_button(page).click()
    await page.wait_for_url(re.compile(r"/comparisons/cmp_[0-9a-z]+$"))
    main = page.get_by_role("main")
    await expect(main).to_contain_text("Status: Stopped at the budget cap", timeout=60_000)
    assert page.console_errors == []


LOWER_CALL_LIMIT = """
mutation($value: Int!) {
  updateWorkspaceSettings(input: {maxCallsPerComparison: $value}) { id } }
"""


async def test_a_comparison_over_the_workspaces_call_limit_cannot_run_and_says_so(
    sqlite_backend: Backend,
    portal_page: Any,
) -> None:
    page = portal_page
    setup = await make_comparison_setup(
        sqlite_backend.sessionmaker, await make_workspace(sqlite_backend.sessionmaker), cases=24
    )
    tokens = setup.workspace.tokens
    lowered = await sqlite_backend.gql(LOWER_CALL_LIMIT, {"value": 120}, token=tokens[Role.ADMIN])
    lowered.ok()
    await sign_in(page, sqlite_backend.base_url, tokens[Role.MEMBER], "/comparisons/new")
    for n in (1, 2):
        await page.get_by_role("button", name="Add release cohort").click()
        group = page.get_by_role("group", name=re.compile(rf"^Cohort {n}\b"))
        await group.get_by_role("combobox", name="Release").select_option(setup.release_ids[n - 1])
    await page.get_by_role("combobox", name="On dataset").select_option(setup.dataset_id)
    # 24 cases × 2 cohorts × 3 trials (the default) = 144 calls against a limit of 120.
    over = "This comparison would make 144 model calls; a comparison makes at most 120."
    blockers = page.get_by_role("region", name="Preview").get_by_role("list", name="Blockers")
    await expect(blockers).to_contain_text(over)
    await expect(run_button(page)).to_be_disabled()
    await expect(run_button(page)).to_have_accessible_description(re.compile(f"^{over}"))

    await page.get_by_role("spinbutton", name="Sample size").fill("20")  # 120 calls: allowed
    await expect(blockers).to_have_count(0)
    await expect(run_button(page)).to_be_enabled()
    assert page.console_errors == []
