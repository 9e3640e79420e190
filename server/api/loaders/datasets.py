"""DataLoaders of datasets' versions, one query per batch; built per
request into `server.api.loaders.Loaders`."""

from __future__ import annotations

from strawberry.dataloader import DataLoader

from server.assets.models import AssetVersion
from server.datasets import service
from server.reading import SharedReader


def versions_by_dataset(reader: SharedReader) -> DataLoader[str, list[AssetVersion]]:
    """Every version of a dataset, newest first."""

    async def load(dataset_ids: list[str]) -> list[list[AssetVersion]]:
        async with reader.session() as session:
            found = await service.get_versions_by_dataset(session=session, dataset_ids=dataset_ids)
        return [found[dataset_id] for dataset_id in dataset_ids]

    return DataLoader(load_fn=load)
