"""Per-request DataLoaders of what a comparison shows, so listing N comparisons costs one
statement per kind of thing, each batch in a short session of its own."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TypeVar

from strawberry.dataloader import DataLoader

from server.assets import service as asset_service
from server.assets.models import AssetVersion
from server.comparisons import service
from server.comparisons.models import ComparisonCohort
from server.context import Context
from server.errors import NotFound
from server.experiments.models import Experiment

K = TypeVar("K")
V = TypeVar("V")

COHORTS = "comparisons.cohorts"
PASS_RATES = "comparisons.pass_rates"
EXPERIMENTS = "comparisons.experiments"
DATASET_VERSIONS = "comparisons.dataset_versions"


def _loader(
    context: Context, name: str, batch: Callable[[str, list[K]], Awaitable[list[V]]]
) -> DataLoader[K, V]:
    """The request's loader called `name`, created on first use, scoped to the caller."""
    loader: DataLoader[K, V] | None = context.loaders.get(name)
    if loader is None:
        workspace_id = context.require().workspace_id

        async def load(keys: list[K]) -> list[V]:
            return await batch(workspace_id, keys)

        loader = DataLoader(load_fn=load)
        context.loaders[name] = loader
    return loader


def cohorts_by_comparison(context: Context) -> DataLoader[str, list[ComparisonCohort]]:
    """Each comparison's cohorts in index order (comparison ids come from scoped rows)."""

    async def batch(_workspace_id: str, keys: list[str]) -> list[list[ComparisonCohort]]:
        async with context.read() as session:
            found = await service.get_cohorts(session=session, comparison_ids=keys)
        return [found.get(key, []) for key in keys]

    return _loader(context, COHORTS, batch)


def pass_rates(context: Context) -> DataLoader[str, dict[int, float]]:
    """Each DONE comparison's pass rate per cohort index, from its trial rows."""

    async def batch(_workspace_id: str, keys: list[str]) -> list[dict[int, float]]:
        async with context.read() as session:
            found = await service.pass_rates(session=session, comparison_ids=keys)
        return [found.get(key, {}) for key in keys]

    return _loader(context, PASS_RATES, batch)


def experiment_by_id(context: Context) -> DataLoader[str, Experiment]:
    """The workspace's experiments by id."""

    async def batch(workspace_id: str, keys: list[str]) -> list[Experiment]:
        async with context.read() as session:
            found = await service.get_experiments(
                session=session, workspace_id=workspace_id, experiment_ids=keys
            )
        return [_found(found, key, "experiment") for key in keys]

    return _loader(context, EXPERIMENTS, batch)


def dataset_version_by_id(context: Context) -> DataLoader[str, AssetVersion]:
    """Dataset versions visible to the workspace, by id."""

    async def batch(workspace_id: str, keys: list[str]) -> list[AssetVersion]:
        async with context.read() as session:
            rows = await asset_service.get_versions(
                session=session, workspace_id=workspace_id, version_ids=keys
            )
        found = {row.id: row for row in rows}
        return [_found(found, key, "dataset version") for key in keys]

    return _loader(context, DATASET_VERSIONS, batch)


def _found(found: dict[str, V], key: str, what: str) -> V:
    # A comparison references rows of its own workspace that are never deleted.
    if key not in found:
        raise NotFound(f"{what} not found")
    return found[key]
