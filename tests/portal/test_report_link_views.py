"""Viewing a comparison page again does not mint another report link (issue 34 c)."""

from __future__ import annotations

from typing import Any

from bench.kit.harness import Backend
from server.workspaces.roles import Role
from tests.portal.harness import sign_in
from tests.server.reports.api import AUDIT, LINK, LINK_DEFAULT, finalized_comparison


async def test_views_of_a_comparison_page_reuse_one_report_link(
    sqlite_backend: Backend,
    portal_page: Any,
) -> None:
    page = portal_page
    f = await finalized_comparison(sqlite_backend)
    await f.generate()
    path = f"/comparisons/{f.comparison_id}"
    await sign_in(page, sqlite_backend.base_url, f.token(Role.MEMBER), path)
    hrefs = []
    for view in range(4):
        if view:
            await page.reload()
        link = page.get_by_role("link", name="Open report page")
        await link.wait_for()
        hrefs.append(await link.get_attribute("href"))
    events = (await f.gql(AUDIT, {"action": "report.link"})).ok()["auditEvents"]["edges"]
    assert len(events) == 1, events
    assert len(set(hrefs)) == 1 and hrefs[0] and "token=" in hrefs[0]
    opened = await sqlite_backend.client.get(hrefs[0])
    assert opened.status_code == 200


async def test_a_link_is_reused_per_member_and_length(sqlite_backend: Backend) -> None:
    f = await finalized_comparison(sqlite_backend)
    report = await f.generate()
    first = (await f.gql(LINK_DEFAULT, {"id": report["id"]})).ok()["reportLink"]
    again = (await f.gql(LINK_DEFAULT, {"id": report["id"]})).ok()["reportLink"]
    assert again == first
    longer = (await f.gql(LINK, {"id": report["id"], "hours": 720})).ok()["reportLink"]
    assert longer["path"] != first["path"]
    back = (await f.gql(LINK_DEFAULT, {"id": report["id"]})).ok()["reportLink"]
    assert back == first
    await f.gql(LINK_DEFAULT, {"id": report["id"]}, role=Role.ADMIN)  # each member's own
    events = (await f.gql(AUDIT, {"action": "report.link"})).ok()["auditEvents"]["edges"]
    assert [(e["node"]["actorRole"], e["node"]["details"]["hours"]) for e in events] == [
        ("ADMIN", 168),
        ("MEMBER", 720),
        ("MEMBER", 168),
    ]
