"""Per-request DataLoaders of connection facts, so a list of N connections costs one batch."""

from __future__ import annotations

from collections.abc import Sequence

from strawberry.dataloader import DataLoader

from server.connections import service
from server.context import Context

_SPEND = "connections.month_to_date_spend"


def month_to_date_spend(context: Context) -> DataLoader[str, int]:
    """The request's loader of month-to-date spend in micro-dollars, made on first use."""
    loader: DataLoader[str, int] | None = context.loaders.get(_SPEND)
    if loader is None:

        async def load(connection_ids: list[str]) -> Sequence[int]:
            # Its own short session: sibling resolvers never share one.
            async with context.read() as session:
                spent = await service.month_to_date_spend_micros(
                    session=session, connection_ids=connection_ids
                )
            return [spent.get(connection_id, 0) for connection_id in connection_ids]

        loader = context.loaders[_SPEND] = DataLoader(load_fn=load)
    return loader
