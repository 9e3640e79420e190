"""A dataset version's life: OPEN → appended in chunks → SEALED (never changed) or DISCARDED."""

from __future__ import annotations

import asyncio
import hashlib
from typing import Any

import pytest
from sqlalchemy import func, select, text

from bench.kit.factories import actor_for, dataset_cases, make_dataset, make_workspace
from bench.kit.harness import Backend
from bench.kit.waiting import eventually
from server.audit.models import AuditEvent
from server.datasets import versions
from server.datasets.digest import case_line
from server.datasets.models import DatasetCase
from server.errors import Conflict, ValidationFailed
from server.workspaces.roles import Role
from tests.server.datasets.api import (
    APPEND,
    DATASET,
    DISCARD,
    DISCARD_KEEPING,
    append,
    create_dataset,
    dataset,
    open_version,
    seal,
    sealed_dataset,
)


def expected_hash(cases: list[dict[str, Any]]) -> str:
    """The documented definition, computed in Python from the cases as sent."""
    digest = hashlib.sha256()
    for case in cases:
        digest.update(
            case_line(
                case["datasetItemId"],
                case["input"],
                case.get("expected"),
                case.get("split", "DEV"),
                case.get("tags", []),
            )
        )
    return digest.hexdigest()


async def rows_of(backend: Backend, version_id: str) -> int:
    async with backend.sessionmaker() as session:
        count = await session.scalar(
            select(func.count())
            .select_from(DatasetCase)
            .where(DatasetCase.dataset_version_id == version_id)
        )
    return int(count or 0)


async def test_chunks_are_sealed_with_counts_per_split_and_a_content_hash(
    backend: Backend,
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    token = ws.tokens[Role.MEMBER]
    cases = dataset_cases(30, holdout=12)
    cases[0] = {"datasetItemId": "turns", "input": [{"role": "user", "content": "hi"}]}
    cases[1] = {"datasetItemId": "text", "input": "plain", "expected": {"a": [1, 2.5, None]}}
    dataset_id = await create_dataset(backend, token)
    version_id = await open_version(backend, token, dataset_id)
    first = (await append(backend, token, version_id, cases[:25])).ok()["appendDatasetCases"]
    assert first["appendedCount"] == 25 and first["caseCount"] == 25
    assert first["version"]["state"] == "OPEN"
    second = (await append(backend, token, version_id, cases[25:])).ok()["appendDatasetCases"]
    assert second["caseCount"] == 42

    sealed = (await seal(backend, token, version_id)).ok()["sealDatasetVersion"]
    assert sealed["state"] == "SEALED" and sealed["number"] == 1
    assert sealed["caseCount"] == 42
    assert sealed["caseCounts"] == {"dev": 30, "holdout": 12}
    assert sealed["contentHash"] == expected_hash(cases)
    assert sealed["holdoutLooks"] == 0 and sealed["sealedAt"] is not None
    found = await dataset(backend, ws.tokens[Role.VIEWER], dataset_id)
    assert found["latestVersion"] == {"id": version_id, "number": 1}
    assert await rows_of(backend, version_id) == 42


async def test_the_same_cases_hash_the_same_whatever_the_chunks_or_key_order(
    backend: Backend,
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    cases = dataset_cases(20, holdout=5)
    _, by_five = await sealed_dataset(backend, ws.owner, cases, name="fives", chunk=5)
    reordered = [dict(reversed(list(case.items()))) for case in cases]
    _, at_once = await sealed_dataset(backend, ws.owner, reordered, name="once", chunk=100)
    built = await make_dataset(backend.sessionmaker, ws, cases=20, holdout=5)
    assert by_five["contentHash"] == at_once["contentHash"] == built.content_hash
    other = [*cases[:-1], {**cases[-1], "tags": ["changed"]}]
    _, changed = await sealed_dataset(backend, ws.owner, other, name="changed")
    assert changed["contentHash"] != by_five["contentHash"]


async def test_a_sealed_version_never_changes(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    _, sealed = await sealed_dataset(backend, ws.owner, dataset_cases(10))
    version_id = sealed["id"]
    more = dataset_cases(1, prefix="more")
    assert (await append(backend, ws.owner, version_id, more)).codes == ["CONFLICT"]
    assert (await append(backend, ws.owner, version_id, more, position=10)).codes == ["CONFLICT"]
    assert (await seal(backend, ws.owner, version_id)).codes == ["CONFLICT"]
    discarded = await backend.gql(DISCARD, {"id": version_id}, token=ws.owner)
    assert discarded.codes == ["CONFLICT"]
    assert await rows_of(backend, version_id) == 10
    again = (await dataset(backend, ws.owner, sealed["datasetId"]))["versions"][0]
    assert again["state"] == "SEALED" and again["contentHash"] == sealed["contentHash"]


async def test_one_open_version_at_a_time_and_discarding_drops_its_cases(
    backend: Backend,
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    dataset_id, first = await sealed_dataset(backend, ws.owner, dataset_cases(2))
    version_id = await open_version(backend, ws.owner, dataset_id)
    again = await backend.gql(
        "mutation($id: ID!) { openDatasetVersion(datasetId: $id) { id } }",
        {"id": dataset_id},
        token=ws.owner,
    )
    assert again.codes == ["CONFLICT"]
    (await append(backend, ws.owner, version_id, dataset_cases(7))).ok()
    discarded = await backend.gql(DISCARD, {"id": version_id}, token=ws.owner)
    assert discarded.ok()["discardDatasetVersion"]["state"] == "DISCARDED"
    assert await rows_of(backend, version_id) == 0
    assert (await append(backend, ws.owner, version_id, dataset_cases(1))).codes == ["CONFLICT"]
    assert (await seal(backend, ws.owner, version_id)).codes == ["CONFLICT"]

    next_id = await open_version(backend, ws.owner, dataset_id)
    (await append(backend, ws.owner, next_id, dataset_cases(3))).ok()
    (await seal(backend, ws.owner, next_id)).ok()
    found = await dataset(backend, ws.owner, dataset_id)
    assert [(v["number"], v["state"]) for v in found["versions"]] == [
        (3, "SEALED"),
        (2, "DISCARDED"),
        (1, "SEALED"),
    ]
    assert found["latestVersion"]["id"] == next_id
    assert found["versions"][2]["id"] == first["id"]


async def test_a_failed_first_import_leaves_no_dataset(backend: Backend) -> None:
    """Issue 34 (f): discarding the only version of a dataset that was never sealed removes
    the dataset, so a failed import leaves no empty dataset in the list, and its name free."""
    ws = await make_workspace(backend.sessionmaker)
    await sealed_dataset(backend, ws.owner, dataset_cases(2), name="kept")
    dataset_id = await create_dataset(backend, ws.owner, "bad set")
    version_id = await open_version(backend, ws.owner, dataset_id)
    (await append(backend, ws.owner, version_id, dataset_cases(4))).ok()
    refused = await append(backend, ws.owner, version_id, [{"datasetItemId": "x"}])
    assert refused.codes == ["VALIDATION_FAILED"]
    discarded = await backend.gql(DISCARD, {"id": version_id}, token=ws.tokens[Role.MEMBER])
    assert discarded.ok()["discardDatasetVersion"]["state"] == "DISCARDED"
    listing = await backend.gql(
        "{ datasets(first: 10) { totalCount edges { node { name } } } }", token=ws.owner
    )
    assert listing.ok()["datasets"]["totalCount"] == 1
    assert [e["node"]["name"] for e in listing.ok()["datasets"]["edges"]] == ["kept"]
    gone = await backend.gql(DATASET, {"id": dataset_id}, token=ws.owner)
    assert gone.codes == ["NOT_FOUND"]
    assert await rows_of(backend, version_id) == 0
    async with backend.sessionmaker() as session:
        actions = (
            await session.scalars(
                select(AuditEvent.action)
                .where(AuditEvent.workspace_id == ws.id, AuditEvent.target_id == dataset_id)
                .order_by(AuditEvent.id)
            )
        ).all()
    assert actions == ["dataset.create", "dataset.remove_empty"]
    again = await create_dataset(backend, ws.owner, "bad set")  # the name is free again
    assert again != dataset_id


async def test_discarding_with_keep_dataset_drops_the_version_alone(backend: Backend) -> None:
    """Issue 51 (2): the portal's "Discard" of a first, never-sealed version keeps the dataset
    (its page stays); the version is DISCARDED with its cases, and a new one can be opened."""
    ws = await make_workspace(backend.sessionmaker)
    dataset_id = await create_dataset(backend, ws.owner, "first upload")
    version_id = await open_version(backend, ws.owner, dataset_id)
    (await append(backend, ws.owner, version_id, dataset_cases(4))).ok()
    discarded = await backend.gql(DISCARD_KEEPING, {"id": version_id}, token=ws.tokens[Role.MEMBER])
    assert discarded.ok()["discardDatasetVersion"]["state"] == "DISCARDED"
    found = await dataset(backend, ws.owner, dataset_id)
    assert found["name"] == "first upload"
    assert [(v["number"], v["state"]) for v in found["versions"]] == [(1, "DISCARDED")]
    assert found["latestVersion"] is None
    assert await rows_of(backend, version_id) == 0
    again = await open_version(backend, ws.owner, dataset_id)
    assert (await dataset(backend, ws.owner, dataset_id))["versions"][0]["id"] == again
    async with backend.sessionmaker() as session:
        actions = (
            await session.scalars(
                select(AuditEvent.action)
                .where(AuditEvent.workspace_id == ws.id, AuditEvent.action.like("dataset.%"))
                .order_by(AuditEvent.id)
            )
        ).all()
    assert "dataset.remove_empty" not in actions
    assert actions.count("dataset.version_discard") == 1


async def test_open_and_discarded_versions_are_never_the_latest(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    dataset_id, first = await sealed_dataset(backend, ws.owner, dataset_cases(4))
    open_id = await open_version(backend, ws.owner, dataset_id)
    (await append(backend, ws.owner, open_id, dataset_cases(6))).ok()
    found = await dataset(backend, ws.owner, dataset_id)
    assert found["latestVersion"]["id"] == first["id"]
    assert found["versions"][0]["state"] == "OPEN" and found["versions"][0]["caseCount"] == 6
    assert found["versions"][0]["contentHash"] is None


async def test_an_empty_version_cannot_be_sealed(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    dataset_id = await create_dataset(backend, ws.owner)
    version_id = await open_version(backend, ws.owner, dataset_id)
    result = await seal(backend, ws.owner, version_id)
    assert result.codes == ["VALIDATION_FAILED"]
    assert "empty" in result.errors[0]["message"]
    assert (await dataset(backend, ws.owner, dataset_id))["versions"][0]["state"] == "OPEN"


async def test_concurrent_chunks_with_positions_keep_the_file_order(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    cases = dataset_cases(60)
    version_id = await open_version(backend, ws.owner, await create_dataset(backend, ws.owner))
    chunks = [(low, cases[low : low + 10]) for low in range(0, 60, 10)]
    results = await asyncio.gather(
        *(append(backend, ws.owner, version_id, chunk, position=low) for low, chunk in chunks[::-1])
    )
    assert all(not r.errors for r in results)
    sealed = (await seal(backend, ws.owner, version_id)).ok()["sealDatasetVersion"]
    assert sealed["caseCount"] == 60 and sealed["contentHash"] == expected_hash(cases)


async def test_a_gap_in_positions_cannot_be_sealed_and_overlaps_conflict(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    cases = dataset_cases(30)
    version_id = await open_version(backend, ws.owner, await create_dataset(backend, ws.owner))
    (await append(backend, ws.owner, version_id, cases[:10], position=0)).ok()
    (await append(backend, ws.owner, version_id, cases[20:], position=20)).ok()
    overlap = await append(backend, ws.owner, version_id, cases[10:20], position=15)
    assert overlap.codes == ["CONFLICT"] and "15-24" in overlap.errors[0]["message"]
    gap = await seal(backend, ws.owner, version_id)
    assert gap.codes == ["VALIDATION_FAILED"] and "position 10" in gap.errors[0]["message"]
    (await append(backend, ws.owner, version_id, cases[10:20], position=10)).ok()
    assert (await seal(backend, ws.owner, version_id)).ok()["sealDatasetVersion"][
        "contentHash"
    ] == expected_hash(cases)


async def test_each_change_writes_one_audit_event(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    dataset_id, sealed = await sealed_dataset(backend, ws.owner, dataset_cases(12), chunk=5)
    async with backend.sessionmaker() as session:
        actions = list(
            await session.scalars(
                select(AuditEvent.action)
                .where(AuditEvent.target_id.in_([dataset_id, sealed["id"]]))
                .order_by(AuditEvent.id)
            )
        )
    assert actions == [
        "dataset.create",
        "dataset.version_open",
        *["dataset.cases_append"] * 3,
        "dataset.version_seal",
    ]


async def test_appending_needs_the_version_id_and_a_list(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    unknown = await backend.gql(APPEND, {"id": "dsv_nope", "cases": []}, token=ws.owner)
    assert unknown.codes == ["VALIDATION_FAILED"]  # empty list checked before the lookup
    missing = await append(backend, ws.owner, "dsv_nope", dataset_cases(1))
    assert missing.codes == ["NOT_FOUND"]


async def test_chunks_written_side_by_side_with_shared_ids_never_fail_internally(
    backend: Backend,
) -> None:
    """Each chunk holds two ids of the other in the opposite order: PostgreSQL may deadlock."""
    ws = await make_workspace(backend.sessionmaker)
    version_id = await open_version(backend, ws.owner, await create_dataset(backend, ws.owner))
    first = dataset_cases(2000, prefix="a")
    second = dataset_cases(2000, prefix="b")
    first[0]["datasetItemId"], first[-1]["datasetItemId"] = "x", "y"
    second[0]["datasetItemId"], second[-1]["datasetItemId"] = "y", "x"
    results = await asyncio.gather(
        append(backend, ws.owner, version_id, first, position=0),
        append(backend, ws.owner, version_id, second, position=2000),
    )
    codes = sorted(code for result in results for code in result.codes)
    assert len(codes) == 1 and codes[0] in ("VALIDATION_FAILED", "CONFLICT")
    assert await rows_of(backend, version_id) == 2000


async def test_a_deadlock_between_chunks_is_a_conflict(backend: Backend) -> None:
    """Two open transactions each wait for an id the other wrote: PostgreSQL picks a victim."""
    if backend.name != "postgres":
        pytest.skip("SQLite runs one writer at a time: chunks cannot wait for each other")
    ws = await make_workspace(backend.sessionmaker)
    version_id = await open_version(backend, ws.owner, await create_dataset(backend, ws.owner))
    actor = actor_for(ws)

    def case(item_id: str) -> dict[str, Any]:
        return {"datasetItemId": item_id, "input": "x"}

    async def second_writer() -> str:
        async with backend.sessionmaker() as session, session.begin():
            await versions.append_cases(
                session=session, actor=actor, version_id=version_id,
                cases=[case("x"), case("y")], position=1,
            )  # fmt: skip
        return "committed"

    outcomes: list[str] = []
    async with backend.sessionmaker() as first:
        await first.begin()
        await versions.append_cases(
            session=first, actor=actor, version_id=version_id, cases=[case("y")], position=0
        )
        second = asyncio.create_task(second_writer())
        await eventually(lambda: _waiting_on_a_lock(backend), what="the second writer waits")
        try:
            await versions.append_cases(
                session=first, actor=actor, version_id=version_id, cases=[case("x")], position=3
            )
            await first.commit()
            outcomes.append("committed")
        except Conflict as error:
            assert "share datasetItemIds" in error.message
            await first.rollback()
            outcomes.append("conflict")
    try:
        outcomes.append(await second)
    except Conflict:
        outcomes.append("conflict")
    except ValidationFailed:
        outcomes.append("duplicate")
    assert "conflict" in outcomes and outcomes.count("committed") == 1


async def _waiting_on_a_lock(backend: Backend) -> bool:
    """Whether a PostgreSQL session of this database waits for a lock another one holds."""
    async with backend.sessionmaker() as session:
        waiting = await session.scalar(
            text(
                "SELECT count(*) FROM pg_stat_activity"
                " WHERE datname = current_database() AND wait_event_type = 'Lock'"
            )
        )
    return bool(waiting)
