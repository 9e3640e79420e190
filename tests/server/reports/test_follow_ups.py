"""Follow-ups: one per (case, baseline) among that baseline's worse cases, shared by every
version, resolved with a note by a MEMBER and up."""

from __future__ import annotations

from datetime import datetime

from bench.kit.harness import Backend
from server.workspaces.roles import Role
from tests.server.reports.api import (
    AUDIT,
    REPORT,
    RESOLVE,
    RESOLVE_MANY,
    finalized_comparison,
)


async def test_one_follow_up_per_worse_case_and_baseline_shared_by_versions(
    backend: Backend,
) -> None:
    f = await finalized_comparison(backend)
    first = await f.generate()
    items = await f.follow_ups(first["id"])
    # Candidate fails q-016…q-023, which both baselines pass: 8 worse cases per baseline.
    expected = {(b, f"q-{i:03d}") for b in (1, 2) for i in range(16, 24)}
    assert {(i["baselineCohortIndex"], i["datasetItemId"]) for i in items} == expected
    assert {i["state"] for i in items} == {"OPEN"}
    verdicts = {v["baselineCohortIndex"]: v for v in f.comparison["scorecard"]["verdicts"]}
    assert len(await f.follow_ups(first["id"], b=2)) == verdicts[2]["worseCount"] == 8
    second = await f.generate()
    assert {i["id"] for i in await f.follow_ups(second["id"])} == {i["id"] for i in items}


async def test_resolving_records_the_note_who_and_when(backend: Backend) -> None:
    f = await finalized_comparison(backend)
    report = await f.generate()
    items = await f.follow_ups(report["id"], b=1)
    one = (await f.gql(RESOLVE, {"id": items[0]["id"], "note": "  capital renamed  "})).ok()
    resolved = one["resolveFollowUp"]
    assert (resolved["state"], resolved["note"]) == ("RESOLVED", "capital renamed")
    assert resolved["resolvedByMemberId"] == f.ws.member_ids[Role.MEMBER]
    assert datetime.fromisoformat(resolved["resolvedAt"]) <= datetime.now().astimezone()
    rest = [i["id"] for i in items[1:]]
    many = (await f.gql(RESOLVE_MANY, {"ids": rest, "note": "checked"}, role=Role.ADMIN)).ok()
    assert [r["id"] for r in many["resolveFollowUps"]] == rest
    assert {r["state"] for r in many["resolveFollowUps"]} == {"RESOLVED"}
    assert await f.follow_ups(report["id"], state="OPEN", b=1) == []
    assert len(await f.follow_ups(report["id"], state="OPEN")) == 8
    # The report lists them with state, note, who and when.
    listed = (await f.gql(REPORT, {"id": report["id"]}, role=Role.VIEWER)).ok()["report"]
    by_id = {e["node"]["id"]: e["node"] for e in listed["followUps"]["edges"]}
    assert by_id[items[0]["id"]]["note"] == "capital renamed"
    assert by_id[rest[0]]["resolvedByMemberId"] == f.ws.member_ids[Role.ADMIN]
    events = (await f.gql(AUDIT, {"action": "follow_up.resolve"}, role=Role.VIEWER)).ok()
    nodes = [e["node"] for e in events["auditEvents"]["edges"]]
    assert [n["targetId"] for n in nodes] == [f.comparison_id, items[0]["id"]]  # newest first
    assert nodes[0]["details"]["followUpIds"] == rest
    assert nodes[1]["details"]["note"] == "capital renamed"


async def test_a_note_is_required_and_bad_input_changes_nothing(backend: Backend) -> None:
    f = await finalized_comparison(backend)
    report = await f.generate()
    ids = [i["id"] for i in await f.follow_ups(report["id"])]
    for note in ("", "   ", "x" * 2001):
        result = await f.gql(RESOLVE, {"id": ids[0], "note": note})
        assert result.codes == ["VALIDATION_FAILED"], note
        assert result.errors[0]["extensions"]["field"] == "note"
    assert (await f.gql(RESOLVE, {"id": ids[0], "note": "x" * 2000})).ok()
    # All or none: one already resolved (or unknown) id refuses the whole batch.
    again = await f.gql(RESOLVE_MANY, {"ids": ids[:3], "note": "again"})
    assert again.codes == ["CONFLICT"]
    assert again.errors[0]["extensions"]["resolvedIds"] == [ids[0]]
    unknown = await f.gql(RESOLVE_MANY, {"ids": [ids[1], "fu_unknown"], "note": "n"})
    assert unknown.codes == ["NOT_FOUND"]
    empty = await f.gql(RESOLVE_MANY, {"ids": [], "note": "n"})
    assert empty.codes == ["VALIDATION_FAILED"]
    assert len(await f.follow_ups(report["id"], state="OPEN")) == len(ids) - 1
