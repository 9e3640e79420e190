"""`/settings` (docs/portal.md, "The whole workplace"):
workspace settings, members, tokens shown once,
model connections with their status in words, webhooks with their deliveries and Redeliver;
what a role may not use is disabled, with the role it needs."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.async_api import expect

from bench.kit.factories import make_workspace
from bench.kit.harness import Backend
from bench.kit.waiting import eventually
from server.webhooks.models import WebhookEvent
from server.webhooks.publishing import publish
from server.workspaces.roles import Role
from tests.fakes.webhook_receiver import WebhookReceiver
from tests.portal.harness import (
    axe_violations,
    sign_in,
)
from tests.server.webhooks.api import SECRET, deliveries


@pytest.fixture
def receiver() -> Iterator[WebhookReceiver]:
    with WebhookReceiver(secret=SECRET) as found:
        yield found


async def test_an_admin_manages_connections_members_tokens_and_webhooks(
    sqlite_backend: Backend,
    portal_page: Any,
    receiver: WebhookReceiver,
) -> None:
    page = portal_page
    ws = await make_workspace(sqlite_backend.sessionmaker)
    await sign_in(page, sqlite_backend.base_url, ws.tokens[Role.ADMIN], "/settings")
    await page.get_by_role("heading", name="Settings", exact=True).wait_for()

    # A connection nothing answers: its status in words, and "Check" asks again.
    await page.get_by_role("button", name="Add connection").click()
    dialog = page.get_by_role("dialog", name="Model connection")
    await dialog.get_by_role("textbox", name="Name").fill("local-vllm")
    await dialog.get_by_role("textbox", name="Base URL").fill("not a url")
    await dialog.get_by_role("spinbutton", name="Calls at once").fill("0")
    await dialog.get_by_role("button", name="Add and check").click()
    base_url = dialog.get_by_role("textbox", name="Base URL")
    await expect(base_url).to_have_accessible_description(
        "Give the base URL, starting with http:// or https://."
    )
    await expect(
        dialog.get_by_role("spinbutton", name="Calls at once")
    ).to_have_accessible_description("Give a whole number from 1 to 256.")
    await base_url.fill("http://127.0.0.1:9/v1")  # nothing listens on port 9
    await dialog.get_by_role("spinbutton", name="Calls at once").fill("4")
    await dialog.get_by_label("API key").fill("sk-secret-never-shown")
    headers = dialog.get_by_role("textbox", name="Headers")
    await headers.fill("not a header")
    await dialog.get_by_role("button", name="Add and check").click()
    await expect(headers).to_have_accessible_description("Line 1: write a header as Name: value.")
    await headers.fill("api-key: header-secret-never-shown")
    await dialog.get_by_role("button", name="Add and check").click()
    await expect(dialog).to_be_hidden()
    row = page.get_by_role("table", name="Model connections").get_by_role(
        "row", name=re.compile(r"^local-vllm")
    )
    await expect(row).to_contain_text("Unreachable: the provider did not answer the last check")
    await expect(row).to_contain_text("Key stored")
    await row.get_by_role("button", name="Check").click()
    await expect(row).to_contain_text("Unreachable")
    assert "never-shown" not in await page.content()

    # Members: an admin changes a member's role, not another admin's (that needs the owner).
    members = page.get_by_role("table", name="Members")
    member_role = members.get_by_role("row", name=re.compile(r"^member ")).get_by_role(
        "combobox", name="Role"
    )
    await member_role.select_option(label="Viewer")
    await page.reload()
    await expect(member_role).to_have_value("VIEWER")
    owner_row = members.get_by_role("row", name=re.compile(r"^owner "))
    await expect(owner_row.get_by_role("combobox", name="Role")).to_be_disabled()
    await expect(owner_row.get_by_role("button", name="Remove")).to_have_accessible_description(
        "Needs the Owner role"
    )

    # Remove and Revoke ask first (one row action for every settings table): "Keep it" keeps.
    viewer_row = members.get_by_role("row", name=re.compile(r"^viewer "))
    await viewer_row.get_by_role("button", name="Remove").click()
    ask = page.get_by_role("alertdialog", name="Remove viewer?")
    await expect(ask).to_contain_text("their tokens stop working")
    await ask.get_by_role("button", name="Keep it").click()
    await expect(ask).to_be_hidden()
    await expect(viewer_row).to_have_count(1)

    # Tokens: revoke one, once asked.
    tokens = page.get_by_role("table", name="API tokens")
    viewer_token = tokens.get_by_role("row", name=re.compile(r"^viewer-token"))
    await viewer_token.get_by_role("button", name="Revoke").click()
    ask = page.get_by_role("alertdialog", name="Revoke the token viewer-token?")
    assert await axe_violations(page) == []
    await ask.get_by_role("button", name="Revoke").click()
    await expect(ask).to_be_hidden()
    await expect(viewer_token).to_contain_text("Revoked just now")
    refused = await sqlite_backend.gql("{ me { role } }", token=ws.tokens[Role.VIEWER])
    assert refused.codes == ["UNAUTHENTICATED"]

    # Webhooks: add one, a delivery shows with its state, Redeliver sends it again.
    await page.get_by_role("button", name="Add webhook").click()
    dialog = page.get_by_role("dialog", name="Add webhook")
    await dialog.get_by_role("textbox", name="URL").fill(receiver.url)
    await dialog.get_by_role("button", name="Add").click()
    await expect(dialog.get_by_label("Secret")).to_have_accessible_description(
        "Give a secret of 16 to 1,024 characters to sign with."
    )
    await dialog.get_by_label("Secret").fill(SECRET)
    await dialog.get_by_role("checkbox", name="Imported run regressed").check()
    await dialog.get_by_role("button", name="Add").click()
    await expect(dialog).to_be_hidden()
    hooks = page.get_by_role("table", name="Webhooks")
    hook_row = hooks.get_by_role("row").filter(has_text=receiver.url)
    await expect(hook_row).to_contain_text("Comparison finished, Imported run regressed")
    await expect(hook_row).to_contain_text("None yet")
    listed = await sqlite_backend.gql("{ webhooks { edges { node { id } } } }", token=ws.owner)
    hook_id = listed.ok()["webhooks"]["edges"][0]["node"]["id"]
    await publish(
        sessionmaker=sqlite_backend.sessionmaker,
        queue=sqlite_backend.state.queue,
        workspace_id=ws.id,
        experiment_id=None,
        event=WebhookEvent.RUN_REGRESSED,
        subject_id="run_x",
        summary={"passRateDelta": -0.2, "significant": True},
    )
    await eventually(
        lambda: deliveries(sqlite_backend, ws.owner, hook_id),
        until=lambda found: bool(found) and found[0]["status"] == "DELIVERED",
        what="the delivery delivered",
    )
    await page.reload()
    await expect(hook_row).to_contain_text("Imported run regressed: Delivered after 1 attempt")
    assert await axe_violations(page) == []
    await hook_row.get_by_role("button", name="Redeliver").click()
    await eventually(
        lambda: receiver.requests,
        until=lambda received: len(received) == 2,
        what="the delivery sent again",
    )
    await eventually(
        lambda: deliveries(sqlite_backend, ws.owner, hook_id),
        until=lambda found: (found[0]["status"], found[0]["attemptCount"]) == ("DELIVERED", 2),
        what="the redelivery recorded",
    )
    await page.reload()
    await expect(hook_row).to_contain_text("Delivered after 2 attempts")
    assert page.console_errors == []


async def test_a_viewer_reads_settings_with_every_control_disabled_and_why(
    sqlite_backend: Backend,
    portal_page: Any,
) -> None:
    page = portal_page
    ws = await make_workspace(sqlite_backend.sessionmaker)
    await sign_in(page, sqlite_backend.base_url, ws.tokens[Role.VIEWER], "/settings")
    workspace = page.get_by_role("region", name="Workspace")
    hosted = workspace.get_by_role("checkbox", name="Allow hosted runs")
    await expect(hosted).to_be_checked()
    await expect(hosted).to_be_disabled()
    await expect(workspace).to_contain_text("Changing these needs the Admin role")
    for name in ("Save", "Add connection", "Add member", "Create token", "Add webhook"):
        button = page.get_by_role("button", name=name, exact=True)
        await expect(button).to_be_disabled()
        await expect(button).to_have_accessible_description("Needs the Admin role")
    members = page.get_by_role("table", name="Members")
    await expect(members.get_by_role("combobox", name="Role").first).to_be_disabled()
    assert await axe_violations(page) == []
    assert page.console_errors == []


CALL_LIMIT = "{ workspace { settings { maxCallsPerComparison } } }"


async def _call_limit(backend: Backend, token: str) -> int:
    data = (await backend.gql(CALL_LIMIT, token=token)).ok()
    return int(data["workspace"]["settings"]["maxCallsPerComparison"])


async def test_an_admin_raises_the_call_limit_and_a_value_out_of_range_changes_nothing(
    sqlite_backend: Backend,
    portal_page: Any,
) -> None:
    page = portal_page
    ws = await make_workspace(sqlite_backend.sessionmaker)
    await sign_in(page, sqlite_backend.base_url, ws.tokens[Role.ADMIN], "/settings")
    workspace = page.get_by_role("region", name="Workspace")
    limit = workspace.get_by_role("spinbutton", name="Model calls per comparison")
    await expect(limit).to_have_value("20000")  # seed 002's cap, a new workspace's default
    await expect(limit).to_have_accessible_description(re.compile("^Judge calls included"))

    await limit.fill("2000001")
    await workspace.get_by_role("button", name="Save").click()
    await expect(limit).to_have_accessible_description(
        re.compile("Model calls per comparison must be from 1 to 2,000,000.$")
    )
    await expect(limit).to_have_attribute("aria-invalid", "true")
    assert await _call_limit(sqlite_backend, ws.owner) == 20_000

    await limit.fill("150000")
    await workspace.get_by_role("button", name="Save").click()
    await workspace.get_by_role("status").filter(has_text="Saved.").wait_for()
    assert await _call_limit(sqlite_backend, ws.owner) == 150_000
    await page.reload()
    await expect(
        page.get_by_role("region", name="Workspace").get_by_role(
            "spinbutton", name="Model calls per comparison"
        )
    ).to_have_value("150000")
    assert await axe_violations(page) == []
    assert page.console_errors == []
