"""Dataset versions: opened, appended to in chunks, then SEALED or DISCARDED.

Every change to a version happens with its asset's row locked (`lock_asset`), so version
numbers, the one-open-version rule and case ordinals are handed out in turn. The one
exception is an append that names its position: it holds the lock shared, so concurrent
chunks are written side by side, while a seal or a discard still waits for them.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import delete, insert, or_, select, update
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm.attributes import set_committed_value

from server.assets import service as asset_service
from server.assets.content import check_suite
from server.assets.models import Asset, AssetKind, AssetVersion, VersionState
from server.assets.versioning import lock_asset, next_version_number
from server.datasets.cases import MAX_CASES_PER_CHUNK, CaseRow, check_chunk, chunk_error
from server.datasets.digest import digest_cases
from server.datasets.models import DatasetCase, Split
from server.datasets.service import get_dataset, record_audit
from server.db import utcnow
from server.errors import Conflict, Forbidden, NotFound, ValidationFailed
from server.ids import new_id
from server.validation import check_range
from server.workspaces.roles import Actor, Role

MAX_POSITION = 2**31 - 1
_CASES = DatasetCase.metadata.tables[DatasetCase.__tablename__]
_COUNTS = ("case_count", "dev_case_count", "holdout_case_count")
DEADLOCK_DETECTED = "40P01"


async def open_version(*, session: AsyncSession, actor: Actor, dataset_id: str) -> AssetVersion:
    """A new OPEN version numbered after the last; CONFLICT while another one is open."""
    actor.require(Role.MEMBER)
    dataset = await _writable_dataset(session, actor, dataset_id)
    await lock_asset(session, dataset.id)
    already_open = await session.scalar(
        select(AssetVersion.number).where(
            AssetVersion.asset_id == dataset.id, AssetVersion.state == VersionState.OPEN
        )
    )
    if already_open is not None:
        raise Conflict(
            f"version {already_open} of this dataset is still open: seal or discard it first"
        )
    version = await _new_version(session, actor, dataset)
    await record_audit(
        session, actor, "dataset.version_open", "dataset_version", version.id,
        {"datasetId": dataset.id, "number": version.number},
    )  # fmt: skip
    return version


async def append_cases(
    *,
    session: AsyncSession,
    actor: Actor,
    version_id: str,
    cases: object,
    position: int | None = None,
) -> AssetVersion:
    """Write a chunk of cases from `position` on (default: after those so far); all or nothing.

    With a position the dataset is only share-locked, so chunks sent concurrently are
    written side by side and keep the file's order; a seal waits for them and refuses gaps.
    Without one, the chunk goes after the version's count under the exclusive lock.
    """
    actor.require(Role.MEMBER)
    rows = check_chunk(cases)
    if position is not None:
        check_range(position, field="position", low=0, high=MAX_POSITION - len(rows))
    version = await _locked_open_version(session, actor, version_id, shared=position is not None)
    start = version.case_count if position is None else position
    await _insert_cases(session, version, rows, start)
    await record_audit(
        session, actor, "dataset.cases_append", "dataset_version", version.id,
        {"count": len(rows), "position": start},
    )  # fmt: skip
    return version


async def seal_version(*, session: AsyncSession, actor: Actor, version_id: str) -> AssetVersion:
    """Count the cases per split, hash them in order and seal: the version never changes again."""
    actor.require(Role.MEMBER)
    version = await _locked_open_version(session, actor, version_id)
    await _seal(session, version)
    await record_audit(
        session, actor, "dataset.version_seal", "dataset_version", version.id,
        {"caseCount": version.case_count, "contentHash": version.content_hash},
    )  # fmt: skip
    return version


async def discard_version(
    *, session: AsyncSession, actor: Actor, version_id: str, keep_dataset: bool = False
) -> AssetVersion:
    """Drop an OPEN version's cases and mark it DISCARDED (its number is never reused).

    A dataset that never had a sealed version goes with it: that is a first import that
    failed (the CLI discards on any error), and it leaves nothing in the list behind it.
    With `keep_dataset` (the portal's "Discard" of an open version) the dataset stays,
    whatever its other versions: the version alone goes.
    """
    actor.require(Role.MEMBER)
    version = await _locked_open_version(session, actor, version_id)
    discarded = version.case_count
    await session.execute(delete(DatasetCase).where(DatasetCase.dataset_version_id == version.id))
    version.state = VersionState.DISCARDED
    version.case_count = version.dev_case_count = version.holdout_case_count = 0
    await record_audit(
        session, actor, "dataset.version_discard", "dataset_version", version.id,
        {"discardedCases": discarded},
    )  # fmt: skip
    if not keep_dataset:
        await _remove_if_never_sealed(session, actor, version.asset_id)
    return version


async def _remove_if_never_sealed(session: AsyncSession, actor: Actor, asset_id: str) -> None:
    """Delete the dataset (locked by the caller) when it holds only DISCARDED versions."""
    await session.flush()
    kept = await session.scalar(
        select(AssetVersion.id)
        .where(AssetVersion.asset_id == asset_id, AssetVersion.state != VersionState.DISCARDED)
        .limit(1)
    )
    if kept is not None:
        return
    name = await session.scalar(select(Asset.name).where(Asset.id == asset_id))
    await session.execute(delete(AssetVersion).where(AssetVersion.asset_id == asset_id))
    await session.execute(delete(Asset).where(Asset.id == asset_id))
    await record_audit(
        session, actor, "dataset.remove_empty", "dataset", asset_id,
        {"name": name, "reason": "its only version was discarded"},
    )  # fmt: skip


async def add_asset_version(
    *, session: AsyncSession, actor: Actor, asset_id: str, content: Any
) -> AssetVersion:
    """Version n+1 of any asset (`addAssetVersion`): an EVALUATION_SUITE's cases are stored
    here with the one audit event; any other kind by the assets service."""
    asset = await asset_service.get_changeable(session=session, actor=actor, asset_id=asset_id)
    if asset.kind != AssetKind.EVALUATION_SUITE:
        return await asset_service.add_version(
            session=session, actor=actor, asset=asset, content=content
        )
    cases = check_suite(content)
    return await create_sealed_version(session=session, actor=actor, asset=asset, cases=cases)


async def create_sealed_version(
    *, session: AsyncSession, actor: Actor, asset: Asset, cases: list[dict[str, Any]]
) -> AssetVersion:
    """Open, fill and seal a version of `asset` in the caller's transaction (one audit event).

    For `addAssetVersion` on an EVALUATION_SUITE; errors name `cases[i]` like appends do.
    """
    actor.require(Role.MEMBER)
    if asset.kind != AssetKind.EVALUATION_SUITE:
        raise ValidationFailed("only an EVALUATION_SUITE asset holds dataset cases")
    rows = check_chunk(cases, limit=max(len(cases), 1))
    await lock_asset(session, asset.id)
    version = await _new_version(session, actor, asset)
    await _insert_cases(session, version, rows, 0)
    await _seal(session, version)
    await record_audit(
        session, actor, "dataset.version_create", "dataset_version", version.id,
        {"datasetId": asset.id, "caseCount": version.case_count,
         "contentHash": version.content_hash},
    )  # fmt: skip
    return version


async def _writable_dataset(session: AsyncSession, actor: Actor, dataset_id: str) -> Asset:
    dataset = await get_dataset(session=session, actor=actor, dataset_id=dataset_id)
    if dataset.workspace_id is None:
        raise Forbidden("built-in datasets are read-only")
    return dataset


async def _new_version(session: AsyncSession, actor: Actor, asset: Asset) -> AssetVersion:
    """An OPEN version with the next number (the asset is locked by the caller)."""
    version = AssetVersion(
        id=new_id("dsv"),
        asset_id=asset.id,
        workspace_id=asset.workspace_id,
        kind=AssetKind.EVALUATION_SUITE,
        number=await next_version_number(session, asset.id),
        state=VersionState.OPEN,
        content={},
        variables=[],
        case_count=0,
        dev_case_count=0,
        holdout_case_count=0,
        created_by_member_id=actor.member_id,
    )
    session.add(version)
    await session.flush()
    return version


async def _locked_open_version(
    session: AsyncSession, actor: Actor, version_id: str, *, shared: bool = False
) -> AssetVersion:
    """The version, re-read under its dataset's lock; CONFLICT unless it is still OPEN.

    Appends with a position take the lock shared (FOR KEY SHARE); everything else that
    changes the version takes it exclusively (`lock_asset`), so a seal or a discard waits
    for appends in flight, and appends after it see it no longer OPEN.
    """
    asset_id = await session.scalar(
        select(AssetVersion.asset_id).where(
            AssetVersion.id == version_id,
            AssetVersion.kind == AssetKind.EVALUATION_SUITE,
            or_(
                AssetVersion.workspace_id == actor.workspace_id,
                AssetVersion.workspace_id.is_(None),
            ),
        )
    )
    if asset_id is None:
        raise NotFound("dataset version not found")
    if shared:
        await session.execute(
            select(Asset.id).where(Asset.id == asset_id).with_for_update(read=True, key_share=True)
        )
    else:
        await lock_asset(session, asset_id)
    version = (
        await session.execute(
            select(AssetVersion)
            .where(AssetVersion.id == version_id)
            .execution_options(populate_existing=True)
        )
    ).scalar_one()
    if version.workspace_id is None:
        raise Forbidden("built-in datasets are read-only")
    if version.state != VersionState.OPEN:
        raise Conflict(f"version {version.number} is {version.state.value}, not OPEN")
    return version


async def _insert_cases(
    session: AsyncSession, version: AssetVersion, rows: list[CaseRow], start: int
) -> None:
    """One executemany INSERT per chunk with ordinals from `start`, then the counts.

    The counts are incremented in SQL (chunks written side by side each add theirs) and
    read back into `version`.
    """
    params = [
        {**row, "dataset_version_id": version.id, "ordinal": start + offset}
        for offset, row in enumerate(rows)
    ]
    try:
        async with session.begin_nested():
            for low in range(0, len(params), MAX_CASES_PER_CHUNK):
                await session.execute(insert(_CASES), params[low : low + MAX_CASES_PER_CHUNK])
    except IntegrityError:
        raise await _write_error(session, version.id, rows, start) from None
    except DBAPIError as error:
        if getattr(error.orig, "sqlstate", None) != DEADLOCK_DETECTED:
            raise
        # Two chunks written side by side, each holding an id the other one waits for.
        raise Conflict(
            "this chunk and one written at the same time share datasetItemIds; "
            "send them one after the other to find which",
            field="cases",
        ) from None
    holdout = sum(1 for row in rows if row["split"] == Split.HOLDOUT)
    counts = (
        await session.execute(
            update(AssetVersion)
            .where(AssetVersion.id == version.id)
            .values(
                case_count=AssetVersion.case_count + len(rows),
                dev_case_count=AssetVersion.dev_case_count + (len(rows) - holdout),
                holdout_case_count=AssetVersion.holdout_case_count + holdout,
            )
            .returning(
                AssetVersion.case_count,
                AssetVersion.dev_case_count,
                AssetVersion.holdout_case_count,
            )
            .execution_options(synchronize_session=False)
        )
    ).one()
    for name, value in zip(_COUNTS, counts, strict=True):
        set_committed_value(version, name, value)


async def _write_error(
    session: AsyncSession, version_id: str, rows: list[CaseRow], start: int
) -> Exception:
    """Why the insert broke a unique constraint: a datasetItemId or a position already taken."""
    ids = [row["dataset_item_id"] for row in rows]
    existing: set[str] = set()
    for low in range(0, len(ids), 1000):
        existing.update(
            await session.scalars(
                select(DatasetCase.dataset_item_id).where(
                    DatasetCase.dataset_version_id == version_id,
                    DatasetCase.dataset_item_id.in_(ids[low : low + 1000]),
                )
            )
        )
    for index, item_id in enumerate(ids):
        if item_id in existing:
            reason = f"`datasetItemId` {item_id!r} is already in this version"
            return chunk_error(index, reason, "datasetItemId", datasetItemId=item_id)
    end = start + len(rows) - 1
    return Conflict(f"positions {start}-{end} overlap cases already appended", field="position")


async def _seal(session: AsyncSession, version: AssetVersion) -> None:
    digest = await digest_cases(await session.connection(), version.id)
    version.case_count = digest.case_count
    version.dev_case_count = digest.dev_case_count
    version.holdout_case_count = digest.holdout_case_count
    version.content_hash = digest.content_hash
    version.state = VersionState.SEALED
    version.sealed_at = utcnow()
