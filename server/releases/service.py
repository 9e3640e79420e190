"""Releases: a named set of bindings role → sealed asset version of the role's kind."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from server.assets import service as asset_service
from server.assets.models import Asset, AssetVersion
from server.audit import service as audit
from server.errors import Conflict, NotFound, ValidationFailed
from server.ids import new_id
from server.pagination import Page, keyset_page
from server.releases.models import BindingRole, Release, ReleaseBinding
from server.releases.roles import KIND_OF_ROLE, REQUIRED_ROLES
from server.validation import clean_name
from server.workspaces.roles import Actor, Role


def _binding_error(role: BindingRole, problem: str) -> ValidationFailed:
    return ValidationFailed(f"binding {role.value}: {problem}", field="bindings", role=role.name)


async def resolve_binding(
    *, session: AsyncSession, workspace_id: str, role: BindingRole, asset_version_id: str
) -> AssetVersion:
    """The sealed version to bind to `role`, or VALIDATION_FAILED naming the role.

    A version of another workspace reads exactly like a missing one.
    """
    try:
        version = await asset_service.resolve_bindable_version(
            session=session, workspace_id=workspace_id, asset_version_id=asset_version_id
        )
    except (NotFound, ValidationFailed) as exc:
        raise _binding_error(role, exc.message) from None
    expected = KIND_OF_ROLE[role]
    if version.kind != expected:
        raise _binding_error(
            role,
            f"asset version {asset_version_id} is a {version.kind.value}, not a {expected.value}",
        )
    return version


def _check_roles(bindings: Sequence[tuple[BindingRole, str]]) -> None:
    seen: set[BindingRole] = set()
    for role, _ in bindings:
        if role in seen:
            raise _binding_error(role, "the role is bound more than once")
        seen.add(role)
    for role in REQUIRED_ROLES:
        if role not in seen:
            raise _binding_error(role, "the role is required")


async def create(
    *,
    session: AsyncSession,
    actor: Actor,
    name: str,
    bindings: Sequence[tuple[BindingRole, str]],
    description: str | None = None,
) -> Release:
    """A release binding each role to a sealed version of its kind; names unique per workspace."""
    actor.require(Role.MEMBER)
    release = Release(
        id=new_id("rel"),
        workspace_id=actor.workspace_id,
        name=clean_name(name),
        description=asset_service.clean_description(description),
        created_by_member_id=actor.member_id,
    )
    _check_roles(bindings)
    for role, version_id in bindings:
        await resolve_binding(
            session=session,
            workspace_id=actor.workspace_id,
            role=role,
            asset_version_id=version_id,
        )
    conflict = Conflict(f"a release named {release.name!r} already exists", field="name")
    taken = await session.scalar(
        select(Release.id).where(
            Release.workspace_id == actor.workspace_id, Release.name == release.name
        )
    )
    if taken is not None:
        raise conflict
    session.add(release)
    try:
        await session.flush()
    except IntegrityError as exc:  # a concurrent create of the same name won the race
        raise conflict from exc
    session.add_all(
        ReleaseBinding(release_id=release.id, role=role, asset_version_id=version_id)
        for role, version_id in bindings
    )
    await session.flush()
    await audit.record(
        session=session,
        actor=actor,
        action="release.create",
        target_type="release",
        target_id=release.id,
        details={
            "name": release.name,
            "bindings": {role.value: version_id for role, version_id in bindings},
        },
    )
    return release


async def get_page(
    *, session: AsyncSession, workspace_id: str, first: int, after: str | None
) -> Page[Release]:
    """The workspace's releases, newest first."""
    stmt = select(Release).where(Release.workspace_id == workspace_id)
    return await keyset_page(
        session, stmt, key=Release.id, first=first, after=after, descending=True
    )


async def get_bindings(
    *, session: AsyncSession, workspace_id: str, release_ids: Sequence[str]
) -> list[tuple[ReleaseBinding, AssetVersion, Asset]]:
    """The bindings of the workspace's releases among `release_ids`, each with its version
    and asset, in one statement."""
    stmt = (
        select(ReleaseBinding, AssetVersion, Asset)
        .join(Release, Release.id == ReleaseBinding.release_id)
        .join(AssetVersion, AssetVersion.id == ReleaseBinding.asset_version_id)
        .join(Asset, Asset.id == AssetVersion.asset_id)
        .where(Release.workspace_id == workspace_id, ReleaseBinding.release_id.in_(release_ids))
        .order_by(ReleaseBinding.release_id, ReleaseBinding.role)
    )
    return [(b, v, a) for b, v, a in await session.execute(stmt)]


async def names_of(
    *, session: AsyncSession, workspace_id: str, release_ids: Sequence[str]
) -> dict[str, str]:
    """The names of the workspace's releases among `release_ids`, in one statement."""
    stmt = select(Release.id, Release.name).where(
        Release.workspace_id == workspace_id, Release.id.in_(release_ids)
    )
    return {str(release_id): str(name) for release_id, name in (await session.execute(stmt)).all()}
