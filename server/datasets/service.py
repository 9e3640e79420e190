"""Datasets: assets of kind EVALUATION_SUITE, their listing, and reads of their versions' cases.

Building a version (OPEN → SEALED in chunks) lives in `server.datasets.versions`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import or_, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from server.assets.models import Asset, AssetKind, AssetVersion
from server.audit import service as audit
from server.datasets.models import DatasetCase, Split
from server.errors import Conflict, NotFound, ValidationFailed
from server.ids import new_id
from server.pagination import Page, keyset_page
from server.validation import clean_name
from server.workspaces.roles import Actor, Role

MAX_DESCRIPTION_LENGTH = 2000


async def create_dataset(
    *, session: AsyncSession, actor: Actor, name: str, description: str | None = None
) -> Asset:
    """A new dataset (an EVALUATION_SUITE asset) with no versions yet."""
    actor.require(Role.MEMBER)
    name = clean_name(name)
    if description is not None and len(description) > MAX_DESCRIPTION_LENGTH:
        raise ValidationFailed(
            f"`description` must be at most {MAX_DESCRIPTION_LENGTH} characters",
            field="description",
        )
    existing = await session.scalar(
        select(Asset.id).where(
            Asset.workspace_id == actor.workspace_id,
            Asset.kind == AssetKind.EVALUATION_SUITE,
            Asset.name == name,
        )
    )
    if existing is not None:  # named in the error, so a client can add a version to it
        raise Conflict(f"a dataset named {name!r} already exists", field="name", datasetId=existing)
    dataset = Asset(
        id=new_id("ds"),
        workspace_id=actor.workspace_id,
        kind=AssetKind.EVALUATION_SUITE,
        name=name,
        description=description,
        created_by_member_id=actor.member_id,
    )
    session.add(dataset)
    try:
        async with session.begin_nested():
            await session.flush()
    except IntegrityError:
        raise Conflict(f"a dataset named {name!r} already exists", field="name") from None
    await record_audit(session, actor, "dataset.create", "dataset", dataset.id, {"name": name})
    return dataset


def _readable(actor: Actor) -> Any:
    """The caller's workspace, or a built-in (no workspace)."""
    return or_(Asset.workspace_id == actor.workspace_id, Asset.workspace_id.is_(None))


async def get_dataset(*, session: AsyncSession, actor: Actor, dataset_id: str) -> Asset:
    """A dataset of the caller's workspace or a built-in one; NOT_FOUND otherwise."""
    dataset = await session.scalar(
        select(Asset).where(
            Asset.id == dataset_id, Asset.kind == AssetKind.EVALUATION_SUITE, _readable(actor)
        )
    )
    if dataset is None:
        raise NotFound("dataset not found")
    return dataset


async def get_version(*, session: AsyncSession, actor: Actor, version_id: str) -> AssetVersion:
    """A version of a dataset the caller may read (its workspace's or a built-in); NOT_FOUND
    otherwise."""
    version = await session.scalar(
        select(AssetVersion)
        .join(Asset, Asset.id == AssetVersion.asset_id)
        .where(
            AssetVersion.id == version_id,
            Asset.kind == AssetKind.EVALUATION_SUITE,
            _readable(actor),
        )
    )
    if version is None:
        raise NotFound("dataset version not found")
    return version


async def get_datasets_page(
    *, session: AsyncSession, actor: Actor, first: int, after: str | None
) -> Page[Asset]:
    """The workspace's datasets and the built-in ones, oldest first."""
    stmt = select(Asset).where(Asset.kind == AssetKind.EVALUATION_SUITE, _readable(actor))
    return await keyset_page(session, stmt, key=Asset.id, first=first, after=after)


async def get_versions_by_dataset(
    *, session: AsyncSession, dataset_ids: Sequence[str]
) -> dict[str, list[AssetVersion]]:
    """Every version of each dataset, newest first (callers have already scoped the ids)."""
    rows = await session.scalars(
        select(AssetVersion)
        .where(AssetVersion.asset_id.in_(dataset_ids))
        .order_by(AssetVersion.asset_id, AssetVersion.number.desc())
    )
    versions: dict[str, list[AssetVersion]] = {dataset_id: [] for dataset_id in dataset_ids}
    for row in rows:
        versions[row.asset_id].append(row)
    return versions


async def get_cases_page(
    *,
    session: AsyncSession,
    version_id: str,
    split: Split | None,
    first: int,
    after: str | None,
) -> Page[DatasetCase]:
    """A version's cases in order, optionally of one split (the version is already scoped)."""
    stmt = select(DatasetCase).where(DatasetCase.dataset_version_id == version_id)
    if split is not None:
        stmt = stmt.where(DatasetCase.split == split)
    return await keyset_page(session, stmt, key=DatasetCase.ordinal, first=first, after=after)


async def record_audit(
    session: AsyncSession,
    actor: Actor,
    action: str,
    target_type: str,
    target_id: str,
    details: dict[str, Any],
) -> None:
    await audit.record(
        session=session,
        actor=actor,
        action=action,
        target_type=target_type,
        target_id=target_id,
        details=details,
    )
