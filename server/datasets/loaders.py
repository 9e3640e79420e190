"""Per-request DataLoaders: one query per batch, each batch in a short session of its own."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TypeVar

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from strawberry.dataloader import DataLoader

from server.assets.models import AssetVersion
from server.context import Context
from server.datasets import service

K = TypeVar("K")
V = TypeVar("V")

VERSIONS_BY_DATASET = "datasets.versions_by_dataset"
HOLDOUT_LOOKS = "datasets.holdout_looks"


def _loader(
    context: Context,
    name: str,
    batch: Callable[[async_sessionmaker[AsyncSession], list[K]], Awaitable[list[V]]],
) -> DataLoader[K, V]:
    """The request's loader called `name`, created on first use."""
    loader: DataLoader[K, V] | None = context.loaders.get(name)
    if loader is None:
        sessionmaker = context.app.sessionmaker

        async def load(keys: list[K]) -> list[V]:
            return await batch(sessionmaker, keys)

        loader = DataLoader(load_fn=load)
        context.loaders[name] = loader
    return loader


async def _versions(
    sessionmaker: async_sessionmaker[AsyncSession], dataset_ids: list[str]
) -> list[list[AssetVersion]]:
    async with sessionmaker() as session:
        found = await service.get_versions_by_dataset(session=session, dataset_ids=dataset_ids)
    return [found[dataset_id] for dataset_id in dataset_ids]


async def _holdout_looks(
    sessionmaker: async_sessionmaker[AsyncSession], version_ids: list[str]
) -> list[int]:
    async with sessionmaker() as session:
        found = await service.holdout_looks(session=session, version_ids=version_ids)
    return [found[version_id] for version_id in version_ids]


def versions_by_dataset(context: Context) -> DataLoader[str, list[AssetVersion]]:
    """Every version of a dataset, newest first."""
    return _loader(context, VERSIONS_BY_DATASET, _versions)


def holdout_looks(context: Context) -> DataLoader[str, int]:
    """Finalized comparisons on a version's holdout split."""
    return _loader(context, HOLDOUT_LOOKS, _holdout_looks)
