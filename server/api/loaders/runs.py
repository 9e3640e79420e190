"""DataLoaders of run read-outs, built per request into `server.api.loaders.Loaders`."""

from __future__ import annotations

from strawberry.dataloader import DataLoader

from server.reading import SharedReader
from server.runs import pass_rates
from stats.intervals import Interval


def pass_rate_by_run(reader: SharedReader) -> DataLoader[str, Interval | None]:
    """Each run's pass rate with its interval, one grouped statement per batch (ids come
    from scoped run rows)."""

    async def load(keys: list[str]) -> list[Interval | None]:
        async with reader.session() as session:
            found = await pass_rates.moments_of(session, keys)
        return [pass_rates.interval_of(found[key]) if key in found else None for key in keys]

    return DataLoader(load_fn=load)
