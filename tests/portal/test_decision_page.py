"""The comparison page answers first (issue 33, point 5; docs/decision.md): `region` "Decision"
is the page's first region — the outcome in words with the API's sentence, the registered
policy, `list` "Criteria", `figure` "Difference from each baseline" with the margin drawn —
the scorecard shows each baseline's difference with its interval rather than a winner mark on
every tied cell, the failure analysis's tabs carry the counts they list, and the sign-off
dialog shows the decision being approved and asks for the override when it is not Ship."""

from __future__ import annotations

import re
from typing import Any

from playwright.async_api import expect

from bench.kit.harness import Backend
from server.workspaces.roles import Role
from tests.portal.harness import (
    Requests,
    axe_violations,
    screenshot,
    sign_in,
)
from tests.server.reports.api import Finalized, finalized_comparison

DECISION = """
query($id: ID!) { comparison(id: $id) {
  shipPolicy { sentence qualityMarginPoints }
  decision { outcome sentence level criteria {
    baselineCohortIndex kind metric status estimate low high threshold sentence } }
  scorecard { metrics { name winners }
    verdicts { baselineCohortIndex passRateDeltaPoints deltaLow deltaHigh worseCount betterCount }
    failureAnalysis { improved regressed bothWrong agree } } } }
"""
OPEN_FOLLOW_UPS = """
query($id: ID!) { report(id: $id) { followUps(first: 100, state: OPEN) {
  edges { node { id } } } } }
"""
RESOLVE_MANY = """
mutation($ids: [ID!]!, $note: String!) { resolveFollowUps(ids: $ids, note: $note) { id } }
"""
AUDIT = """
query { auditEvents(first: 20, action: "report.sign_off") { edges { node { details } } } }
"""
LABELS = {1: "v3", 2: "v2"}
STATUS_WORDS = {"MET": "Met", "VIOLATED": "Violated", "UNCERTAIN": "Uncertain"}


def _points(value: float) -> str:
    """As the portal writes points: one decimal, a true minus sign, "+" above 0."""
    text = f"{abs(value):.1f}"
    if float(text) == 0:
        return "0.0"
    return ("−" if value < 0 else "+") + text


async def _decision(f: Finalized) -> dict[str, Any]:
    data: dict[str, Any] = (await f.gql(DECISION, {"id": f.comparison_id})).ok()["comparison"]
    return data


async def test_the_page_opens_with_the_decision_its_criteria_and_figure(
    sqlite_backend: Backend,
    portal_page: Any,
) -> None:
    page = portal_page
    f = await finalized_comparison(sqlite_backend)
    found = await _decision(f)
    decision, policy = found["decision"], found["shipPolicy"]
    # v4 fails the last 8 of 24 cases that v3 passes (Δ −33.3 points: beyond the 2-point
    # margin); v2 passes 20 of 24, but not the same ones (Δ −16.7, a wide interval).
    assert decision["outcome"] == "DONT_SHIP"
    requests = Requests(page, sqlite_backend.base_url)
    await sign_in(
        page, sqlite_backend.base_url, f.token(Role.VIEWER), f"/comparisons/{f.comparison_id}"
    )
    region = page.get_by_role("region", name="Decision")
    await region.wait_for()
    await page.get_by_role("region", name="Verdict").wait_for()
    first = page.get_by_role("main").get_by_role("region").first
    await expect(first).to_have_accessible_name("Decision")
    await expect(region.get_by_role("heading", name="Decision: Don't ship")).to_be_visible()
    await expect(region).to_contain_text(decision["sentence"])
    await expect(region).to_contain_text(policy["sentence"])
    await expect(region).to_contain_text("before the first call")

    criteria = region.get_by_role("list", name="Criteria")
    items = criteria.get_by_role("listitem")
    await expect(items).to_have_count(len(decision["criteria"]))
    level = round(decision["level"] * 100)
    quality = [c for c in decision["criteria"] if c["kind"] == "QUALITY"]
    assert {c["baselineCohortIndex"] for c in quality} == {1, 2}
    assert [c["status"] for c in sorted(quality, key=lambda c: c["baselineCohortIndex"])] == [
        "VIOLATED",
        "UNCERTAIN",
    ]
    for c in quality:
        name = LABELS[c["baselineCohortIndex"]]
        said = (
            f"{STATUS_WORDS[c['status']]} Quality (pass rate) vs {name}: "
            f"Δ {_points(c['estimate'])} points, {level}% interval {_points(c['low'])} to "
            f"{_points(c['high'])}; margin {_points(c['threshold'])} points."
        )
        await expect(items.filter(has_text=said)).to_have_count(1)
        await expect(items.filter(has_text=c["sentence"])).to_have_count(1)
    guarded = [c for c in decision["criteria"] if c["metric"] == "FAILED_OR_MISSING"]
    assert guarded and all(c["status"] == "MET" for c in guarded)
    await expect(
        items.filter(has_text="Met Guardrail: failed-or-missing trials vs v3")
    ).to_contain_text("allowed up to +5.0 points")

    figure = region.get_by_role("figure", name="Difference from each baseline")
    plot = figure.get_by_role("img")
    margin = _points(-policy["qualityMarginPoints"])
    v3 = next(c for c in quality if c["baselineCohortIndex"] == 1)
    await expect(plot).to_have_attribute(
        "aria-label", re.compile(rf"the margin {margin} points is the dashed line")
    )
    await expect(plot).to_have_attribute(
        "aria-label",
        re.compile(
            rf"v3: Δ {_points(v3['estimate'])} \({_points(v3['low'])} to "
            rf"{_points(v3['high'])}\): violated"
        ),
    )
    # The margin is drawn left of 0, right of v3's interval (violated) and inside v2's
    # (uncertain).
    drawn = await plot.evaluate(
        """svg => ({
          margin: Number(svg.querySelector('line.margin').getAttribute('x1')),
          zero: Number(svg.querySelector('line.zero').getAttribute('x1')),
          rows: [...svg.querySelectorAll('g.baseline line.interval')]
            .map(l => [Number(l.getAttribute('x1')), Number(l.getAttribute('x2'))]),
        })"""
    )
    (v3_low, v3_high), (v2_low, v2_high) = drawn["rows"]
    assert v3_high < drawn["margin"] < drawn["zero"]
    assert v2_low < drawn["margin"] < v2_high

    assert await axe_violations(page) == []
    await screenshot(page, "comparison-decision")
    assert page.console_errors == []
    assert requests.outside() == []


async def test_the_scorecard_shows_each_baseline_s_difference_not_a_winner_on_every_tie(
    sqlite_backend: Backend,
    portal_page: Any,
) -> None:
    page = portal_page
    f = await finalized_comparison(sqlite_backend)
    found = await _decision(f)
    await sign_in(
        page, sqlite_backend.base_url, f.token(Role.VIEWER), f"/comparisons/{f.comparison_id}"
    )
    scorecard = page.get_by_role("table", name="Scorecard")
    pass_rate = scorecard.get_by_role("row", name=re.compile(r"^Pass rate \(higher"))
    for v in found["scorecard"]["verdicts"]:
        label = LABELS[v["baselineCohortIndex"]]
        column = 1 + v["baselineCohortIndex"]  # the row header, then the candidate first
        cell = pass_rate.get_by_role("cell").nth(column - 1)
        await expect(cell).to_contain_text(
            f"Δ {_points(v['passRateDeltaPoints'])} points (95% interval "
            f"{_points(v['deltaLow'])} to {_points(v['deltaHigh'])})"
        )
        assert label  # each baseline's column carries its own difference
    candidate_cell = pass_rate.get_by_role("cell").first
    await expect(candidate_cell).to_have_text("66.7%")
    failed = scorecard.get_by_role("row", name=re.compile(r"^Failed or missing"))
    await expect(failed.get_by_role("cell").nth(1)).to_contain_text(
        "Δ 0.0 points (90% interval 0.0 to 0.0 points)"
    )
    # "winner" only where one cohort alone wins; the API keeps every tied winner.
    metrics = found["scorecard"]["metrics"]
    sole = sum(1 for m in metrics if len(m["winners"]) == 1)
    assert any(len(m["winners"]) > 1 for m in metrics)  # a tie the page must not mark
    await expect(scorecard.get_by_text("winner", exact=True)).to_have_count(sole)
    assert await axe_violations(page) == []
    assert page.console_errors == []


async def test_the_tabs_carry_the_counts_they_list_and_the_majority_line_says_what_it_counts(
    sqlite_backend: Backend,
    portal_page: Any,
) -> None:
    page = portal_page
    f = await finalized_comparison(sqlite_backend)
    card = (await _decision(f))["scorecard"]
    await sign_in(
        page, sqlite_backend.base_url, f.token(Role.VIEWER), f"/comparisons/{f.comparison_id}"
    )
    failures = page.get_by_role("region", name="Failure analysis")
    classes = card["failureAnalysis"]
    # The majority-outcome classes over all baselines differ from any one baseline's tabs
    # (v2: 8 worse and 4 better, the classes 8 regressed and 4 improved over both; v3: 8, 0).
    await expect(failures).to_contain_text(
        f"{classes['regressed']} regressed (the candidate failed where a baseline passed), "
        f"{classes['improved']} improved (it passed where a baseline failed), "
        f"{classes['bothWrong']} both wrong (it and every baseline failed), "
        f"{classes['agree']} agree (all passed)"
    )
    panel = failures.get_by_role("tabpanel")
    verdicts = {v["baselineCohortIndex"]: v for v in card["verdicts"]}
    for index, label in LABELS.items():
        await failures.get_by_role("combobox", name="Baseline").select_option(label=label)
        worse, better = verdicts[index]["worseCount"], verdicts[index]["betterCount"]
        expected = {
            "Regressions": worse,
            "Improvements": better,
            "All diverged": worse + better,
            "All": 24,
        }
        assert (worse, better) == ((8, 0) if label == "v3" else (8, 4))
        for name, listed in expected.items():
            tab = failures.get_by_role("tab", name=f"{name} ({listed})", exact=True)
            await tab.click()
            await expect(tab).to_have_attribute("aria-selected", "true")
            await expect(panel.get_by_role("button", name="Debug")).to_have_count(listed)
    assert await axe_violations(page) == []
    assert page.console_errors == []


async def test_sign_off_shows_the_decision_and_asks_for_the_override_when_not_ship(
    sqlite_backend: Backend,
    portal_page: Any,
) -> None:
    page = portal_page
    f = await finalized_comparison(sqlite_backend)
    decision = (await _decision(f))["decision"]
    report = await f.generate()
    # Every follow-up resolved: what stands in the way is the decision alone.
    edges = (await f.gql(OPEN_FOLLOW_UPS, {"id": report["id"]})).ok()["report"]["followUps"]
    ids = [e["node"]["id"] for e in edges["edges"]]
    (await f.gql(RESOLVE_MANY, {"ids": ids, "note": "looked at"})).ok()

    await sign_in(
        page, sqlite_backend.base_url, f.token(Role.ADMIN), f"/comparisons/{f.comparison_id}"
    )
    region = page.get_by_role("region", name="Reports")
    await region.get_by_role("button", name="Sign off").click()
    dialog = page.get_by_role("dialog", name="Sign off")
    await expect(dialog).to_contain_text(f"Ship decision: Don't ship — {decision['sentence']}")
    notice = dialog.get_by_text("Approving overrides the decision Don't ship")
    await expect(dialog.get_by_role("radio", name="Hold")).to_be_checked()  # as decided
    await expect(notice).to_have_count(0)
    await dialog.get_by_role("radio", name="Approve").check()
    await expect(notice).to_be_visible()
    await dialog.get_by_role("radio", name="Hold").check()
    await expect(notice).to_have_count(0)
    await dialog.get_by_role("radio", name="Approve").check()
    await expect(notice).to_be_visible()
    assert await axe_violations(page) == []

    await dialog.get_by_role("button", name="Sign off").click()
    alert = dialog.get_by_role("alert")
    await expect(alert).to_contain_text(
        "The decision is Don't ship, not Ship: "
        f"{decision['sentence'].rstrip('.')}. Hold, or approve with an override and a "
        "justification."
    )
    assert (await f.gql(AUDIT, role=Role.ADMIN)).ok()["auditEvents"]["edges"] == []

    await dialog.get_by_role("checkbox", name="Override open follow-ups or the decision").check()
    await dialog.get_by_role("textbox", name="Justification").fill("known flaky cases")
    await dialog.get_by_role("button", name="Sign off").click()
    await dialog.wait_for(state="hidden")
    await expect(region.get_by_role("region", name="Sign-off")).to_contain_text(
        "Signed off: approved over Don't ship, by admin"
    )
    events = (await f.gql(AUDIT, role=Role.ADMIN)).ok()["auditEvents"]["edges"]
    assert len(events) == 1
    details = events[0]["node"]["details"]
    assert details["overriddenDecision"]["outcome"] == "DONT_SHIP"
    assert details["overrideJustification"] == "known flaky cases"
    assert page.console_errors == []
