"""Who may do what with reports, signed links, and another workspace's reports."""

from __future__ import annotations

import base64
import json
from datetime import datetime, timedelta
from urllib.parse import parse_qs, urlsplit

from bench.kit.factories import make_workspace
from bench.kit.harness import Backend
from server import signed_links
from server.db import utcnow
from server.reports import links
from server.workspaces.roles import Role
from tests.server.reports.api import (
    AUDIT,
    GENERATE,
    LINK,
    LINK_DEFAULT,
    REPORT,
    RESOLVE,
    RESOLVE_MANY,
    SIGN_OFF,
    finalized_comparison,
)


async def test_a_viewer_reads_but_cannot_generate_link_resolve_or_sign_off(
    backend: Backend,
) -> None:
    f = await finalized_comparison(backend)
    report = await f.generate()
    [item, *_] = await f.follow_ups(report["id"])
    viewer = Role.VIEWER
    assert (await f.gql(REPORT, {"id": report["id"]}, role=viewer)).ok()["report"]["version"] == 1
    refused = [
        await f.gql(GENERATE, {"id": f.comparison_id}, role=viewer),
        await f.gql(LINK_DEFAULT, {"id": report["id"]}, role=viewer),
        await f.gql(RESOLVE, {"id": item["id"], "note": "n"}, role=viewer),
        await f.gql(RESOLVE_MANY, {"ids": [item["id"]], "note": "n"}, role=viewer),
        await f.sign_off(report["id"], "HOLD", role=viewer),
    ]
    assert [r.codes for r in refused] == [["FORBIDDEN"]] * 5
    assert [i["state"] for i in await f.follow_ups(report["id"])] == ["OPEN"] * 16
    member = await f.sign_off(report["id"], "HOLD", role=Role.MEMBER)
    assert member.codes == ["FORBIDDEN"]


async def test_another_workspace_sees_not_found_by_id_by_link_and_on_the_page(
    backend: Backend,
) -> None:
    f = await finalized_comparison(backend)
    report = await f.generate()
    [item, *_] = await f.follow_ups(report["id"])
    other = await make_workspace(backend.sessionmaker, name="other")
    owner = other.tokens[Role.OWNER]
    calls = [
        (REPORT, {"id": report["id"]}),
        (LINK_DEFAULT, {"id": report["id"]}),
        (GENERATE, {"id": f.comparison_id}),
        (RESOLVE, {"id": item["id"], "note": "n"}),
        (SIGN_OFF, {"id": report["id"], "decision": "HOLD", "override": False}),
    ]
    for query, variables in calls:
        result = await backend.gql(query, variables, token=owner)
        assert result.codes == ["NOT_FOUND"], query
    page = await backend.client.get(
        report["pagePath"], headers={"Authorization": f"Bearer {owner}"}
    )
    assert page.status_code == 404 and "text/html" in page.headers["content-type"]
    assert "Not found" in page.text and "capitals" not in page.text
    # The other workspace's own valid link, pointed at this report, is not found either.
    mine = await finalized_comparison(backend, ws=other)
    own_report = await mine.generate()
    own_link = (await mine.gql(LINK_DEFAULT, {"id": own_report["id"]})).ok()["reportLink"]
    query = urlsplit(own_link["path"]).query
    swapped = await backend.client.get(f"{report['pagePath']}?{query}")
    assert swapped.status_code == 404 and "Not found" in swapped.text
    assert (await backend.client.get(own_link["path"])).status_code == 200


async def test_signed_links_expire_and_refuse_any_change(backend: Backend) -> None:
    f = await finalized_comparison(backend)
    report = await f.generate()
    default = (await f.gql(LINK_DEFAULT, {"id": report["id"]})).ok()["reportLink"]
    expires = datetime.fromisoformat(default["expiresAt"])
    assert abs(expires - (utcnow() + timedelta(hours=168))) < timedelta(minutes=2)
    assert default["url"] == backend.base_url + default["path"]
    for hours in (0, 721, -5):
        result = await f.gql(LINK, {"id": report["id"], "hours": hours})
        assert result.codes == ["VALIDATION_FAILED"], hours
    longest = (await f.gql(LINK, {"id": report["id"], "hours": 720})).ok()["reportLink"]
    page = await backend.client.get(longest["path"])  # no token: the link is enough
    assert page.status_code == 200 and "Hosted run: the prompt alone" in page.text
    token = parse_qs(urlsplit(longest["path"]).query)["token"][0]
    payload, signature = token.split(".")
    claims = json.loads(base64.urlsafe_b64decode(payload + "=="))
    later = json.dumps({**claims, "e": claims["e"] + 3600}, separators=(",", ":")).encode()
    path = report["pagePath"]
    tampered = [
        f"{payload}.{'A' if signature[0] != 'A' else 'B'}{signature[1:]}",
        f"{base64.urlsafe_b64encode(later).rstrip(b'=').decode()}.{signature}",
        signed_links.sign(  # a genuine token of another kind of page, for this report id
            secret=backend.settings.resolved_secret_key(),
            kind="run_diff",
            subject=report["id"],
            workspace_id=f.ws.id,
            expires_at=claims["e"],
        ),
        "not-a-token",
    ]
    for bad in tampered:
        for page_path in (path, "/reports/rep_made_up.html"):  # the same, whether it exists
            refused = await backend.client.get(page_path, params={"token": bad})
            assert refused.status_code == 403 and "not valid" in refused.text, bad
            assert "Hosted run" not in refused.text
    expired = links.sign(
        secret=backend.settings.resolved_secret_key(),
        workspace_id=f.ws.id,
        report_id=report["id"],
        hours=1,
        now=utcnow() - timedelta(hours=2),
    )
    gone = await backend.client.get(expired.path)
    assert gone.status_code == 403 and "expired" in gone.text
    assert (await backend.client.get(path)).status_code == 401  # neither token nor link
    events = (await f.gql(AUDIT, {"action": "report.link"})).ok()["auditEvents"]["edges"]
    assert [e["node"]["details"]["hours"] for e in events] == [720, 168]
    assert {e["node"]["targetId"] for e in events} == {report["id"]}
    unknown = await backend.client.get(
        "/reports/rep_unknown.html", headers={"Authorization": f"Bearer {f.token(Role.VIEWER)}"}
    )
    assert unknown.status_code == 404


async def test_a_link_tells_nothing_of_other_report_ids(backend: Backend) -> None:
    """A genuine link opened on another report of its workspace answers as a made-up id."""
    f = await finalized_comparison(backend)
    first = await f.generate()
    second = await f.generate()
    link = (await f.gql(LINK_DEFAULT, {"id": first["id"]})).ok()["reportLink"]
    query = urlsplit(link["path"]).query
    assert (await backend.client.get(link["path"])).status_code == 200
    other = await backend.client.get(f"{second['pagePath']}?{query}")
    made_up = await backend.client.get(f"/reports/rep_made_up.html?{query}")
    assert other.status_code == made_up.status_code == 404
    assert other.text == made_up.text and "Hosted run" not in other.text
