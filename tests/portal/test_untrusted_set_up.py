"""Untrusted text stays text in the set-up views (docs/portal.md): names, prompt contents, release
names, an uploaded file's ids in the bad-lines list — markup shows literally and never runs.
And a viewer reads /prompts with "New version" disabled for the role it needs."""

from __future__ import annotations

import json
from typing import Any

from playwright.async_api import expect

from bench.kit.factories import make_connection, make_prompt_version, make_release, make_workspace
from bench.kit.harness import Backend
from server.workspaces.roles import Role
from tests.portal.harness import (
    axe_violations,
    sign_in,
)

IMG = '<img src=x onerror="window.__xss=1">'
SCRIPT = "<script>window.__xss=1</script>"
ADD_MEMBER = "mutation($n: String!) { addMember(name: $n, role: MEMBER) { id } }"


async def _no_markup_ran(page: Any) -> None:
    assert await page.get_by_role("main").get_by_role("img").count() == 0
    assert await page.evaluate("typeof window.__xss") == "undefined"


async def test_markup_in_names_prompts_and_files_shows_as_text(
    sqlite_backend: Backend,
    portal_page: Any,
) -> None:
    page = portal_page
    ws = await make_workspace(sqlite_backend.sessionmaker)
    (await sqlite_backend.gql(ADD_MEMBER, {"n": f"{IMG} Eve"}, token=ws.owner)).ok()
    await make_connection(sqlite_backend.sessionmaker, ws, name=f"{SCRIPT} conn")
    prompt = await make_prompt_version(
        sqlite_backend.sessionmaker, ws, name=f"{IMG} prompt", text=f"{SCRIPT} {{{{ question }}}}"
    )
    await make_release(sqlite_backend.sessionmaker, ws, name=f"{IMG} release")

    await sign_in(page, sqlite_backend.base_url, ws.tokens[Role.MEMBER], "/settings")
    members = page.get_by_role("table", name="Members")
    await expect(members).to_contain_text(f"{IMG} Eve")
    await expect(page.get_by_role("table", name="Model connections")).to_contain_text(
        f"{SCRIPT} conn"
    )
    await _no_markup_ran(page)

    await page.goto(f"{sqlite_backend.base_url}/prompts?asset={prompt.asset_id}")
    panel = page.get_by_role("region", name=f"{IMG} prompt (Prompt template)")
    await expect(panel).to_contain_text(f"{SCRIPT} {{{{ question }}}}")
    await expect(panel).to_contain_text("variables: question")
    await _no_markup_ran(page)

    await page.goto(f"{sqlite_backend.base_url}/releases")
    await expect(page.get_by_role("table", name="Releases")).to_contain_text(f"{IMG} release")
    await _no_markup_ran(page)

    await page.goto(f"{sqlite_backend.base_url}/datasets")
    await page.get_by_role("button", name="Upload dataset").click()
    dialog = page.get_by_role("dialog", name="Upload dataset")
    lines = [{"datasetItemId": IMG, "input": "a"}, {"datasetItemId": IMG, "input": "b"}]
    body = "\n".join(json.dumps(line) for line in lines).encode()
    await dialog.get_by_label("Dataset file (JSONL or CSV)").set_input_files(
        files=[{"name": "x.jsonl", "mimeType": "application/jsonl", "buffer": body}]
    )
    await dialog.get_by_role("textbox", name="Name").fill(SCRIPT)
    await dialog.get_by_role("button", name="Upload").click()
    await expect(dialog.get_by_role("list", name="Bad lines")).to_have_text(
        f'Line 2: datasetItemId "{IMG}" repeats line 1'
    )
    assert await dialog.get_by_role("img").count() == 0
    assert await page.evaluate("typeof window.__xss") == "undefined"
    listed = await sqlite_backend.gql("{ datasets { totalCount } }", token=ws.owner)
    assert listed.ok()["datasets"]["totalCount"] == 0  # a bad file makes no dataset
    assert page.console_errors == []


async def test_a_viewer_reads_prompts_with_writing_disabled(
    sqlite_backend: Backend,
    portal_page: Any,
) -> None:
    page = portal_page
    ws = await make_workspace(sqlite_backend.sessionmaker)
    prompt = await make_prompt_version(sqlite_backend.sessionmaker, ws, name="capitals")
    await sign_in(
        page, sqlite_backend.base_url, ws.tokens[Role.VIEWER], f"/prompts?asset={prompt.asset_id}"
    )
    panel = page.get_by_role("region", name="capitals (Prompt template)")
    for button in (
        panel.get_by_role("button", name="New version"),
        panel.get_by_role("button", name="Compare on a dataset"),
        page.get_by_role("button", name="New prompt template"),
    ):
        await expect(button).to_be_disabled()
        await expect(button).to_have_accessible_description("Needs the Member role")
    assert await axe_violations(page) == []
    assert page.console_errors == []
