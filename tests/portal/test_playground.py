"""`/playground` in Chromium, by role and name (docs/portal.md "The Playground"): a prompt
opened in the Playground, a draft edited, two panes run against a scripted fake provider
and both streamed answers read, "Save the draft first", the draft saved, "Compare on a
dataset" landing on the prefilled form; a cap said in words; the rules a session without a
prompt and a viewer meet."""

from __future__ import annotations

import re
from typing import Any

from playwright.async_api import expect
from sqlalchemy import select

from bench.kit.factories import make_asset_version, make_connection, make_dataset, make_workspace
from bench.kit.harness import Backend
from bench.kit.openai_server import Behaviour, FakeOpenAI
from server.assets.models import AssetKind, AssetVersion
from server.connections.service import Simulation
from server.workspaces.roles import Role
from tests.conftest import PROVIDER_KEY
from tests.portal.harness import axe_violations, screenshot, sign_in

CONNECTION = """mutation($input: CreateModelConnectionInput!) {
  createModelConnection(input: $input) { id status }
}"""
PROMPT = {
    "messages": [
        {"role": "system", "content": "Greet warmly."},
        {"role": "user", "content": "Say hello to {{ name }}."},
    ]
}


def _reply(body: dict[str, Any]) -> str:
    """The scripted provider's answer: which system message it was asked with, and to whom."""
    system = body["messages"][0]["content"]
    user = body["messages"][-1]["content"]
    return f"[{system}] <b>Hello</b> from {user.removeprefix('Say hello to ').rstrip('.')}"


async def _connection(backend: Backend, token: str, fake: FakeOpenAI, **fields: Any) -> str:
    result = await backend.gql(
        CONNECTION,
        {
            "input": {
                "name": "my-connection",
                "kind": "OPENAI_COMPATIBLE",
                "baseUrl": fake.base_url,
                "apiKey": PROVIDER_KEY,
                **fields,
            }
        },
        token=token,
    )
    return str(result.ok()["createModelConnection"]["id"])


async def test_a_prompt_in_the_playground_runs_saves_and_compares(
    sqlite_backend: Backend, portal_page: Any, fake_openai: FakeOpenAI
) -> None:
    page = portal_page
    backend = sqlite_backend
    ws = await make_workspace(backend.sessionmaker)
    await _connection(backend, ws.owner, fake_openai)
    dataset = await make_dataset(backend.sessionmaker, ws, cases=5, name="greetings")
    v1 = await make_asset_version(
        backend.sessionmaker, ws, kind=AssetKind.PROMPT_TEMPLATE, content=PROMPT, name="greeter"
    )
    fake_openai.behaviour = Behaviour(reply=_reply, chunk_seconds=0.05)
    await sign_in(page, backend.base_url, ws.tokens[Role.MEMBER], f"/prompts?asset={v1.asset_id}")
    await page.get_by_role("button", name="Open in Playground").click()
    await page.get_by_role("heading", name="Playground", level=1).wait_for()
    await expect(page.get_by_role("heading", name="Pane 1 (Version 1)")).to_be_visible()

    await page.get_by_role("textbox", name="Model").fill("fake-1")
    await page.get_by_role("button", name="Add pane").click()
    await page.get_by_role("textbox", name="Pane 2 message 1", exact=True).fill("Greet briefly.")
    await expect(page.get_by_role("heading", name="Pane 2 (Draft)")).to_be_visible()

    await page.get_by_role("button", name="Compare on a dataset").click()
    await expect(page.get_by_role("status")).to_have_text("Save the draft first")

    # Ctrl+Enter runs, from the keyboard, while typing the input.
    name = page.get_by_role("textbox", name="name", exact=True)
    await name.fill("Ada")
    await name.press("Control+Enter")
    first = page.get_by_role("region", name="Pane 1 output")
    second = page.get_by_role("region", name="Pane 2 output")
    await expect(first).to_contain_text("Answering…")  # it streams before it ends
    await expect(first.locator("pre")).to_have_text("[Greet warmly.] <b>Hello</b> from Ada")
    await expect(second.locator("pre")).to_have_text("[Greet briefly.] <b>Hello</b> from Ada")
    await expect(first).to_contain_text(re.compile(r"\d+ in · \d+ out tokens · .+ · \d+\.\d s"))
    assert await page.locator(".pane-output b").count() == 0  # untrusted text, never markup
    assert await axe_violations(page) == []
    await screenshot(page, "playground")

    # The session is in the URL: a reload restores the draft.
    await page.reload()
    await expect(page.get_by_role("textbox", name="Pane 2 message 1", exact=True)).to_have_value(
        "Greet briefly."
    )
    await page.get_by_role("button", name="Save as version").click()
    await expect(page.get_by_role("status")).to_have_text("Saved as version 2.")
    await expect(page.get_by_role("heading", name="Pane 2 (Version 2)")).to_be_visible()
    async with backend.sessionmaker() as session:
        v2 = await session.scalar(
            select(AssetVersion.id).where(
                AssetVersion.asset_id == v1.asset_id, AssetVersion.number == 2
            )
        )

    await page.get_by_role("button", name="Compare on a dataset").click()
    await page.get_by_role("heading", name="New comparison").wait_for()
    for n, version in ((1, v1.id), (2, v2)):
        group = page.get_by_role("group", name=re.compile(rf"^Cohort {n}\b"))
        override = group.get_by_role("group", name="Override 1")
        await expect(override.get_by_role("combobox", name="Role")).to_have_value("PROMPT_TEMPLATE")
        await expect(override.get_by_role("combobox", name="Asset version")).to_have_value(
            str(version)
        )
    # No gate settings: the first dataset, the Dev split, 3 trials, "Contains".
    await expect(page.get_by_role("combobox", name="On dataset")).to_have_value(dataset.asset_id)
    await expect(page.get_by_role("spinbutton", name="Trials per case")).to_have_value("3")
    assert page.console_errors == []


async def test_a_cap_a_viewer_and_a_session_without_a_prompt(
    sqlite_backend: Backend, portal_page: Any, fake_openai: FakeOpenAI
) -> None:
    page = portal_page
    backend = sqlite_backend
    ws = await make_workspace(backend.sessionmaker)
    await _connection(
        backend,
        ws.owner,
        fake_openai,
        monthlyCapCents=0.01,
        inputCentsPerMillionTokens=100_000,
        outputCentsPerMillionTokens=100_000,
    )
    await sign_in(page, backend.base_url, ws.tokens[Role.MEMBER], "/playground")
    await page.get_by_role("heading", name="Playground", level=1).wait_for()
    await page.get_by_role("combobox", name="Connection").select_option(label="my-connection")
    await page.get_by_role("textbox", name="Model").fill("fake-1")
    await page.get_by_role("textbox", name="question", exact=True).fill("Who?")
    await page.get_by_role("button", name="Run", exact=True).click()
    await expect(page.get_by_role("region", name="Pane 1 output").locator("pre")).to_have_text(
        "fake reply"
    )
    await page.get_by_role("button", name="Run", exact=True).click()
    await expect(page.get_by_role("alert")).to_contain_text(
        "Stopped: my-connection reached its monthly cap of 0.01 ¢."
    )
    await page.get_by_role("button", name="Compare on a dataset").click()
    await expect(page.get_by_role("status")).to_have_text(
        "Open this session from a prompt to compare on a dataset."
    )
    assert await axe_violations(page) == []

    url = page.url
    await page.get_by_role("button", name="Sign out").click()
    await sign_in(
        page, backend.base_url, ws.tokens[Role.VIEWER], url.removeprefix(backend.base_url)
    )
    run = page.get_by_role("button", name="Run", exact=True)
    await expect(run).to_be_disabled()
    await expect(run).to_have_accessible_description("Needs the Member role")


async def test_gate_settings_start_the_compare_form_and_grade_five_cases(
    sqlite_backend: Backend, portal_page: Any
) -> None:
    page = portal_page
    backend = sqlite_backend
    ws = await make_workspace(backend.sessionmaker)
    await make_dataset(backend.sessionmaker, ws, cases=3, name="first-one")
    gate = await make_dataset(backend.sessionmaker, ws, cases=6, name="gate-one")
    script = {f"case-{i:04d}": str(2 * i) if i % 2 == 0 else "wrong" for i in range(6)}
    await make_connection(
        backend.sessionmaker, ws, name="sim", simulation=Simulation(script=script)
    )
    content = {"messages": [{"role": "user", "content": "{{ question }}"}]}
    v1 = await make_asset_version(
        backend.sessionmaker, ws, kind=AssetKind.PROMPT_TEMPLATE, content=content, name="sums"
    )
    await sign_in(page, backend.base_url, ws.tokens[Role.MEMBER], f"/prompts?asset={v1.asset_id}")
    settings = page.get_by_role("region", name="Gate settings")
    await settings.get_by_role("combobox", name="Gate dataset").select_option(label="gate-one")
    await settings.get_by_role("spinbutton", name="Gate trials per case").fill("5")
    checks = settings.get_by_role("group", name="Gate checks")
    await checks.get_by_role("checkbox", name="Matches the expected output").check()
    await checks.get_by_role("checkbox", name="Contains the expected output").uncheck()
    await settings.get_by_role("button", name="Save gate settings").click()
    await expect(settings.get_by_role("status")).to_have_text("Gate settings saved.")
    assert await axe_violations(page) == []

    await page.reload()
    await page.get_by_role("button", name="Compare on a dataset", exact=True).click()
    await page.get_by_role("heading", name="New comparison").wait_for()
    await expect(page.get_by_role("combobox", name="On dataset")).to_have_value(gate.asset_id)
    await expect(page.get_by_role("spinbutton", name="Trials per case")).to_have_value("5")
    form_checks = page.get_by_role("group", name="Checks")
    await expect(form_checks.get_by_role("checkbox", name=re.compile("Matches"))).to_be_checked()
    await expect(
        form_checks.get_by_role("checkbox", name=re.compile("Contains"))
    ).not_to_be_checked()

    await page.go_back()
    await page.get_by_role("button", name="Open in Playground").click()
    await expect(page.get_by_role("heading", name="Pane 1 (Version 1)")).to_be_visible()
    await page.get_by_role("textbox", name="Model").fill("sim-1")
    await page.get_by_role("combobox", name="Cases from").select_option(label="gate-one")
    fill = page.get_by_role("combobox", name="Fill from case")
    await expect(fill.get_by_role("option", name="case-0003")).to_be_attached()
    await fill.select_option(label="case-0003")
    await expect(page.get_by_role("textbox", name="question")).to_have_value("What is 3 + 3?")
    await page.get_by_role("button", name="Run on 5 cases").click()
    cases = page.get_by_role("table", name="Cases")
    await expect(cases.get_by_role("row")).to_have_count(6)  # the header and 5 cases
    await expect(cases.get_by_role("row", name=re.compile("case-0002"))).to_contain_text("Pass")
    await expect(cases.get_by_role("row", name=re.compile("case-0001"))).to_contain_text("Fail")
    assert page.console_errors == []
