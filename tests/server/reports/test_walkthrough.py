"""The README's newcomer walkthrough after the verdict: a report, its page, follow-ups and a
sign-off by a second admin (the demo token's owner started the comparison)."""

from __future__ import annotations

from typing import Any

from bench.kit.harness import Backend
from bench.kit.scenarios import wait_finalized
from server.cli.demo import seed

COMPARE = """
mutation($dataset: ID!, $candidate: ID!, $baseline: ID!) {
  createComparison(input: {datasetId: $dataset, cohorts: [
    {kind: RELEASE, releaseId: $candidate}, {kind: RELEASE, releaseId: $baseline}]}) { id } }
"""
RUN = "mutation($id: ID!) { startComparison(id: $id, background: false) { status } }"
# The operations below are the README's, with variables for the ids.
REPORT = """
mutation($id: ID!) { generateReport(comparisonId: $id) {
  id version pagePath documentSha256
  followUps(state: OPEN, first: 100) { totalCount edges { node { id datasetItemId } } } } }
"""
LINK = "mutation($id: ID!) { reportLink(id: $id) { url expiresAt } }"
SIGN = "mutation($id: ID!) { signOff(reportId: $id, decision: APPROVE) { decision verdict } }"
OVERRIDE = """mutation($id: ID!, $why: String!) { signOff(reportId: $id, decision: APPROVE,
  override: true, overrideJustification: $why) { decision verdict } }"""
REVIEWER = """
mutation { addMember(name: "reviewer", role: ADMIN) { id } }
"""
REVIEWER_TOKEN = """
mutation($member: ID!) { createToken(name: "reviewer", memberId: $member) { secret } }
"""
RESOLVE = """
mutation($ids: [ID!]!) { resolveFollowUps(ids: $ids, note: "Checked: the simulated script's \
known misses.") { id state } }
"""
VERDICT = "query($id: ID!) { comparison(id: $id) { verdict } }"


async def _ok(backend: Backend, token: str, query: str, **variables: Any) -> Any:
    return (await backend.gql(query, variables, token=token)).ok()


async def test_from_the_verdict_to_a_report_and_a_sign_off(sqlite_backend: Backend) -> None:
    backend = sqlite_backend
    async with backend.sessionmaker() as session, session.begin():
        demo = await seed(session=session, secret_box=backend.state.secret_box)
    token = demo.token
    created = await _ok(
        backend, token, COMPARE, dataset=demo.dataset_id,
        candidate=demo.candidate_release_id, baseline=demo.baseline_release_id,
    )  # fmt: skip
    comparison_id = created["createComparison"]["id"]
    await _ok(backend, token, RUN, id=comparison_id)
    assert (await wait_finalized(backend, token, comparison_id))["verdictState"] == "FINALIZED"

    report = (await _ok(backend, token, REPORT, id=comparison_id))["generateReport"]
    assert report["version"] == 1
    open_items = report["followUps"]
    assert open_items["totalCount"] == 10  # the README's "10 cases that got worse"
    link = (await _ok(backend, token, LINK, id=report["id"]))["reportLink"]
    page = await backend.client.get(link["url"])
    assert page.status_code == 200 and "Regressed vs capitals v1" in page.text
    # The page opens with the decision and the policy it was taken under.
    decision_at = page.text.index('id="decision-sentence"')
    assert decision_at < page.text.index('id="summary"')
    assert "Don&#39;t ship capitals v2: more than 2 points worse than capitals v1" in page.text
    assert "Ship when at most 2 points worse than every baseline" in page.text

    own = await backend.gql(SIGN, {"id": report["id"]}, token=token)
    assert own.codes == ["FORBIDDEN"]
    assert own.errors[0]["extensions"]["reason"] == "SELF_SIGN_OFF"
    member = (await _ok(backend, token, REVIEWER))["addMember"]["id"]
    reviewer = (await _ok(backend, token, REVIEWER_TOKEN, member=member))["createToken"]["secret"]
    blocked = await backend.gql(SIGN, {"id": report["id"]}, token=reviewer)
    assert blocked.codes == ["CONFLICT"]
    assert len(blocked.errors[0]["extensions"]["openItems"]) == 10

    ids = [e["node"]["id"] for e in open_items["edges"]]
    await _ok(backend, token, RESOLVE, ids=ids)
    # Resolved, the approval still meets the decision: DONT_SHIP needs an override.
    refused = await backend.gql(SIGN, {"id": report["id"]}, token=reviewer)
    assert refused.codes == ["CONFLICT"]
    assert refused.errors[0]["extensions"]["reason"] == "DECISION_NOT_SHIP"
    assert refused.errors[0]["extensions"]["decision"]["outcome"] == "DONT_SHIP"
    why = {"why": "The ten misses are retired capitals; v2 ships for its price."}
    signed = (await _ok(backend, reviewer, OVERRIDE, id=report["id"], **why))["signOff"]
    assert signed == {"decision": "APPROVE", "verdict": "PROMOTE"}
    assert (await _ok(backend, token, VERDICT, id=comparison_id))["comparison"]["verdict"] == (
        "PROMOTE"
    )
