"""Per-request DataLoaders: every comparison's verdict row, one statement per batch."""

from __future__ import annotations

from strawberry.dataloader import DataLoader

from server.context import Context
from server.verdicts import service
from server.verdicts.models import ComparisonVerdict

VERDICTS = "verdicts.by_comparison"


def verdict_by_comparison(context: Context) -> DataLoader[str, ComparisonVerdict | None]:
    """Each comparison's verdict row, or None before any finalization (ids are scoped)."""
    loader: DataLoader[str, ComparisonVerdict | None] | None = context.loaders.get(VERDICTS)
    if loader is None:

        async def load(keys: list[str]) -> list[ComparisonVerdict | None]:
            async with context.read() as session:
                found = await service.get_verdicts(session=session, comparison_ids=keys)
            return [found.get(key) for key in keys]

        loader = DataLoader(load_fn=load)
        context.loaders[VERDICTS] = loader
    return loader
