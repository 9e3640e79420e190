"""DataLoaders of run read-outs, built per request into `server.api.loaders.Loaders`."""

from __future__ import annotations

from typing import Any

from strawberry.dataloader import DataLoader

from server.reading import SharedReader
from server.runs import pass_rates
from server.traces import reads as trace_reads
from stats.intervals import Interval


def pass_rate_by_run(reader: SharedReader) -> DataLoader[str, Interval | None]:
    """Each run's pass rate with its interval, one grouped statement per batch (ids come
    from scoped run rows)."""

    async def load(keys: list[str]) -> list[Interval | None]:
        async with reader.session() as session:
            found = await pass_rates.moments_of(session, keys)
        return [pass_rates.interval_of(found[key]) if key in found else None for key in keys]

    return DataLoader(load_fn=load)


def trajectory_by_trace(
    reader: SharedReader, workspace_id: str
) -> DataLoader[str, list[dict[str, Any]] | None]:
    """The steps of each ingested trace a run trial names by `traceId`, in the caller's
    workspace only (another workspace's trace id gives None), one batch of statements."""

    async def load(keys: list[str]) -> list[list[dict[str, Any]] | None]:
        async with reader.session() as session:
            found = await trace_reads.trajectories_of(
                session=session, workspace_id=workspace_id, trace_ids=keys
            )
        return [found.get(key.lower()) for key in keys]

    return DataLoader(load_fn=load)
