"""DataLoaders of each comparison's report versions and each report's sign-off; built per
request into `server.api.loaders.Loaders`."""

from __future__ import annotations

from strawberry.dataloader import DataLoader

from server.reading import SharedReader
from server.reports import service
from server.reports.models import Report, SignOff


def reports_by_comparison(reader: SharedReader) -> DataLoader[str, list[Report]]:
    """Every version of each comparison, oldest first (ids are scoped)."""

    async def load(keys: list[str]) -> list[list[Report]]:
        async with reader.session() as session:
            found = await service.get_for_comparisons(session=session, comparison_ids=keys)
        return [found.get(key, []) for key in keys]

    return DataLoader(load_fn=load)


def sign_off_by_report(reader: SharedReader) -> DataLoader[str, SignOff | None]:
    """Each report's sign-off, or None."""

    async def load(keys: list[str]) -> list[SignOff | None]:
        async with reader.session() as session:
            found = await service.get_sign_offs(session=session, report_ids=keys)
        return [found.get(key) for key in keys]

    return DataLoader(load_fn=load)
