"""`signOff`: every rule of docs/domain.md, one test each."""

from __future__ import annotations

from typing import Any

from bench.kit.factories import make_workspace
from bench.kit.harness import Backend
from bench.kit.scenarios import run_comparison, scorecard_of, wait_finalized
from server.workspaces.roles import Role
from tests.server.reports.api import (
    AUDIT,
    REPORT,
    REPORTS,
    RESOLVE_MANY,
    SETTINGS,
    Finalized,
    finalized_comparison,
)

RELEASES = """
{ releases(first: 50) { edges { node { id name description createdAt
  bindings { role assetVersion { id } } } } } }
"""


async def _verdict(f: Finalized) -> Any:
    return (await f.gql(REPORTS, {"id": f.comparison_id})).ok()["comparison"]["verdict"]


async def _resolve_all(f: Finalized, report_id: str) -> None:
    ids = [i["id"] for i in await f.follow_ups(report_id, state="OPEN")]
    (await f.gql(RESOLVE_MANY, {"ids": ids, "note": "reviewed: acceptable"})).ok()


async def test_approve_with_open_follow_ups_and_no_override_is_a_conflict_listing_them(
    backend: Backend,
) -> None:
    f = await finalized_comparison(backend)
    report = await f.generate()
    result = await f.sign_off(report["id"], "APPROVE")
    assert result.codes == ["CONFLICT"]
    extensions = result.errors[0]["extensions"]
    assert extensions["reason"] == "OPEN_FOLLOW_UPS" and extensions["openCount"] == 16
    open_ids = {i["id"] for i in await f.follow_ups(report["id"], state="OPEN")}
    assert {item["id"] for item in extensions["openItems"]} == open_ids
    assert {item["baselineCohortIndex"] for item in extensions["openItems"]} == {1, 2}
    # Nothing was written.
    assert await _verdict(f) is None
    assert (await f.gql(REPORT, {"id": report["id"]})).ok()["report"]["signOff"] is None


async def test_approve_once_every_follow_up_is_resolved_promotes(backend: Backend) -> None:
    # A candidate identical to both baselines over 24 cases: the decision is SHIP and no
    # case got worse (no follow-ups), so an approval needs no override.
    same = ["P", "F", "P", "P"] * 6
    f = await finalized_comparison(backend, [same, same, same])
    assert f.comparison["decision"]["outcome"] == "SHIP"
    report = await f.generate()
    assert await f.follow_ups(report["id"], state="OPEN") == []
    signed = (await f.sign_off(report["id"], "APPROVE")).ok()["signOff"]
    assert (signed["decision"], signed["verdict"], signed["override"]) == (
        "APPROVE",
        "PROMOTE",
        False,
    )
    assert (signed["openFollowUps"], signed["resolvedFollowUps"]) == (0, 0)
    assert signed["signerMemberId"] == f.ws.member_ids[Role.ADMIN]
    assert await _verdict(f) == "PROMOTE"


async def test_approve_over_a_decision_that_is_not_ship_needs_an_override(
    backend: Backend,
) -> None:
    f = await finalized_comparison(backend)
    decision = f.comparison["decision"]
    assert decision["outcome"] == "DONT_SHIP"
    report = await f.generate()
    await _resolve_all(f, report["id"])
    refused = await f.sign_off(report["id"], "APPROVE")
    assert refused.codes == ["CONFLICT"]
    extensions = refused.errors[0]["extensions"]
    assert extensions["reason"] == "DECISION_NOT_SHIP"
    assert extensions["decision"]["outcome"] == "DONT_SHIP"
    assert extensions["decision"]["sentence"] == decision["sentence"]
    assert await _verdict(f) is None
    # HOLD needs nothing; APPROVE with a justification goes through, audited.
    why = "The regressions are on retired capitals."
    signed = (await f.sign_off(report["id"], "APPROVE", override=True, why=why)).ok()["signOff"]
    assert (signed["verdict"], signed["override"]) == ("PROMOTE", True)
    events = (await f.gql(AUDIT, {"action": "report.sign_off"}, role=Role.VIEWER)).ok()
    [event] = [e["node"] for e in events["auditEvents"]["edges"]]
    assert event["details"]["overriddenDecision"] == {
        "outcome": "DONT_SHIP",
        "reason": None,
        "sentence": decision["sentence"],
        "casesNeeded": None,
    }


async def test_an_override_needs_a_justification(backend: Backend) -> None:
    f = await finalized_comparison(backend)
    report = await f.generate()
    for why in (None, "", "   ", "x" * 2001):
        result = await f.sign_off(report["id"], "APPROVE", override=True, why=why)
        assert result.codes == ["VALIDATION_FAILED"], why
        assert result.errors[0]["extensions"]["field"] == "overrideJustification"
    stray = await f.sign_off(report["id"], "HOLD", why="a justification without override")
    assert stray.codes == ["VALIDATION_FAILED"]
    assert await _verdict(f) is None
    why = "Regressions are on retired capitals; shipping for the latency win."
    signed = (await f.sign_off(report["id"], "APPROVE", override=True, why=why)).ok()["signOff"]
    assert (signed["verdict"], signed["override"], signed["overrideJustification"]) == (
        "PROMOTE",
        True,
        why,
    )
    assert signed["openFollowUps"] == 16
    assert await _verdict(f) == "PROMOTE"


async def test_hold_and_request_changes_need_no_resolution(backend: Backend) -> None:
    f = await finalized_comparison(backend)
    first = await f.generate()
    held = (await f.sign_off(first["id"], "HOLD")).ok()["signOff"]
    assert (held["decision"], held["verdict"], held["openFollowUps"]) == ("HOLD", "HOLD", 16)
    assert await _verdict(f) == "HOLD"
    second = await f.generate()
    changes = (await f.sign_off(second["id"], "REQUEST_CHANGES", role=Role.OWNER)).ok()
    assert changes["signOff"]["verdict"] == "INCONCLUSIVE"
    assert changes["signOff"]["signerRole"] == "OWNER"
    assert await _verdict(f) == "INCONCLUSIVE"


async def test_the_latest_version_only(backend: Backend) -> None:
    f = await finalized_comparison(backend)
    first = await f.generate()
    await f.generate()
    result = await f.sign_off(first["id"], "HOLD")
    assert result.codes == ["CONFLICT"]
    assert result.errors[0]["extensions"]["reason"] == "NOT_LATEST_VERSION"
    assert result.errors[0]["extensions"]["latestVersion"] == 2
    assert await _verdict(f) is None


async def test_one_sign_off_per_version(backend: Backend) -> None:
    f = await finalized_comparison(backend)
    report = await f.generate()
    (await f.sign_off(report["id"], "HOLD")).ok()
    again = await f.sign_off(report["id"], "REQUEST_CHANGES", role=Role.OWNER)
    assert again.codes == ["CONFLICT"]
    assert again.errors[0]["extensions"]["reason"] == "ALREADY_SIGNED"
    assert await _verdict(f) == "HOLD"


async def test_admin_and_owner_only(backend: Backend) -> None:
    f = await finalized_comparison(backend)
    report = await f.generate()
    for role in (Role.VIEWER, Role.MEMBER):
        result = await f.sign_off(report["id"], "HOLD", role=role)
        assert result.codes == ["FORBIDDEN"], role
    assert await _verdict(f) is None
    assert (await f.sign_off(report["id"], "HOLD", role=Role.OWNER)).ok()


async def test_not_the_member_who_started_it_unless_self_sign_off_is_allowed(
    backend: Backend,
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    seed = await finalized_comparison(backend, ws=ws)
    admin = ws.tokens[Role.ADMIN]
    comparison_id = await run_comparison(backend, admin, seed.setup.input(trialsPerCase=1))
    assert (await wait_finalized(backend, admin, comparison_id))["verdictState"] == "FINALIZED"
    f = Finalized(
        backend, ws, seed.setup, comparison_id, await scorecard_of(backend, admin, comparison_id)
    )
    report = await f.generate(role=Role.ADMIN)
    refused = await f.sign_off(report["id"], "HOLD", role=Role.ADMIN)
    assert refused.codes == ["FORBIDDEN"]
    assert refused.errors[0]["extensions"]["reason"] == "SELF_SIGN_OFF"
    assert await _verdict(f) is None
    (await f.gql(SETTINGS, role=Role.OWNER)).ok()
    signed = (await f.sign_off(report["id"], "HOLD", role=Role.ADMIN)).ok()["signOff"]
    assert signed["signerMemberId"] == ws.member_ids[Role.ADMIN]


async def test_records_follow_up_states_and_an_audit_event_and_never_a_release(
    backend: Backend,
) -> None:
    f = await finalized_comparison(backend)
    report = await f.generate()
    ids = [i["id"] for i in await f.follow_ups(report["id"], b=1)]
    (await f.gql(RESOLVE_MANY, {"ids": ids, "note": "fine"})).ok()
    releases_before = (await f.gql(RELEASES)).ok()
    why = "the baseline-2 cases are known label noise"
    signed = (await f.sign_off(report["id"], "APPROVE", override=True, why=why)).ok()["signOff"]
    # Resolving after signing does not change what the sign-off recorded.
    rest = [i["id"] for i in await f.follow_ups(report["id"], state="OPEN")]
    (await f.gql(RESOLVE_MANY, {"ids": rest, "note": "later"})).ok()
    seen = (await f.gql(REPORT, {"id": report["id"]})).ok()["report"]["signOff"]
    states = {e["node"]["followUpId"]: e["node"]["state"] for e in seen["followUpStates"]["edges"]}
    assert seen["followUpStates"]["totalCount"] == 16
    assert {states[i] for i in ids} == {"RESOLVED"}
    assert {states[i] for i in rest} == {"OPEN"}
    assert (seen["openFollowUps"], seen["resolvedFollowUps"]) == (8, 8)
    events = (await f.gql(AUDIT, {"action": "report.sign_off"}, role=Role.VIEWER)).ok()
    [event] = [e["node"] for e in events["auditEvents"]["edges"]]
    assert (event["targetId"], event["actorRole"]) == (report["id"], "ADMIN")
    assert event["details"] | {} == {
        "comparisonId": f.comparison_id,
        "version": 1,
        "decision": "APPROVE",
        "verdict": "PROMOTE",
        "override": True,
        "overrideJustification": why,
        "openFollowUps": 8,
        "resolvedFollowUps": 8,
        "overriddenDecision": {
            "outcome": "DONT_SHIP",
            "reason": None,
            "sentence": f.comparison["decision"]["sentence"],
            "casesNeeded": None,
        },
    }
    assert signed["id"]
    assert (await f.gql(RELEASES)).ok() == releases_before
