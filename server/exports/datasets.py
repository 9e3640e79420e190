"""A dataset version's cases as export rows, in position order (`shipwise dataset export`).

The id is a version's (`dsv_…`) or a dataset's, meaning its latest SEALED version; either of
the caller's workspace or a built-in. Read in keyset batches over `(dataset_version_id,
ordinal)` (its unique index), each batch in its own short session.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from sqlalchemy import or_, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.assets.models import Asset, AssetKind, AssetVersion, VersionState
from server.datasets.models import DatasetCase
from server.errors import NotFound

BATCH = 1000
COLUMNS = ("datasetItemId", "input", "expected", "split", "tags", "metadata")


async def version_to_export(*, session: AsyncSession, workspace_id: str, target_id: str) -> str:
    """The version's id: the one named, or the dataset's latest sealed one; NOT_FOUND else."""
    readable = or_(Asset.workspace_id == workspace_id, Asset.workspace_id.is_(None))
    stmt = (
        select(AssetVersion.id)
        .join(Asset, Asset.id == AssetVersion.asset_id)
        .where(Asset.kind == AssetKind.EVALUATION_SUITE, readable)
    )
    if target_id.startswith("dsv_"):
        found = await session.scalar(stmt.where(AssetVersion.id == target_id))
    else:
        found = await session.scalar(
            stmt.where(Asset.id == target_id, AssetVersion.state == VersionState.SEALED)
            .order_by(AssetVersion.number.desc())
            .limit(1)
        )
    if found is None:
        raise NotFound("no such dataset, or it has no sealed version")
    return found


def case_row(case: DatasetCase) -> dict[str, Any]:
    return {
        "datasetItemId": case.dataset_item_id,
        "input": case.input,
        "expected": case.expected,
        "split": case.split.value,
        "tags": list(case.tags or []),
        "metadata": case.meta,
    }


async def case_rows(
    *, sessionmaker: async_sessionmaker[AsyncSession], version_id: str, batch: int = BATCH
) -> AsyncIterator[dict[str, Any]]:
    """Every case of the version (its workspace checked by the caller)."""
    after = -1
    while True:
        async with sessionmaker() as session:
            cases = list(
                await session.scalars(
                    select(DatasetCase)
                    .where(
                        DatasetCase.dataset_version_id == version_id, DatasetCase.ordinal > after
                    )
                    .order_by(DatasetCase.ordinal)
                    .limit(batch)
                )
            )
        for case in cases:
            yield case_row(case)
        if len(cases) < batch:
            return
        after = cases[-1].ordinal
