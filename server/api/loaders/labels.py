"""DataLoader of the labels on each case's (or run item's) trials, built per request into
`server.api.loaders.Loaders`."""

from __future__ import annotations

from strawberry.dataloader import DataLoader

from server.labels import service
from server.labels.models import TrialLabel
from server.reading import SharedReader

LabelKey = tuple[str, int]
"""(comparison or run id, case ordinal or item position); the ids are already scoped."""


def labels_by_case(reader: SharedReader) -> DataLoader[LabelKey, list[tuple[TrialLabel, str]]]:
    """Each case's labels with their labeller's name, newest first, one statement a page."""

    async def load(keys: list[LabelKey]) -> list[list[tuple[TrialLabel, str]]]:
        async with reader.session() as session:
            found = await service.labels_by_case(session=session, keys=keys)
        return [found.get(key, []) for key in keys]

    return DataLoader(load_fn=load)
