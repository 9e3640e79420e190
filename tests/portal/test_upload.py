"""Uploading in the browser (docs/portal.md): a CSV file as a dataset's new version, sent in chunks
with a progress bar and sealed; an open version sealed from the dataset's page after its dialog
closed, or discarded there after a confirmation, the dataset kept (issue 51, points 1 and 2)."""

from __future__ import annotations

import json
import re
from typing import Any

from playwright.async_api import expect

from bench.kit.factories import make_dataset, make_workspace
from bench.kit.harness import Backend
from server.workspaces.roles import Role
from tests.portal.harness import (
    axe_violations,
    sign_in,
)

OPEN = "mutation($id: ID!) { openDatasetVersion(datasetId: $id) { id } }"
CASES = 1200  # three chunks of 500


def csv_file() -> bytes:
    rows = ["datasetItemId,question,expected,split,tags"]
    for n in range(CASES):
        split = "holdout" if n % 10 == 0 else "dev"
        rows.append(f'c-{n:04d},"What is {n} + {n}, exactly?",{2 * n},{split},math; sums')
    return ("\n".join(rows) + "\n").encode()


async def test_a_csv_becomes_a_new_sealed_version_and_an_open_one_is_discarded(
    sqlite_backend: Backend,
    portal_page: Any,
) -> None:
    page = portal_page
    ws = await make_workspace(sqlite_backend.sessionmaker)
    version = await make_dataset(sqlite_backend.sessionmaker, ws, cases=20, name="sums")
    await sign_in(
        page, sqlite_backend.base_url, ws.tokens[Role.MEMBER], f"/datasets/{version.asset_id}"
    )
    await page.get_by_role("heading", name="sums").wait_for()

    await page.get_by_role("button", name="Upload a new version").click()
    dialog = page.get_by_role("dialog", name="Upload a new version")
    await dialog.get_by_label("Dataset file (JSONL or CSV)").set_input_files(
        files=[{"name": "sums.csv", "mimeType": "text/csv", "buffer": csv_file()}]
    )
    await dialog.get_by_role("button", name="Upload").click()
    await dialog.get_by_text(f"{CASES:,} cases uploaded").wait_for()
    await expect(dialog.get_by_role("progressbar", name="Upload")).to_have_attribute(
        "value", str(CASES)
    )
    assert await axe_violations(page) == []
    await dialog.get_by_role("button", name="Seal").click()
    await dialog.get_by_text(f"Version 2 is sealed with {CASES:,} cases.").wait_for()
    await dialog.get_by_role("button", name="Close").click()
    versions = page.get_by_role("table", name="Versions")
    await expect(
        versions.get_by_role(
            "row", name=re.compile(r"^Version 2 Sealed 1,200 1,080 dev, 120 holdout")
        )
    ).to_be_visible()
    cases = page.get_by_role("table", name="Cases")
    first = cases.get_by_role("row", name=re.compile(r"^c-0000 Holdout"))
    await expect(first).to_contain_text('"question": "What is 0 + 0, exactly?"')
    await expect(first).to_contain_text("math, sums")

    member = ws.tokens[Role.MEMBER]
    (await sqlite_backend.gql(OPEN, {"id": version.asset_id}, token=member)).ok()
    await page.reload()
    open_row = versions.get_by_role("row", name=re.compile(r"^Version 3 Open"))
    await open_row.get_by_role("button", name="Discard").click()
    confirm = page.get_by_role("alertdialog", name="Discard version 3?")
    await confirm.get_by_role("button", name="Discard version 3").click()
    await expect(confirm).to_be_hidden()
    await expect(
        versions.get_by_role("row", name=re.compile(r"^Version 3 Discarded"))
    ).to_be_visible()
    await expect(versions.get_by_role("button", name="Discard")).to_have_count(0)
    assert page.console_errors == []


async def _upload_and_close(page: Any, dialog_name: str, body: bytes, name: str) -> None:
    """Upload `body` in the dialog, then close it without its own "Seal": the version stays open."""
    dialog = page.get_by_role("dialog", name=dialog_name)
    await dialog.get_by_label("Dataset file (JSONL or CSV)").set_input_files(
        files=[{"name": name, "mimeType": "text/csv", "buffer": body}]
    )
    await dialog.get_by_role("button", name="Upload").click()
    await dialog.get_by_text(re.compile(r"cases uploaded")).wait_for()
    await dialog.get_by_role("button", name="Close").click()
    await expect(dialog).to_be_hidden()


def small_csv(cases: int, prefix: str = "s") -> bytes:
    rows = ["datasetItemId,question,expected"]
    rows += [f"{prefix}-{n:02d},What is {n} + 1?,{n + 1}" for n in range(cases)]
    return ("\n".join(rows) + "\n").encode()


async def test_an_upload_closed_before_its_seal_is_sealed_from_the_dataset_page(
    sqlite_backend: Backend,
    portal_page: Any,
) -> None:
    """Issue 51 (1): the dialog closed before "Seal" leaves version 1 open; the dataset page
    says what sealing means and seals it with "Seal version 1", and New comparison lists it."""
    page = portal_page
    ws = await make_workspace(sqlite_backend.sessionmaker)
    await sign_in(page, sqlite_backend.base_url, ws.tokens[Role.MEMBER], "/datasets")
    await page.get_by_role("button", name="Upload dataset").click()
    await _upload_and_close(page, "Upload dataset", small_csv(24), "additions.csv")
    await page.get_by_role("table", name="Datasets").get_by_role("link", name="additions").click()
    await page.get_by_role("heading", name="additions").wait_for()
    versions = page.get_by_role("table", name="Versions")
    await expect(
        versions.get_by_role("row", name=re.compile(r"^Version 1 Open 24"))
    ).to_be_visible()
    notice = page.get_by_role("region", name="Open version")
    await expect(notice).to_contain_text("Version 1 is open with 24 cases.")
    await expect(notice).to_contain_text("a sealed version never changes")
    seal = notice.get_by_role("button", name="Seal version 1")
    await expect(seal).to_have_accessible_description(re.compile("Seal it to compare on it"))
    assert await axe_violations(page) == []
    await seal.click()
    await expect(
        versions.get_by_role("row", name=re.compile(r"^Version 1 Sealed 24 24 dev, 0 holdout"))
    ).to_be_visible()
    await expect(page.get_by_role("region", name="Open version")).to_have_count(0)

    await page.goto(f"{sqlite_backend.base_url}/comparisons/new")
    dataset = page.get_by_role("combobox", name="On dataset")
    await expect(dataset.get_by_role("option", name="additions — 24 cases, v1")).to_have_count(1)
    assert page.console_errors == []


async def test_discarding_a_first_open_version_asks_and_keeps_the_dataset(
    sqlite_backend: Backend,
    portal_page: Any,
) -> None:
    """Issue 51 (2): "Discard" of a never-sealed first version asks first, saying what is lost;
    "Keep it" keeps it; confirmed, the version alone goes and the page stays on the dataset."""
    page = portal_page
    ws = await make_workspace(sqlite_backend.sessionmaker)
    await sign_in(page, sqlite_backend.base_url, ws.tokens[Role.MEMBER], "/datasets")
    await page.get_by_role("button", name="Upload dataset").click()
    await _upload_and_close(page, "Upload dataset", small_csv(12), "draft.csv")
    await page.get_by_role("table", name="Datasets").get_by_role("link", name="draft").click()
    await page.get_by_role("heading", name="draft").wait_for()
    versions = page.get_by_role("table", name="Versions")
    open_row = versions.get_by_role("row", name=re.compile(r"^Version 1 Open"))

    await open_row.get_by_role("button", name="Discard").click()
    confirm = page.get_by_role("alertdialog", name="Discard version 1?")
    await expect(confirm).to_have_accessible_description(
        re.compile(r"Its 12 cases will be lost.*The dataset “draft” and its other versions stay")
    )
    assert await axe_violations(page) == []
    await confirm.get_by_role("button", name="Keep it").click()
    await expect(confirm).to_be_hidden()
    await expect(open_row).to_be_visible()

    await open_row.get_by_role("button", name="Discard").click()
    await confirm.get_by_role("button", name="Discard version 1").click()
    await expect(confirm).to_be_hidden()
    await expect(
        versions.get_by_role("row", name=re.compile(r"^Version 1 Discarded"))
    ).to_be_visible()
    await expect(page.get_by_role("heading", name="draft")).to_be_visible()
    await expect(page.get_by_role("alert")).to_have_count(0)

    # The dataset is still there: a new version goes into it and is sealed from the page.
    await page.get_by_role("button", name="Upload a new version").click()
    await _upload_and_close(page, "Upload a new version", small_csv(20, "t"), "draft.csv")
    notice = page.get_by_role("region", name="Open version")
    await notice.get_by_role("button", name="Seal version 2").click()
    await expect(
        versions.get_by_role("row", name=re.compile(r"^Version 2 Sealed 20"))
    ).to_be_visible()
    assert page.console_errors == []


async def test_long_cases_go_in_chunks_the_server_accepts(
    sqlite_backend: Backend,
    portal_page: Any,
) -> None:
    """400 cases of 8 KB each (3.2 MB of JSON, a document set for retrieval, say): each chunk
    stays under the server's request limit (2 MB), as the CLI's do, so the upload succeeds."""
    page = portal_page
    ws = await make_workspace(sqlite_backend.sessionmaker)
    passage = "The capital of the country is named in this passage. " * 150  # 8,100 characters
    lines = [
        json.dumps({"datasetItemId": f"doc-{n:03d}", "input": {"passage": passage, "n": n}})
        for n in range(400)
    ]
    body = ("\n".join(lines) + "\n").encode()
    assert len(body) > 3_000_000  # 500 cases (the count limit) would be a refused 2.5 MB body
    await sign_in(page, sqlite_backend.base_url, ws.tokens[Role.MEMBER], "/datasets")
    await page.get_by_role("button", name="Upload dataset").click()
    dialog = page.get_by_role("dialog", name="Upload dataset")
    await dialog.get_by_label("Dataset file (JSONL or CSV)").set_input_files(
        files=[{"name": "passages.jsonl", "mimeType": "application/jsonl", "buffer": body}]
    )
    await dialog.get_by_role("button", name="Upload").click()
    await dialog.get_by_text("400 cases uploaded").wait_for()
    await dialog.get_by_role("button", name="Seal").click()
    await dialog.get_by_text("Version 1 is sealed with 400 cases.").wait_for()
    assert page.console_errors == []
