"""A file the upload cannot read says what it is, in the words `shipwise dataset import` uses
(server/datasets/case_file.py), and nothing is sent."""

from __future__ import annotations

from typing import Any

from bench.kit.factories import make_workspace
from bench.kit.harness import Backend
from server.workspaces.roles import Role
from tests.portal.harness import sign_in

XLSX_HEAD = (
    b"PK\x03\x04\x14\x00\x06\x00\x08\x00\x00\x00!\x00\x13\x00\x00\x00[Content_Types].xml"
    + b"\x00" * 16
    + b"PK\x03\x04\x14\x00\x06\x00xl/workbook.xml"
)
"""The first bytes of an .xlsx file: a ZIP archive whose parts are under xl/."""


async def test_a_workbook_or_an_empty_file_says_what_it_is(
    sqlite_backend: Backend,
    portal_page: Any,
) -> None:
    page = portal_page
    ws = await make_workspace(sqlite_backend.sessionmaker)
    await sign_in(page, sqlite_backend.base_url, ws.tokens[Role.MEMBER], "/datasets")
    await page.get_by_role("button", name="Upload dataset").click()
    dialog = page.get_by_role("dialog", name="Upload dataset")
    chooser = dialog.get_by_label("Dataset file (JSONL or CSV)")
    said = {
        "capitals.xlsx": (XLSX_HEAD, "The file is an Excel workbook: save it as CSV."),
        "empty.csv": (b"", "The file is empty."),
        "header.csv": (
            b"datasetItemId,question\n",
            "The file is a CSV header with no cases below it.",
        ),
    }
    for name, (content, alert) in said.items():
        await chooser.set_input_files(
            files=[{"name": name, "mimeType": "application/octet-stream", "buffer": content}]
        )
        await dialog.get_by_role("textbox", name="Name").fill("refused")
        await dialog.get_by_role("button", name="Upload").click()
        await dialog.get_by_role("alert").filter(has_text=alert).wait_for()
        assert await dialog.get_by_text("not valid JSON").count() == 0
    listing = await sqlite_backend.gql("{ datasets { totalCount } }", token=ws.owner)
    assert listing.ok()["datasets"]["totalCount"] == 0
    assert page.console_errors == []
