"""Governed assets: create, add immutable numbered versions, list, and resolve for binding."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import BindParameter, ColumnElement, or_, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from server.assets.content import check_content
from server.assets.models import Asset, AssetKind, AssetVersion, VersionState
from server.assets.versioning import content_hash, lock_asset, next_version_number
from server.audit import service as audit
from server.connections import service as connection_service
from server.db import utcnow
from server.errors import Conflict, Forbidden, NotFound, ValidationFailed
from server.ids import new_id
from server.pagination import Page, keyset_page
from server.validation import clean_name
from server.workspaces.roles import Actor, Role
from server.workspaces.scoped import get_in_workspace


def visible_to(workspace_id: str) -> ColumnElement[bool]:
    """The workspace's own assets and the built-ins (which have no workspace)."""
    return or_(Asset.workspace_id == workspace_id, Asset.workspace_id.is_(None))


def version_visible_to(workspace_id: str | BindParameter[str]) -> ColumnElement[bool]:
    return or_(AssetVersion.workspace_id == workspace_id, AssetVersion.workspace_id.is_(None))


def clean_description(value: str | None) -> str | None:
    """A trimmed description of at most 2000 characters; blank means none."""
    if value is None or not value.strip():
        return None
    if len(value.strip()) > 2000:
        raise ValidationFailed("`description` must be at most 2000 characters", field="description")
    return value.strip()


async def create(
    *,
    session: AsyncSession,
    actor: Actor,
    kind: AssetKind,
    name: str,
    description: str | None = None,
) -> Asset:
    """A new asset with no versions yet; names are unique per workspace and kind."""
    actor.require(Role.MEMBER)
    asset = Asset(
        id=new_id("ast"),
        workspace_id=actor.workspace_id,
        kind=kind,
        name=clean_name(name),
        description=clean_description(description),
        created_by_member_id=actor.member_id,
    )
    taken = await session.scalar(
        select(Asset.id).where(
            Asset.workspace_id == actor.workspace_id, Asset.kind == kind, Asset.name == asset.name
        )
    )
    if taken is not None:
        raise Conflict(f"a {kind.value} asset named {asset.name!r} already exists", field="name")
    session.add(asset)
    try:
        await session.flush()
    except IntegrityError as exc:  # a concurrent create of the same name won the race
        raise Conflict(
            f"a {kind.value} asset named {asset.name!r} already exists", field="name"
        ) from exc
    await audit.record(
        session=session,
        actor=actor,
        action="asset.create",
        target_type="asset",
        target_id=asset.id,
        details={"kind": kind.value, "name": asset.name},
    )
    return asset


async def get(*, session: AsyncSession, workspace_id: str, asset_id: str) -> Asset:
    """The workspace's asset or a built-in; NotFound for anything else."""
    return await get_in_workspace(
        session, Asset, asset_id, workspace_id, "asset", built_in_too=True
    )


async def _check_connection(session: AsyncSession, workspace_id: str, connection_id: str) -> None:
    """A MODEL_CONFIG must name a model connection of the caller's workspace."""
    try:
        await connection_service.get(
            session=session, workspace_id=workspace_id, connection_id=connection_id
        )
    except NotFound:
        raise ValidationFailed(
            "`content.connectionId` is not a model connection of this workspace",
            field="content.connectionId",
        ) from None


async def get_changeable(*, session: AsyncSession, actor: Actor, asset_id: str) -> Asset:
    """The caller's asset to add a version to: a MEMBER's, never a built-in one."""
    actor.require(Role.MEMBER)
    asset = await get(session=session, workspace_id=actor.workspace_id, asset_id=asset_id)
    if asset.workspace_id is None:
        raise Forbidden("built-in assets cannot be changed")
    return asset


async def add_version(
    *, session: AsyncSession, actor: Actor, asset: Asset, content: Any
) -> AssetVersion:
    """Version n+1 of an asset other than an EVALUATION_SUITE (whose cases the datasets
    service stores): checked, content-hashed, sealed, and never changed again."""
    version = await _add_sealed_version(session, actor, asset, content)
    await audit.record(
        session=session,
        actor=actor,
        action="asset.add_version",
        target_type="asset_version",
        target_id=version.id,
        details={
            "assetId": asset.id,
            "kind": asset.kind.value,
            "number": version.number,
            "contentHash": version.content_hash,
        },
    )
    return version


async def _add_sealed_version(
    session: AsyncSession, actor: Actor, asset: Asset, content: Any
) -> AssetVersion:
    checked = check_content(asset.kind, content)
    if asset.kind == AssetKind.MODEL_CONFIG:
        await _check_connection(session, actor.workspace_id, checked.content["connectionId"])
    await lock_asset(session, asset.id)
    now = utcnow()
    version = AssetVersion(
        id=new_id("astv"),
        asset_id=asset.id,
        workspace_id=asset.workspace_id,
        kind=asset.kind,
        number=await next_version_number(session, asset.id),
        state=VersionState.SEALED,
        content=checked.content,
        content_hash=content_hash(checked.content),
        variables=checked.variables,
        created_at=now,
        sealed_at=now,
        created_by_member_id=actor.member_id,
    )
    session.add(version)
    await session.flush()
    return version


async def get_page(
    *,
    session: AsyncSession,
    workspace_id: str,
    first: int,
    after: str | None,
    kind: AssetKind | None = None,
) -> Page[Asset]:
    """The workspace's assets and the built-ins, optionally of one kind, newest first."""
    stmt = select(Asset).where(visible_to(workspace_id))
    if kind is not None:
        stmt = stmt.where(Asset.kind == kind)
    return await keyset_page(session, stmt, key=Asset.id, first=first, after=after, descending=True)


async def get_many(
    *, session: AsyncSession, workspace_id: str, asset_ids: Sequence[str]
) -> list[Asset]:
    """The visible assets among `asset_ids`, in no particular order."""
    stmt = select(Asset).where(Asset.id.in_(asset_ids), visible_to(workspace_id))
    return list((await session.execute(stmt)).scalars())


async def get_sealed_versions(
    *, session: AsyncSession, workspace_id: str, asset_ids: Sequence[str]
) -> list[AssetVersion]:
    """The sealed versions of the visible assets among `asset_ids`, by asset and number."""
    stmt = (
        select(AssetVersion)
        .where(
            AssetVersion.asset_id.in_(asset_ids),
            AssetVersion.state == VersionState.SEALED,
            version_visible_to(workspace_id),
        )
        .order_by(AssetVersion.asset_id, AssetVersion.number)
    )
    return list((await session.execute(stmt)).scalars())


async def get_versions(
    *, session: AsyncSession, workspace_id: str, version_ids: Sequence[str]
) -> list[AssetVersion]:
    """The visible versions among `version_ids`, in no particular order."""
    stmt = select(AssetVersion).where(
        AssetVersion.id.in_(version_ids),
        version_visible_to(workspace_id),
    )
    return list((await session.execute(stmt)).scalars())


async def resolve_bindable_version(
    *, session: AsyncSession, workspace_id: str, asset_version_id: str
) -> AssetVersion:
    """A sealed version of the workspace's asset or of a built-in, to bind to a role.

    NotFound when it is missing or another workspace's; ValidationFailed when not sealed.
    """
    version = await session.get(AssetVersion, asset_version_id)
    if version is None or version.workspace_id not in (workspace_id, None):
        raise NotFound(f"asset version {asset_version_id} was not found")
    if version.state != VersionState.SEALED:
        raise ValidationFailed(f"asset version {asset_version_id} is not sealed")
    return version
