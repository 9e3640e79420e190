"""The whole workplace (docs/portal.md): from a fresh workspace's owner token to a signed-off
decision in the browser alone — a model connection, a dataset uploaded, two prompt versions
and a model config, two releases, a second admin and a token, a setting turned on, a
comparison run, its outputs reviewed, a report, follow-ups resolved and a sign-off.

Elements are found by role and accessible name only; the test makes no GraphQL call of its own
(the workspace itself comes from `shipwise workspace create`'s service, as a person's does).
"""

from __future__ import annotations

import json
import re
from typing import Any

from playwright.async_api import expect

from bench.kit.harness import Backend
from server.workspaces import service
from tests.portal.harness import (
    Requests,
    axe_violations,
    screenshot,
    sign_in,
)

CASES = 30
CAPITALS = [
    ("France", "Paris"), ("Peru", "Lima"), ("Japan", "Tokyo"), ("Kenya", "Nairobi"),
    ("Chile", "Santiago"), ("Egypt", "Cairo"), ("Spain", "Madrid"), ("Ghana", "Accra"),
    ("Italy", "Rome"), ("Cuba", "Havana"),
]  # fmt: skip


def dataset_file() -> bytes:
    """30 cases as JSONL: the question for the template's `{{ question }}`, the capital."""
    lines = []
    for n in range(CASES):
        country, capital = CAPITALS[n % len(CAPITALS)]
        case = {
            "datasetItemId": f"q-{n:02d}",
            "input": {"question": f"What is the capital of {country}? ({n})"},
            "expected": capital,
        }
        lines.append(json.dumps(case))
    return ("\n".join(lines) + "\n").encode()


async def fresh_owner_token(backend: Backend) -> str:
    """A new workspace and its owner's token, as `shipwise workspace create` prints it."""
    async with backend.sessionmaker() as session, session.begin():
        _, issued = await service.create_workspace(session=session, name="newcomer")
    return issued.secret


async def _no_violations(page: Any, where: str) -> None:
    assert await axe_violations(page) == [], where


async def _nav(page: Any, name: str, heading: str) -> None:
    await page.get_by_role("navigation", name="Main").get_by_role("link", name=name).click()
    await page.get_by_role("heading", name=heading, exact=True).wait_for()


async def add_connection(page: Any) -> None:
    await _nav(page, "Settings", "Settings")
    connections = page.get_by_role("table", name="Model connections")
    await connections.get_by_text("No model connections yet").wait_for()
    await page.get_by_role("button", name="Add connection").click()
    dialog = page.get_by_role("dialog", name="Model connection")
    await dialog.get_by_role("combobox", name="Kind").select_option(label="Simulated")
    await dialog.get_by_role("button", name="Add and check").click()
    await expect(dialog.get_by_text("Give the connection a name.")).to_be_visible()
    await dialog.get_by_role("textbox", name="Name").fill("practice-model")
    await dialog.get_by_role("textbox", name="Accuracy").fill("0.7")
    await _no_violations(page, "connection dialog")
    await dialog.get_by_role("button", name="Add and check").click()
    await expect(dialog).to_be_hidden()
    row = connections.get_by_role("row", name=re.compile(r"^practice-model Simulated"))
    await expect(row).to_contain_text("Ready: a simulated connection answers without a provider")


async def upload_dataset(page: Any) -> None:
    await _nav(page, "Datasets", "Datasets")
    await page.get_by_role("button", name="Upload dataset").click()
    dialog = page.get_by_role("dialog", name="Upload dataset")
    # A file with bad lines: they are listed by number and nothing is sent.
    egypt = b'"input": {"question": "What is the capital of Egypt? (5)"}, '
    bad = dataset_file().replace(b'"q-03"', b'"q-01"').replace(egypt, b"")
    await dialog.get_by_label("Dataset file (JSONL or CSV)").set_input_files(
        files=[{"name": "capitals.jsonl", "mimeType": "application/jsonl", "buffer": bad}]
    )
    await expect(dialog.get_by_role("textbox", name="Name")).to_have_value("capitals")
    await dialog.get_by_role("button", name="Upload").click()
    lines = dialog.get_by_role("list", name="Bad lines")
    await expect(lines.get_by_role("listitem")).to_have_text(
        ['Line 4: datasetItemId "q-01" repeats line 2', "Line 6: input is missing"]
    )
    await _no_violations(page, "upload dialog with bad lines")
    good = dataset_file()
    await dialog.get_by_label("Dataset file (JSONL or CSV)").set_input_files(
        files=[{"name": "capitals.jsonl", "mimeType": "application/jsonl", "buffer": good}]
    )
    await dialog.get_by_role("button", name="Upload").click()
    await expect(dialog.get_by_role("progressbar", name="Upload")).to_be_visible()
    await dialog.get_by_text(f"{CASES} cases uploaded").wait_for()
    await dialog.get_by_role("button", name="Seal").click()
    await dialog.get_by_text(f"Version 1 is sealed with {CASES} cases.").wait_for()
    await dialog.get_by_role("button", name="Close").click()
    datasets = page.get_by_role("table", name="Datasets")
    row = datasets.get_by_role("row", name=re.compile(r"^capitals Version 1 30 "))
    await expect(row).to_be_visible()


async def write_prompts_and_model(page: Any) -> None:
    await _nav(page, "Prompts and models", "Prompts and models")
    await page.get_by_role("button", name="New prompt template").click()
    dialog = page.get_by_role("dialog", name="New prompt template")
    await dialog.get_by_role("textbox", name="Name").fill("capitals")
    system = dialog.get_by_role("group", name="Message 1")
    await system.get_by_role("textbox", name="Content").fill("Answer with the city only.")
    user = dialog.get_by_role("group", name="Message 2")
    await user.get_by_role("textbox", name="Content").fill("{{ question }}")
    await expect(dialog.get_by_text("Variables found: question")).to_be_visible()
    await _no_violations(page, "prompt editor")
    await dialog.get_by_role("button", name="Save version").click()
    await expect(dialog).to_be_hidden()

    panel = page.get_by_role("region", name=re.compile(r"^capitals \(Prompt template\)"))
    await panel.get_by_role("button", name="New version").click()
    dialog = page.get_by_role("dialog", name="New version")
    system = dialog.get_by_role("group", name="Message 1")
    await system.get_by_role("textbox", name="Content").fill(
        "You are a geography teacher. Answer with the capital city only, no punctuation."
    )
    await dialog.get_by_role("button", name="Save version").click()
    await expect(dialog).to_be_hidden()
    panel = page.get_by_role("region", name=re.compile(r"^capitals \(Prompt template\)"))
    await expect(panel.get_by_role("combobox", name="From version")).to_have_value(re.compile(".+"))
    changes = panel.get_by_role("region", name="Changes")
    await expect(changes.locator("ins")).to_contain_text("geography teacher")
    await expect(changes.locator("del")).to_contain_text("Answer with the city only.")

    await page.get_by_role("button", name="New model config").click()
    dialog = page.get_by_role("dialog", name="New model config")
    await dialog.get_by_role("textbox", name="Name").fill("practice")
    await dialog.get_by_role("button", name="Save version").click()
    await expect(dialog.get_by_text("Choose a model connection.")).to_be_visible()
    await dialog.get_by_role("combobox", name="Model connection").select_option(
        label="practice-model (simulated)"
    )
    await dialog.get_by_role("textbox", name="Model").fill("sim-1")
    await dialog.get_by_role("button", name="Save version").click()
    await expect(dialog).to_be_hidden()
    await _no_violations(page, "prompts and models")
    await screenshot(page, "prompts")


async def make_releases(page: Any) -> None:
    await _nav(page, "Releases", "Releases")
    for name, prompt in (("capitals-v1", "capitals v1"), ("capitals-v2", "capitals v2")):
        await page.get_by_role("button", name="New release").click()
        dialog = page.get_by_role("dialog", name="New release")
        await dialog.get_by_role("textbox", name="Release name").fill(name)
        await dialog.get_by_role("combobox", name="Prompt template").select_option(label=prompt)
        await dialog.get_by_role("combobox", name="Model config").select_option(label="practice v1")
        await dialog.get_by_role("button", name="Make release").click()
        await expect(dialog).to_be_hidden()
        await (
            page.get_by_role("table", name="Releases")
            .get_by_role("row", name=re.compile(rf"^{name} "))
            .wait_for()
        )


async def add_second_admin(page: Any) -> str:
    """A second admin and a token for them, made on /settings; the secret as shown once."""
    await _nav(page, "Settings", "Settings")
    await page.get_by_role("button", name="Add member").click()
    dialog = page.get_by_role("dialog", name="Add member")
    await dialog.get_by_role("textbox", name="Name").fill("Reviewer")
    await dialog.get_by_role("combobox", name="Role").select_option(label="Admin")
    await dialog.get_by_role("button", name="Add").click()
    await expect(dialog).to_be_hidden()
    members = page.get_by_role("table", name="Members")
    row = members.get_by_role("row", name=re.compile(r"^Reviewer"))
    await expect(row.get_by_role("combobox", name="Role")).to_have_value("ADMIN")

    await page.get_by_role("button", name="Create token").click()
    dialog = page.get_by_role("dialog", name="Create token")
    await dialog.get_by_role("textbox", name="Token name").fill("reviewer laptop")
    await dialog.get_by_role("combobox", name="For member").select_option(label="Reviewer (Admin)")
    await dialog.get_by_role("button", name="Create").click()
    secret = dialog.get_by_role("textbox", name="New token")
    await expect(secret).to_have_value(re.compile(r"^sw_\S+$"))
    token: str = await secret.input_value()
    await expect(dialog.get_by_role("button", name="Copy")).to_be_visible()
    await _no_violations(page, "token shown once")
    await dialog.get_by_role("button", name="Close").click()
    tokens = page.get_by_role("table", name="API tokens")
    await expect(tokens.get_by_role("row", name=re.compile(r"^reviewer laptop"))).to_contain_text(
        "Reviewer"
    )
    await expect(page.get_by_role("textbox", name="New token")).to_have_count(0)  # once only
    assert token not in await page.content()
    return token


async def turn_a_setting_on(page: Any) -> None:
    workspace = page.get_by_role("region", name="Workspace")
    box = workspace.get_by_role("checkbox", name="Allow self sign-off")
    await expect(box).not_to_be_checked()
    await box.check()
    await workspace.get_by_role("button", name="Save").click()
    await workspace.get_by_role("status").filter(has_text="Saved.").wait_for()
    await page.reload()
    workspace = page.get_by_role("region", name="Workspace")
    await expect(workspace.get_by_role("checkbox", name="Allow self sign-off")).to_be_checked()
    await _no_violations(page, "settings")
    await screenshot(page, "settings")


async def run_a_comparison(page: Any) -> str:
    await _nav(page, "Releases", "Releases")
    releases = page.get_by_role("table", name="Releases")
    row = releases.get_by_role("row", name=re.compile("^capitals-v2 "))
    await row.get_by_role("button", name="Compare on a dataset").click()
    await page.get_by_role("heading", name="New comparison").wait_for()
    candidate = page.get_by_role("group", name="Cohort 1 (Candidate)")
    await expect(candidate.get_by_role("combobox", name="Release")).to_have_value(re.compile(".+"))
    await expect(
        candidate.get_by_role("combobox", name="Release").locator("option:checked")
    ).to_have_text("capitals-v2")
    await page.get_by_role("button", name="Add release cohort").click()
    baseline = page.get_by_role("group", name="Cohort 2", exact=True)
    await baseline.get_by_role("combobox", name="Release").select_option(label="capitals-v1")
    dataset = page.get_by_role("combobox", name="On dataset")
    await dataset.select_option(label="capitals — 30 cases, v1")
    await page.get_by_text("Up to 180 model calls").wait_for()
    await page.get_by_role("button", name="Run", exact=True).click()
    await page.wait_for_url(re.compile(r"/comparisons/cmp_\w+$"))
    await page.get_by_role("region", name="Verdict").wait_for(timeout=60_000)
    return str(page.url)


async def review_outputs(page: Any) -> None:
    """The Cases table: a column per cohort with each trial's output; J and K between rows;
    the case dialog with Previous case and Next case."""
    analysis = page.get_by_role("region", name="Failure analysis")
    await analysis.get_by_role("tab", name=re.compile(r"^All \(\d+\)$")).click()
    cases = analysis.get_by_role("table", name="Cases")
    head = cases.get_by_role("row").first
    await expect(head.get_by_role("columnheader")).to_have_text(
        ["Case", "capitals-v2 (candidate)", "capitals-v1", "Debug"]
    )
    first = cases.get_by_role("row", name=re.compile(r"^q-00 "))
    await expect(first.get_by_role("cell").first).to_contain_text(re.compile("Passed|Failed"))
    await page.keyboard.press("j")
    await expect(first.get_by_role("button", name="Debug")).to_be_focused()
    await page.keyboard.press("j")
    second = cases.get_by_role("row", name=re.compile(r"^q-01 "))
    await expect(second.get_by_role("button", name="Debug")).to_be_focused()
    await page.keyboard.press("k")
    await expect(first.get_by_role("button", name="Debug")).to_be_focused()
    await _no_violations(page, "cases table")
    await page.keyboard.press("Enter")
    dialog = page.get_by_role("dialog", name="Case q-00")
    await dialog.wait_for()
    await expect(dialog.get_by_role("button", name="Previous case")).to_be_disabled()
    await dialog.get_by_role("button", name="Next case").click()
    dialog = page.get_by_role("dialog", name="Case q-01")
    await expect(dialog.get_by_role("region", name="capitals-v1")).to_be_visible()
    await _no_violations(page, "case dialog")
    await screenshot(page, "case-dialog-side-by-side")
    await page.keyboard.press("Escape")
    await expect(dialog).to_be_hidden()


async def report_and_resolve(page: Any) -> None:
    reports = page.get_by_role("region", name="Reports")
    await reports.get_by_role("button", name="Generate report").click()
    await reports.get_by_role("link", name="Open report page").wait_for()
    follow_ups = reports.get_by_role("table", name="Follow-ups")
    boxes = follow_ups.get_by_role("checkbox")
    await boxes.first.wait_for()
    for index in range(await boxes.count()):
        await boxes.nth(index).check()
    await reports.get_by_role("button", name="Resolve selected").click()
    resolve = page.get_by_role("dialog", name="Resolve follow-ups")
    await resolve.get_by_role("textbox", name="Note").fill("Looked at each: the v1 prompt guessed.")
    await resolve.get_by_role("button", name="Resolve").click()
    await expect(resolve).to_be_hidden()
    await expect(follow_ups.get_by_role("checkbox")).to_have_count(0)


async def sign_off_as(page: Any, token: str, comparison_url: str) -> None:
    await page.get_by_role("button", name="Sign out").click()
    await page.get_by_role("textbox", name="API token").fill(token)
    await page.get_by_role("button", name="Sign in").click()
    await page.get_by_role("heading", name="Comparisons", exact=True).wait_for()
    await expect(page.get_by_role("banner")).to_contain_text("Reviewer")
    await page.goto(comparison_url)
    reports = page.get_by_role("region", name="Reports")
    await reports.get_by_role("button", name="Sign off").click()
    sign = page.get_by_role("dialog", name="Sign off")
    await sign.get_by_role("radio", name="Approve").check()
    await sign.get_by_role("button", name="Sign off").click()
    not_ship = sign.get_by_text(re.compile(r"The decision is .*, not Ship"))
    signed = page.get_by_text("PROMOTE").first
    await expect(not_ship.or_(signed)).to_be_visible()
    if await not_ship.is_visible():  # a decision other than Ship: approving overrides it
        await sign.get_by_role("checkbox", name="Override open follow-ups or the decision").check()
        await sign.get_by_role("textbox", name="Justification").fill("Accepted: a known trade.")
        await sign.get_by_role("button", name="Sign off").click()
    await expect(sign).to_be_hidden()
    await page.get_by_text("PROMOTE").first.wait_for()


async def test_a_newcomer_goes_from_a_fresh_workspace_to_a_sign_off_in_the_browser_alone(
    sqlite_backend: Backend,
    portal_page: Any,
) -> None:
    page = portal_page
    base = sqlite_backend.base_url
    owner = await fresh_owner_token(sqlite_backend)
    requests = Requests(page, base)
    await sign_in(page, base, owner)
    await add_connection(page)
    await upload_dataset(page)
    await write_prompts_and_model(page)
    await make_releases(page)
    reviewer = await add_second_admin(page)
    await turn_a_setting_on(page)
    comparison_url = await run_a_comparison(page)
    await review_outputs(page)
    await report_and_resolve(page)
    await sign_off_as(page, reviewer, comparison_url)
    await screenshot(page, "whole-workplace-signed")
    graphql_posts = [url for url in requests.urls if url.endswith("/graphql")]
    assert graphql_posts, "the portal talks to /graphql"
    assert page.console_errors == []
    assert requests.outside() == []
