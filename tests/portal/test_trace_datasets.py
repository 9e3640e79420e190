"""Datasets from traces in the portal: "New dataset from traces" on `/traces` (the current
filters, a preview of the counts before it commits) and "Add to dataset" on `/traces/:id`
(a chosen dataset, a typed expected answer); axe clean, and at a phone's width without
sideways scroll."""

from __future__ import annotations

import re
from typing import Any

from playwright.async_api import expect

from bench.kit.factories import make_workspace
from bench.kit.harness import Backend
from server.workspaces.roles import Role
from tests.portal.harness import axe_violations, sign_in
from tests.portal.widths import PHONE
from tests.server.datasets.api import create_dataset
from tests.server.datasets.traces_api import cases_of, post_chats

WIDTH = "() => [document.documentElement.scrollWidth, window.innerWidth]"


async def test_a_dataset_from_the_filtered_traces_after_a_preview(
    sqlite_backend: Backend, portal_page: Any
) -> None:
    page = portal_page
    ws = await make_workspace(sqlite_backend.sessionmaker)
    token = ws.tokens[Role.MEMBER]
    questions = [f"Where is order {n}? Mail me at x{n}@example.com" for n in range(12)]
    await post_chats(sqlite_backend, token, questions, service="support")
    await post_chats(sqlite_backend, token, ["where is ORDER 1?  mail me at x1@example.com"],
                     service="support")  # fmt: skip
    await post_chats(sqlite_backend, token, ["unrelated"], service="blog")
    await sign_in(page, sqlite_backend.base_url, token, "/traces")
    await page.get_by_role("heading", name="Traces", exact=True).wait_for()
    await page.get_by_role("textbox", name="Service").fill("support")
    await page.get_by_role("button", name="Filter").click()
    await expect(page.get_by_role("status", name="Trace count")).to_have_text("13 traces")

    await page.get_by_role("button", name="New dataset from traces").click()
    dialog = page.get_by_role("dialog", name="New dataset from traces")
    await expect(dialog).to_contain_text("Filters: service support.")
    await dialog.get_by_role("textbox", name="Name").fill("support sample")
    await dialog.get_by_role("spinbutton", name="Sample size").fill("5")
    await dialog.get_by_role("spinbutton", name="Seed").fill("3")
    create = dialog.get_by_role("button", name="Create dataset")
    await expect(create).to_be_disabled()  # nothing committed before a preview
    await dialog.get_by_role("button", name="Preview").click()
    preview = dialog.get_by_role("region", name="Preview")
    await expect(preview.get_by_role("status")).to_have_text(
        "13 traces match; 5 would be taken, 1 duplicates dropped, 5 values redacted."
    )
    assert await axe_violations(page) == []

    # A changed setting asks for a new preview.
    await dialog.get_by_role("spinbutton", name="Sample size").fill("4")
    await expect(create).to_be_disabled()
    await dialog.get_by_role("button", name="Preview").click()
    await expect(preview.get_by_role("status")).to_contain_text("4 would be taken")
    await create.click()
    done = dialog.get_by_role("status").filter(has_text="sealed")
    await expect(done).to_have_text(
        re.compile(r"Dataset support sample: version 1 sealed with 4 cases\.")
    )
    await dialog.get_by_role("link", name="Open the dataset").click()
    await page.get_by_role("heading", name="support sample").wait_for()
    assert page.console_errors == []


async def test_add_a_trace_to_a_dataset_with_its_expected_answer(
    sqlite_backend: Backend, portal_page: Any
) -> None:
    page = portal_page
    ws = await make_workspace(sqlite_backend.sessionmaker)
    token = ws.tokens[Role.MEMBER]
    (trace_id,) = await post_chats(sqlite_backend, token, ["Where is order 7?"])
    dataset_id = await create_dataset(sqlite_backend, token, "picked by hand")
    await sign_in(page, sqlite_backend.base_url, token, f"/traces/{trace_id}")
    await page.get_by_role("button", name="Add to dataset").click()
    dialog = page.get_by_role("dialog", name="Add to dataset")
    await dialog.get_by_role("button", name="Add").click()
    await expect(dialog).to_contain_text("Choose the dataset the trace goes to.")
    await dialog.get_by_role("combobox", name="Dataset").select_option(label="picked by hand")
    await dialog.get_by_role("textbox", name="Expected answer").fill("It ships today.")
    await dialog.get_by_role("button", name="Add").click()
    await expect(dialog.get_by_role("status")).to_contain_text(
        "Added to picked by hand, version 1 (open, 1 cases)."
    )
    assert await axe_violations(page) == []
    listing = await sqlite_backend.gql(
        "query($id: ID!) { dataset(id: $id) { versions { id } } }", {"id": dataset_id},
        token=token,
    )  # fmt: skip
    version_id = listing.ok()["dataset"]["versions"][0]["id"]
    (case,) = await cases_of(sqlite_backend, token, version_id)
    assert case["expected"] == "It ships today."
    assert case["metadata"] == {"sourceTraceId": trace_id}

    await dialog.get_by_role("button", name="Close").click()
    viewer = ws.tokens[Role.VIEWER]
    await page.get_by_role("button", name="Sign out").click()
    await sign_in(page, sqlite_backend.base_url, viewer, f"/traces/{trace_id}")
    await expect(page.get_by_role("button", name="Add to dataset")).to_be_disabled()
    assert page.console_errors == []


async def test_both_dialogs_fit_a_phone(sqlite_backend: Backend, portal_page: Any) -> None:
    page = portal_page
    ws = await make_workspace(sqlite_backend.sessionmaker)
    token = ws.tokens[Role.MEMBER]
    (trace_id,) = await post_chats(sqlite_backend, token, ["Where is order 7?"])
    await page.set_viewport_size(PHONE)
    await sign_in(page, sqlite_backend.base_url, token, "/traces")
    await page.get_by_role("button", name="New dataset from traces").click()
    dialog = page.get_by_role("dialog", name="New dataset from traces")
    await dialog.get_by_role("button", name="Preview").click()
    await expect(dialog.get_by_role("region", name="Preview")).to_contain_text("1 traces match")
    scroll_width, inner_width = await page.evaluate(WIDTH)
    assert scroll_width <= inner_width
    assert await axe_violations(page) == []
    await page.goto(f"{sqlite_backend.base_url}/traces/{trace_id}")
    await page.get_by_role("button", name="Add to dataset").click()
    await page.get_by_role("dialog", name="Add to dataset").wait_for()
    scroll_width, inner_width = await page.evaluate(WIDTH)
    assert scroll_width <= inner_width
    assert await axe_violations(page) == []
    assert page.console_errors == []
