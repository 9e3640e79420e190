"""Per-request DataLoaders: each comparison's report versions and each report's sign-off."""

from __future__ import annotations

from strawberry.dataloader import DataLoader

from server.context import Context
from server.reports import service
from server.reports.models import Report, SignOff

REPORTS = "reports.by_comparison"
SIGN_OFFS = "reports.sign_off_by_report"


def reports_by_comparison(context: Context) -> DataLoader[str, list[Report]]:
    """Every version of each comparison, oldest first (ids are scoped)."""
    loader: DataLoader[str, list[Report]] | None = context.loaders.get(REPORTS)
    if loader is None:

        async def load(keys: list[str]) -> list[list[Report]]:
            async with context.read() as session:
                found = await service.get_for_comparisons(session=session, comparison_ids=keys)
            return [found.get(key, []) for key in keys]

        loader = DataLoader(load_fn=load)
        context.loaders[REPORTS] = loader
    return loader


def sign_off_by_report(context: Context) -> DataLoader[str, SignOff | None]:
    loader: DataLoader[str, SignOff | None] | None = context.loaders.get(SIGN_OFFS)
    if loader is None:

        async def load(keys: list[str]) -> list[SignOff | None]:
            async with context.read() as session:
                found = await service.get_sign_offs(session=session, report_ids=keys)
            return [found.get(key) for key in keys]

        loader = DataLoader(load_fn=load)
        context.loaders[SIGN_OFFS] = loader
    return loader
