"""DataLoaders of what a comparison shows, so listing N comparisons costs one statement per
kind of thing; built per request into `server.api.loaders.Loaders`."""

from __future__ import annotations

from typing import TypeVar

from sqlalchemy import select
from strawberry.dataloader import DataLoader

from server.assets import service as asset_service
from server.assets.models import AssetVersion
from server.comparisons import service
from server.comparisons.models import Comparison, ComparisonCohort
from server.errors import NotFound
from server.experiments.models import Experiment
from server.reading import SharedReader

V = TypeVar("V")


def cohorts_by_comparison(reader: SharedReader) -> DataLoader[str, list[ComparisonCohort]]:
    """Each comparison's cohorts in index order (comparison ids come from scoped rows)."""

    async def load(keys: list[str]) -> list[list[ComparisonCohort]]:
        async with reader.session() as session:
            found = await service.get_cohorts(session=session, comparison_ids=keys)
        return [found.get(key, []) for key in keys]

    return DataLoader(load_fn=load)


def comparison_by_id(reader: SharedReader, workspace_id: str) -> DataLoader[str, Comparison]:
    """The workspace's comparisons' stored rows by id (what no page's read carries)."""

    async def load(keys: list[str]) -> list[Comparison]:
        stmt = select(Comparison).where(
            Comparison.id.in_(keys), Comparison.workspace_id == workspace_id
        )
        async with reader.session() as session:
            found = {row.id: row for row in (await session.execute(stmt)).scalars()}
        return [_found(found, key, "comparison") for key in keys]

    return DataLoader(load_fn=load)


def experiment_by_id(reader: SharedReader, workspace_id: str) -> DataLoader[str, Experiment]:
    """The workspace's experiments by id."""

    async def load(keys: list[str]) -> list[Experiment]:
        async with reader.session() as session:
            found = await service.get_experiments(
                session=session, workspace_id=workspace_id, experiment_ids=keys
            )
        return [_found(found, key, "experiment") for key in keys]

    return DataLoader(load_fn=load)


def dataset_version_by_id(reader: SharedReader, workspace_id: str) -> DataLoader[str, AssetVersion]:
    """Dataset versions visible to the workspace, by id."""

    async def load(keys: list[str]) -> list[AssetVersion]:
        async with reader.session() as session:
            rows = await asset_service.get_versions(
                session=session, workspace_id=workspace_id, version_ids=keys
            )
        found = {row.id: row for row in rows}
        return [_found(found, key, "dataset version") for key in keys]

    return DataLoader(load_fn=load)


def _found(found: dict[str, V], key: str, what: str) -> V:
    # A comparison references rows of its own workspace that are never deleted.
    if key not in found:
        raise NotFound(f"{what} not found")
    return found[key]


def holdout_looks(reader: SharedReader) -> DataLoader[str, int]:
    """Finalized comparisons on a version's holdout split."""

    async def load(version_ids: list[str]) -> list[int]:
        async with reader.session() as session:
            found = await service.holdout_looks(session=session, version_ids=version_ids)
        return [found[version_id] for version_id in version_ids]

    return DataLoader(load_fn=load)
