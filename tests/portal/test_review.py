"""Human labels in the portal: the comparison page's "Judges" region, the review page walked
from the keyboard alone (the judge's grade hidden until the reviewer answers), and labelling
from the case-debug dialog."""

from __future__ import annotations

import re
from typing import Any

from playwright.async_api import expect

from bench.kit.harness import Backend
from bench.kit.openai_server import FakeOpenAI
from server.workspaces.roles import Role
from tests.portal.harness import (
    Requests,
    axe_violations,
    screenshot,
    sign_in,
)
from tests.server.labels.api import QUEUE
from tests.server.labels.judged import Judged, judged_comparison
from tests.server.reports.api import finalized_comparison

CASES = 12


async def _next_in_queue(j: Judged, at: int = 0) -> tuple[str, bool, bool]:
    """The trial the queue hands out `at` places on: (its heading, its truth, the judge's
    grade). Two cohorts' trials of one case share a heading: the reviewer is blind to cohorts."""
    result = await j.gql(QUEUE, {"id": j.comparison_id, "first": at + 1})
    trial = result.ok()["reviewQueue"][at]["trial"]
    case = int(trial["datasetItemId"].removeprefix("q-"))
    heading = f"Case {trial['datasetItemId']}, trial {trial['trialIndex'] + 1}"
    cohort = trial["cohortIndex"]
    return heading, j.truth[cohort][case], j.judged[cohort][case]


def _word(passed: bool) -> str:
    return "Pass" if passed else "Fail"


async def test_the_review_page_from_the_keyboard_alone(
    sqlite_backend: Backend,
    fake_openai: FakeOpenAI,
    portal_page: Any,
) -> None:
    page = portal_page
    j = await judged_comparison(sqlite_backend, fake_openai, cases=CASES)
    requests = Requests(page, sqlite_backend.base_url)
    await sign_in(
        page, sqlite_backend.base_url, j.ws.tokens[Role.MEMBER], f"/comparisons/{j.comparison_id}"
    )
    judges = page.get_by_role("region", name="Judges")
    await expect(judges).to_contain_text(f"0 labelled of {2 * CASES} graded trials")
    table = judges.get_by_role("table", name="Judge agreement with human labels")
    await expect(table.get_by_role("row", name=j.check_key)).to_have_count(1)
    await judges.get_by_role("link", name=f"Review trials ({2 * CASES} still to label)").click()

    await expect(page.get_by_role("heading", name=re.compile("^Review trials"))).to_be_visible()
    progress = page.get_by_text(re.compile(r"^\d+ labelled of \d+$"))
    await expect(progress).to_have_text(f"0 labelled of {2 * CASES}")
    item = page.get_by_role("region", name="Trial to review")
    status = page.get_by_role("status")
    heading, right, judged = await _next_in_queue(j)
    await expect(item.get_by_role("heading", name=heading)).to_be_visible()
    await expect(status).to_have_text("")  # the judge's grade is not shown before an answer
    await expect(page.get_by_text("the judge said")).to_have_count(0)
    assert await axe_violations(page) == []
    await screenshot(page, "review")

    # P labels the trial as the truth says (here by key, whatever it is: the test enters
    # the truth with P or F), then the judge's grade of that trial shows.
    await page.keyboard.press("p" if right else "f")
    item_id = heading.split(",")[0].removeprefix("Case ")
    await expect(status).to_have_text(
        f"{item_id}: you said {_word(right)}; the judge said {_word(judged)}."
    )
    await expect(progress).to_have_text(f"1 labelled of {2 * CASES}")

    # S skips: the status says so, the trial after it shows and nothing is labelled.
    skipped, _, _ = await _next_in_queue(j)
    after_it, _, _ = await _next_in_queue(j, at=1)
    await expect(item.get_by_role("heading", name=skipped)).to_be_visible()
    await page.keyboard.press("s")
    skipped_id = skipped.split(",")[0].removeprefix("Case ")
    await expect(status).to_have_text(f"{skipped_id}: skipped, left unlabelled.")
    await expect(item.get_by_role("heading", name=after_it)).to_be_visible()
    await expect(progress).to_have_text(f"1 labelled of {2 * CASES}")

    # Tab reaches the buttons: "Fail" by Tab and Enter.
    fail = item.get_by_role("button", name="Fail")
    for _ in range(12):
        if await fail.evaluate("element => element === document.activeElement"):
            break
        await page.keyboard.press("Tab")
    await expect(fail).to_be_focused()
    await page.keyboard.press("Enter")
    await expect(status).to_contain_text("you said Fail")
    await expect(progress).to_have_text(f"2 labelled of {2 * CASES}")
    assert await axe_violations(page) == []

    await page.get_by_role("link", name="Back to the comparison").click()
    await expect(judges).to_contain_text(f"2 labelled of {2 * CASES} graded trials")
    await expect(
        judges.get_by_role("link", name=f"Review trials ({2 * CASES - 2} still to label)")
    ).to_be_visible()
    row = table.get_by_role("row", name=j.check_key)
    await expect(row.get_by_role("cell").first).to_have_text("2")
    assert page.console_errors == []
    assert requests.outside() == []


async def test_labelling_from_the_case_dialog(
    sqlite_backend: Backend,
    portal_page: Any,
) -> None:
    page = portal_page
    done = await finalized_comparison(sqlite_backend)
    await sign_in(
        page, sqlite_backend.base_url, done.token(Role.MEMBER), f"/comparisons/{done.comparison_id}"
    )
    failures = page.get_by_role("region", name="Failure analysis")
    await (
        failures.get_by_role("row", name=re.compile(r"^q-016 "))
        .get_by_role("button", name="Debug")
        .click()
    )
    dialog = page.get_by_role("dialog", name="Case q-016")
    candidate = dialog.get_by_role("region", name="v4 (candidate)")
    await candidate.get_by_role("button", name="Label pass").click()
    labels = candidate.get_by_role("list", name="Labels of trial 1")
    await expect(labels).to_have_text("member: pass")
    await candidate.get_by_role("button", name="Label fail").click()
    await expect(labels).to_have_text("member: fail")  # the labeller's latest replaces it
    assert await axe_violations(page) == []
    assert page.console_errors == []
    # The judges region stays away without a judge check.
    await page.keyboard.press("Escape")
    await expect(page.get_by_role("region", name="Failure analysis")).to_be_visible()
    assert await page.get_by_role("region", name="Judges").count() == 0


PROGRESS = "query($id: ID!) { comparison(id: $id) { reviewProgress { labelled graded } } }"


async def test_the_review_page_is_linked_and_says_nothing_of_a_judge_that_does_not_exist(
    sqlite_backend: Backend,
    portal_page: Any,
) -> None:
    """Issue 51 (7): a comparison without a judge check links its review page with the count
    still to label; labelling there says what you said, and nothing about a judge."""
    page = portal_page
    done = await finalized_comparison(sqlite_backend)
    graded = (await done.gql(PROGRESS, {"id": done.comparison_id})).ok()["comparison"][
        "reviewProgress"
    ]["graded"]
    assert graded > 0
    await sign_in(
        page, sqlite_backend.base_url, done.token(Role.MEMBER), f"/comparisons/{done.comparison_id}"
    )
    review = page.get_by_role("region", name="Review")
    link = review.get_by_role("link", name=f"Review trials ({graded} still to label)")
    await expect(link).to_be_visible()
    await expect(page.get_by_role("region", name="Judges")).to_have_count(0)
    assert "judge" not in (await review.inner_text()).lower()
    assert await axe_violations(page) == []
    await link.click()

    await expect(page.get_by_role("heading", name=re.compile("^Review trials"))).to_be_visible()
    item = page.get_by_role("region", name="Trial to review")
    heading = item.get_by_role("heading", name=re.compile(r"^Case q-\d+, trial 1$"))
    await expect(heading).to_be_visible()
    item_id = (await heading.inner_text()).split(",")[0].removeprefix("Case ")
    await page.keyboard.press("p")
    await expect(page.get_by_role("status")).to_have_text(f"{item_id}: you said Pass.")
    await expect(page.get_by_text(re.compile("judge", re.IGNORECASE))).to_have_count(0)

    await page.get_by_role("link", name="Back to the comparison").click()
    await expect(
        page.get_by_role("region", name="Review").get_by_role(
            "link", name=f"Review trials ({graded - 1} still to label)"
        )
    ).to_be_visible()
    assert page.console_errors == []
