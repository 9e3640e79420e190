"""DataLoaders of spend: a connection's month to date, so a list of N connections costs one batch;
built per request into `server.api.loaders.Loaders`."""

from __future__ import annotations

from collections.abc import Sequence

from strawberry.dataloader import DataLoader

from server.reading import SharedReader
from server.spend import service


def month_to_date_spend(reader: SharedReader) -> DataLoader[str, int]:
    """Month-to-date spend in micro-dollars by connection id (ids come from scoped rows)."""

    async def load(connection_ids: list[str]) -> Sequence[int]:
        async with reader.session() as session:
            spent = await service.month_to_date_spend_micros(
                session=session, connection_ids=connection_ids
            )
        return [spent.get(connection_id, 0) for connection_id in connection_ids]

    return DataLoader(load_fn=load)
