"""Imported runs through GraphQL: start → append (chunks) → complete / fail, on both backends."""

from __future__ import annotations

import asyncio
from typing import Any

from sqlalchemy import update

from bench.kit.factories import make_workspace
from bench.kit.harness import Backend
from server.runs.models import Run
from server.workspaces.roles import Role
from tests.server.runs.api import (
    COMPLETE,
    FAIL,
    RUN,
    append,
    experiment,
    import_run,
    item,
    start,
)


async def test_an_import_in_chunks_reads_back_with_its_items_paginated(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    member = ws.tokens[Role.MEMBER]
    exp = await experiment(backend, member)
    items = [item([True, False, None], item_id=f"i{n}", scores={"judge": n / 10}) for n in range(7)]
    items[2]["trials"][0]["output"] = "an answer"
    items[2]["trials"][0]["metrics"] = {"tokens": 12, "turns": 1, "toolCalls": 0, "wallMs": 8.5}
    started = (await start(backend, member, exp, "ci-1", {"commit": "abc"})).ok()["startRunImport"]
    assert started["status"] == "RUNNING" and started["source"] == "IMPORTED"
    assert started["metadata"] == {"commit": "abc"}
    first = (await append(backend, member, started["id"], items[:4])).ok()["appendRunItems"]
    assert first == {"appendedCount": 4, "itemCount": 4}
    second = (await append(backend, member, started["id"], items[4:], 4)).ok()["appendRunItems"]
    assert second == {"appendedCount": 3, "itemCount": 7}
    done = (await backend.gql(COMPLETE, {"id": started["id"]}, token=member)).ok()["completeRun"]
    assert done["status"] == "COMPLETED" and done["completedAt"] and done["itemCount"] == 7

    viewer = ws.tokens[Role.VIEWER]
    page = (await backend.gql(RUN, {"id": started["id"], "first": 3}, token=viewer)).ok()["run"]
    assert page["experiment"]["id"] == exp and page["itemCount"] == 7
    nodes = [edge["node"] for edge in page["items"]["edges"]]
    assert [n["position"] for n in nodes] == [0, 1, 2]
    assert page["items"]["totalCount"] == 7 and page["items"]["pageInfo"]["hasNextPage"]
    third = nodes[2]
    assert (third["trialCount"], third["gradedCount"], third["passedCount"]) == (3, 2, 1)
    assert third["passFraction"] == 0.5 and third["datasetItemId"] == "i2"
    trial = third["trials"][0]
    assert trial["output"] == "an answer" and trial["evaluators"] == [
        {"name": "judge", "score": 0.2}
    ]
    assert trial["metrics"] == {
        "tokens": 12.0, "turns": 1.0, "toolCalls": 0.0, "wallMs": 8.5, "errors": None
    }  # fmt: skip
    after = page["items"]["pageInfo"]["endCursor"]
    rest = await backend.gql(RUN, {"id": started["id"], "first": 10, "after": after}, token=viewer)
    assert [e["node"]["position"] for e in rest.ok()["run"]["items"]["edges"]] == [3, 4, 5, 6]

    listing = await backend.gql(
        "query($e: ID!) { runs(experimentId: $e) { totalCount edges { node { id status } } } }",
        {"e": exp},
        token=viewer,
    )
    assert listing.ok()["runs"]["edges"] == [{"node": {"id": started["id"], "status": "COMPLETED"}}]


async def test_the_same_key_and_items_are_a_no_op_and_different_items_conflict(
    backend: Backend,
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    exp = await experiment(backend, ws.owner)
    items = [item(True, item_id=f"i{n}") for n in range(4)]
    first = (await start(backend, ws.owner, exp, "key")).ok()["startRunImport"]["id"]
    (await append(backend, ws.owner, first, items[:2])).ok()
    again = (await start(backend, ws.owner, exp, "key")).ok()["startRunImport"]
    assert again["id"] == first and again["itemCount"] == 2
    retried = (await append(backend, ws.owner, first, items[:2], 0)).ok()["appendRunItems"]
    assert retried == {"appendedCount": 0, "itemCount": 2}
    overlapping = (await append(backend, ws.owner, first, items[1:], 1)).ok()["appendRunItems"]
    assert overlapping == {"appendedCount": 2, "itemCount": 4}
    changed = [item(False, item_id="i0")]
    refused = await append(backend, ws.owner, first, changed, 0)
    assert refused.codes == ["CONFLICT"]
    assert refused.errors[0]["extensions"]["reason"] == "ITEMS_DIFFER"
    (await backend.gql(COMPLETE, {"id": first}, token=ws.owner)).ok()
    assert (await backend.gql(COMPLETE, {"id": first}, token=ws.owner)).ok()  # a no-op

    completed = (await start(backend, ws.owner, exp, "key")).ok()["startRunImport"]
    assert completed["id"] == first and completed["status"] == "COMPLETED"
    same = (await append(backend, ws.owner, first, items, 0)).ok()["appendRunItems"]
    assert same == {"appendedCount": 0, "itemCount": 4}
    more = await append(backend, ws.owner, first, [item(True, item_id="i9")])
    assert more.codes == ["CONFLICT"]
    assert more.errors[0]["extensions"]["reason"] == "RUN_COMPLETED"
    other_exp = await experiment(backend, ws.owner, "other")
    assert (await start(backend, ws.owner, other_exp, "key")).codes == ["CONFLICT"]


async def test_after_failing_the_key_starts_afresh(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    exp = await experiment(backend, ws.owner)
    first = await import_run(backend, ws.owner, exp, [item(True)], key="k", complete=False)
    failed = (await backend.gql(FAIL, {"id": first}, token=ws.owner)).ok()["failRun"]
    assert failed["status"] == "FAILED" and failed["errorCode"] == "import_failed"
    assert (await append(backend, ws.owner, first, [item(True)], 1)).codes == ["CONFLICT"]
    assert (await backend.gql(COMPLETE, {"id": first}, token=ws.owner)).codes == ["CONFLICT"]
    fresh = (await start(backend, ws.owner, exp, "k")).ok()["startRunImport"]
    assert fresh["id"] != first and fresh["status"] == "RUNNING" and fresh["itemCount"] == 0
    done = await import_run(backend, ws.owner, exp, [item(True)], key="done")
    assert (await backend.gql(FAIL, {"id": done}, token=ws.owner)).codes == ["CONFLICT"]


def _error(result: Any) -> tuple[str, str]:
    error = result.errors[0]
    return error["extensions"]["code"], error["message"]


async def test_limits_and_bad_items_are_refused_and_change_nothing(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    exp = await experiment(backend, ws.owner)
    run = (await start(backend, ws.owner, exp, "limits")).ok()["startRunImport"]["id"]
    too_many = [{"input": "", "trials": [{"passed": True}]}] * 5001
    assert _error(await append(backend, ws.owner, run, too_many))[0] == "VALIDATION_FAILED"
    evaluators = {f"e{n}": 1.0 for n in range(51)}
    wide = item(True, scores=evaluators)
    code, message = _error(await append(backend, ws.owner, run, [item(True), wide]))
    assert code == "VALIDATION_FAILED" and message.startswith("items[1]") and "50" in message
    long_output = item(True)
    long_output["trials"][0]["output"] = "x" * 100_001
    code, message = _error(await append(backend, ws.owner, run, [long_output]))
    assert code == "VALIDATION_FAILED" and "100,000" in message
    fine_output = item(True)
    fine_output["trials"][0]["output"] = "x" * 100_000
    for bad, field in (
        ({"trials": [{"passed": True}]}, "input"),
        ({"input": "q", "trials": []}, "trials"),
        ({"input": "q", "trials": [{"passed": "yes"}]}, "passed"),
        ({"input": "q", "trials": [{"evaluators": {"j": "high"}}]}, "evaluators"),
        ({"input": "q", "trials": [{"metrics": {"cost": 1}}]}, "metrics"),
        ({"input": "q", "position": -1, "trials": [{"passed": True}]}, "position"),
        ({"input": "q", "position": "2", "trials": [{"passed": True}]}, "position"),
        ({"input": "q", "trials": [{"passed": True}], "extra": 1}, "extra"),
    ):
        code, message = _error(await append(backend, ws.owner, run, [bad]))
        assert code == "VALIDATION_FAILED" and field in message, message
    duplicate = [item(True, item_id="same"), item(False, item_id="same")]
    assert _error(await append(backend, ws.owner, run, duplicate))[0] == "VALIDATION_FAILED"
    twice = [{**item(True), "position": 4}, {**item(False), "position": 4}]
    assert "appears more than once" in _error(await append(backend, ws.owner, run, twice))[1]
    state = (await backend.gql(RUN, {"id": run}, token=ws.owner)).ok()["run"]
    assert state["itemCount"] == 0 and state["items"]["totalCount"] == 0
    empty = await backend.gql(COMPLETE, {"id": run}, token=ws.owner)
    assert _error(empty)[0] == "VALIDATION_FAILED"
    assert (await append(backend, ws.owner, run, [fine_output])).ok()
    # A datasetItemId repeated across chunks is caught when the run completes.
    (await append(backend, ws.owner, run, [item(True, item_id="twice")])).ok()
    (await append(backend, ws.owner, run, [item(True, item_id="twice")])).ok()
    code, message = _error(await backend.gql(COMPLETE, {"id": run}, token=ws.owner))
    assert code == "VALIDATION_FAILED" and "twice" in message

    gappy = (await start(backend, ws.owner, exp, "gap")).ok()["startRunImport"]["id"]
    (await append(backend, ws.owner, gappy, [item(True)] * 2, 3)).ok()  # chunks may race
    complete_5 = "mutation($id: ID!) { completeRun(runId: $id, itemCount: 5) { itemCount } }"
    code, message = _error(await backend.gql(complete_5, {"id": gappy}, token=ws.owner))
    assert code == "VALIDATION_FAILED" and "a chunk is missing" in message
    (await append(backend, ws.owner, gappy, [item(True)] * 3, 0)).ok()
    done = (await backend.gql(complete_5, {"id": gappy}, token=ws.owner)).ok()["completeRun"]
    assert done["itemCount"] == 5


async def test_items_keep_their_own_positions_and_a_run_holds_at_most_100000(
    backend: Backend,
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    exp = await experiment(backend, ws.owner)
    sparse = [{**item(True, item_id=f"s{n}"), "position": 10 * n + 1} for n in range(4)]
    run = await import_run(backend, ws.owner, exp, sparse, key="sparse", chunk=3)
    page = (await backend.gql(RUN, {"id": run}, token=ws.owner)).ok()["run"]
    assert [e["node"]["position"] for e in page["items"]["edges"]] == [1, 11, 21, 31]
    full = (await start(backend, ws.owner, exp, "full")).ok()["startRunImport"]["id"]
    (await append(backend, ws.owner, full, [item(True)] * 2)).ok()
    async with backend.sessionmaker() as session, session.begin():
        # Stand in for 99,998 appended items: the count is what the limit reads.
        await session.execute(update(Run).where(Run.id == full).values(item_count=99_999))
    quota = await append(backend, ws.owner, full, [item(True)] * 2, 5)
    assert _error(quota)[0] == "QUOTA_EXCEEDED"
    assert (await append(backend, ws.owner, full, [item(True)], 5)).ok()


async def test_roles_and_workspaces(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    other = await make_workspace(backend.sessionmaker, name="other")
    exp = await experiment(backend, ws.owner)
    assert (await start(backend, ws.tokens[Role.VIEWER], exp, "v")).codes == ["FORBIDDEN"]
    assert (await start(backend, other.owner, exp, "o")).codes == ["NOT_FOUND"]
    run = await import_run(backend, ws.tokens[Role.MEMBER], exp, [item(True)], key="m")
    assert (await backend.gql(RUN, {"id": run}, token=other.owner)).codes == ["NOT_FOUND"]
    assert (await append(backend, other.owner, run, [item(True)])).codes == ["NOT_FOUND"]
    assert (await backend.gql(FAIL, {"id": run}, token=other.owner)).codes == ["NOT_FOUND"]
    listing = await backend.gql("{ runs { totalCount } }", token=other.owner)
    assert listing.ok()["runs"]["totalCount"] == 0
    assert (await backend.gql(RUN, {"id": run})).codes == ["UNAUTHENTICATED"]


async def test_the_same_chunk_sent_twice_at_once_is_written_once(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    exp = await experiment(backend, ws.owner)
    run = (await start(backend, ws.owner, exp, "race")).ok()["startRunImport"]["id"]
    chunk = [item(True, item_id=f"i{n}", scores={"j": 0.5}) for n in range(300)]
    results = await asyncio.gather(*(append(backend, ws.owner, run, chunk, 0) for _ in range(3)))
    written = []
    for result in results:
        if result.errors:
            assert result.errors[0]["extensions"]["reason"] == "CONCURRENT_APPEND"
        else:
            written.append(result.data["appendRunItems"]["appendedCount"])
    assert sorted(written)[-1] == 300 and sum(written) == 300
    state = (await backend.gql(RUN, {"id": run}, token=ws.owner)).ok()["run"]
    assert state["itemCount"] == 300 and state["items"]["totalCount"] == 300
