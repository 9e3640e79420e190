"""The run diff page in headless Chromium, and who may open it."""

from __future__ import annotations

import os
import re
import time
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlparse

from bench.kit.factories import make_workspace
from bench.kit.harness import Backend
from server import signed_links
from server.runs import links
from server.workspaces.roles import Role
from tests.server.runs.api import experiment, import_run, item
from tests.server.runs.test_diff import REGRESSED_IDS, single_trial_runs

DIFF_LINK = """mutation($c: ID!, $b: ID!, $h: Int!) {
  diffLink(candidateRunId: $c, baselineRunId: $b, expiresInHours: $h) { url expiresAt }
}"""


async def _runs(backend: Backend, token: str) -> tuple[str, str, str]:
    exp = await experiment(backend, token)
    candidate_items, baseline_items = single_trial_runs()
    baseline = await import_run(backend, token, exp, baseline_items, key="b")
    candidate = await import_run(backend, token, exp, candidate_items, key="c")
    return exp, candidate, baseline


async def test_the_page_shows_the_summary_tabs_and_expandable_cases(
    backend: Backend,
    browser_page: Any,
    tmp_path: Path,
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    exp, candidate, baseline = await _runs(backend, ws.owner)
    made = await backend.gql(
        DIFF_LINK, {"c": candidate, "b": baseline, "h": 2}, token=ws.tokens[Role.MEMBER]
    )
    url = made.ok()["diffLink"]["url"]
    assert url.startswith(f"/experiments/{exp}/runs/{candidate}/diff?baselineRunId={baseline}")
    page = browser_page
    await page.goto(backend.base_url + url + "&size=15")
    assert await page.text_content("#gate") == "Significant regression"
    summary = await page.text_content("#summary")
    assert summary is not None and "0.750" in summary and "0.575" in summary
    assert "-0.175" in summary
    assert await page.locator("details.case").count() == 15
    assert await page.text_content("p.total") == "40 all cases"

    await page.click("nav.tabs a[data-tab=REGRESSED]")
    assert parse_qs(urlparse(page.url).query)["status"] == ["REGRESSED"]
    assert await page.get_attribute("a[data-tab=REGRESSED]", "aria-current") == "page"
    statuses = await page.locator("details.case").evaluate_all(
        "nodes => nodes.map(n => n.dataset.status)"
    )
    assert statuses == ["REGRESSED"] * len(REGRESSED_IDS)
    shown = await page.locator("details.case summary span.status").all_inner_texts()
    assert set(shown) == {"Regressed"}
    assert "MCNEMAR" not in summary and "McNemar mid-p" in summary
    first = page.locator("details.case").first
    assert await first.get_attribute("open") is None
    assert not await first.locator("table.deltas").is_visible()
    await first.locator("summary").click()
    assert await first.get_attribute("open") == ""
    deltas = first.locator("table.deltas")
    assert await deltas.is_visible()
    judge = await deltas.locator("tr", has_text="judge").inner_text()
    assert re.split(r"\s+", judge.strip()) == [
        "judge",
        "1.000",
        "0.000",
        "-1.000",
        "Regressed",  # enum values in words (issue 34 g)
        "no",
    ]
    shots = Path(os.environ.get("SHIPWISE_SCREENSHOTS", tmp_path))  # docs/ keeps one
    await page.screenshot(path=str(shots / "run_diff.png"), full_page=True)
    assert (shots / "run_diff.png").stat().st_size > 10_000

    await page.click("nav.tabs a[data-tab=ALL]")
    await page.click("a[rel=next]")
    assert await page.locator("details.case").count() == 15
    positions = await page.locator("details.case summary span:nth-child(2)").all_inner_texts()
    assert positions[0] == "#15"
    assert page.console_errors == []


async def test_links_and_tokens_open_only_their_own_diff(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    other = await make_workspace(backend.sessionmaker, name="other")
    exp, candidate, baseline = await _runs(backend, ws.owner)
    link = await backend.gql(DIFF_LINK, {"c": candidate, "b": baseline, "h": 1}, token=ws.owner)
    url = link.ok()["diffLink"]["url"]
    opened = await backend.client.get(url)
    assert opened.status_code == 200 and "Significant regression" in opened.text
    assert "default-src 'none'" in opened.headers["content-security-policy"]
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", opened.text)  # no outside assets

    path = f"/experiments/{exp}/runs/{candidate}/diff"
    viewer = {"Authorization": f"Bearer {ws.tokens[Role.VIEWER]}"}
    by_token = await backend.client.get(path, params={"baselineRunId": baseline}, headers=viewer)
    assert by_token.status_code == 200 and "<details" in by_token.text
    stranger = {"Authorization": f"Bearer {other.owner}"}
    foreign = await backend.client.get(path, params={"baselineRunId": baseline}, headers=stranger)
    assert foreign.status_code == 404
    nobody = await backend.client.get(path, params={"baselineRunId": baseline})
    assert nobody.status_code == 401

    token = parse_qs(urlparse(url).query)["token"][0]
    payload, signature = token.split(".")
    tampered = payload + "." + ("A" if signature[0] != "A" else "B") + signature[1:]
    swapped = links.diff_path(exp, baseline, candidate) + "&token=" + token
    secret = backend.settings.resolved_secret_key()
    expired = signed_links.sign(
        secret=secret, kind=links.KIND, subject=links.subject(candidate, baseline),
        workspace_id=ws.id, expires_at=int(time.time()) - 1,
    )  # fmt: skip
    for bad in (f"{path}?baselineRunId={baseline}&token={tampered}", swapped,
                f"{path}?baselineRunId={baseline}&token={expired}"):  # fmt: skip
        refused = await backend.client.get(bad)
        assert refused.status_code == 403 and "not valid or has expired" in refused.text
    wrong_experiment = await backend.client.get(url.replace(exp, "exp_nope"))
    assert wrong_experiment.status_code == 404
    running = await import_run(backend, ws.owner, exp, [item(True)], key="r", complete=False)
    busy = await backend.client.get(
        f"/experiments/{exp}/runs/{running}/diff",
        params={"baselineRunId": baseline},
        headers=viewer,
    )
    assert busy.status_code == 409
    bad_status = await backend.client.get(url + "&status=NOPE")
    assert bad_status.status_code == 400
    viewer_link = await backend.gql(
        DIFF_LINK, {"c": candidate, "b": baseline, "h": 1}, token=ws.tokens[Role.VIEWER]
    )
    assert viewer_link.codes == ["FORBIDDEN"]
    too_long = await backend.gql(
        DIFF_LINK, {"c": candidate, "b": baseline, "h": 721}, token=ws.owner
    )
    assert too_long.codes == ["VALIDATION_FAILED"]
    foreign_link = await backend.gql(
        DIFF_LINK, {"c": candidate, "b": baseline, "h": 1}, token=other.owner
    )
    assert foreign_link.codes == ["NOT_FOUND"]


XSS = '<script>window.__xss=1</script><img src=x onerror="window.__xss=1">'


async def test_untrusted_text_on_the_page_is_text(backend: Backend) -> None:
    """Inputs, item ids and evaluator names are the importer's: the templates escape them."""
    ws = await make_workspace(backend.sessionmaker)
    exp = await experiment(backend, ws.owner)
    items = [
        item(True, item_id=f"{XSS}-{n}", input={"q": XSS}, scores={XSS: 0.5}) for n in range(3)
    ]
    baseline = await import_run(backend, ws.owner, exp, items, key="b")
    candidate = await import_run(backend, ws.owner, exp, items, key="c")
    page = await backend.client.get(
        f"/experiments/{exp}/runs/{candidate}/diff",
        params={"baselineRunId": baseline},
        headers={"Authorization": f"Bearer {ws.owner}"},
    )
    assert page.status_code == 200 and page.text.count("<details") == 3
    assert "<script>" not in page.text and "<img" not in page.text
    assert "&lt;script&gt;window.__xss=1&lt;/script&gt;" in page.text
