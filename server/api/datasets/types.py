"""GraphQL types of datasets, their versions and cases."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import TypeAlias

import strawberry
from strawberry.scalars import JSON

from server.api.context import Context
from server.api.relay import Connection
from server.assets.models import Asset as AssetRow
from server.assets.models import AssetVersion as AssetVersionRow
from server.datasets import service
from server.datasets.models import DatasetCase as DatasetCaseRow
from server.datasets.models import Split as SplitEnum
from server.pagination import check_page_size

strawberry.enum(SplitEnum, name="Split", description="DEV to iterate on; HOLDOUT kept back.")
Split: TypeAlias = SplitEnum


@strawberry.enum(description="OPEN while cases are appended; SEALED never changes again.")
class DatasetVersionState(StrEnum):
    OPEN = "OPEN"
    SEALED = "SEALED"
    DISCARDED = "DISCARDED"


@strawberry.type
class CaseCounts:
    dev: int
    holdout: int


@strawberry.type
class DatasetCase:
    dataset_item_id: str
    input: JSON = strawberry.field(description="A string, an object or a list of turns.")
    expected: JSON | None
    split: Split
    tags: list[str]

    @classmethod
    def from_row(cls, row: DatasetCaseRow) -> DatasetCase:
        return cls(
            dataset_item_id=row.dataset_item_id,
            input=row.input,
            expected=row.expected,
            split=row.split,
            tags=list(row.tags),
        )


@strawberry.type
class DatasetVersion:
    id: strawberry.ID
    dataset_id: strawberry.ID
    number: int
    state: DatasetVersionState
    case_count: int = strawberry.field(description="Cases so far while OPEN; final once SEALED.")
    case_counts: CaseCounts
    content_hash: str | None = strawberry.field(
        description="Set when sealed: sha256 over one UTF-8 line per case in order, the "
        "array [datasetItemId, input, expected, split, tags] written as PostgreSQL writes "
        "jsonb (keys by byte length then bytes, ', ' and ': ', plain decimal numbers), then a "
        "newline. The same on every backend and whatever the key order of the source."
    )
    created_at: datetime
    sealed_at: datetime | None

    @strawberry.field(description="Finalized comparisons that looked at this holdout split.")
    async def holdout_looks(self, info: strawberry.Info[Context]) -> int:
        return await info.context.loaders.holdout_looks.load(str(self.id))

    @strawberry.field
    async def cases(
        self,
        info: strawberry.Info[Context],
        split: Split | None = None,
        first: int | None = None,
        after: str | None = None,
    ) -> Connection[DatasetCase]:
        info.context.require()
        size = check_page_size(first, info.context.settings.max_page_size)
        async with info.context.read() as session:
            page = await service.get_cases_page(
                session=session, version_id=str(self.id), split=split, first=size, after=after
            )
        return Connection.of(page, DatasetCase.from_row)

    @classmethod
    def from_row(cls, row: AssetVersionRow) -> DatasetVersion:
        return cls(
            id=strawberry.ID(row.id),
            dataset_id=strawberry.ID(row.asset_id),
            number=row.number,
            state=DatasetVersionState(row.state.value),
            case_count=row.case_count,
            case_counts=CaseCounts(dev=row.dev_case_count, holdout=row.holdout_case_count),
            content_hash=row.content_hash,
            created_at=row.created_at,
            sealed_at=row.sealed_at,
        )


@strawberry.type
class Dataset:
    id: strawberry.ID
    name: str
    description: str | None
    created_at: datetime
    built_in: bool = strawberry.field(description="Shipped with shipwise; readable everywhere.")

    @strawberry.field(description="Every version, newest first, OPEN and DISCARDED included.")
    async def versions(self, info: strawberry.Info[Context]) -> list[DatasetVersion]:
        rows = await info.context.loaders.versions_by_dataset.load(str(self.id))
        return [DatasetVersion.from_row(row) for row in rows]

    @strawberry.field(description="The highest-numbered SEALED version, if any.")
    async def latest_version(self, info: strawberry.Info[Context]) -> DatasetVersion | None:
        rows = await info.context.loaders.versions_by_dataset.load(str(self.id))
        sealed = (row for row in rows if row.state.value == DatasetVersionState.SEALED)
        latest = next(sealed, None)
        return None if latest is None else DatasetVersion.from_row(latest)

    @classmethod
    def from_row(cls, row: AssetRow) -> Dataset:
        return cls(
            id=strawberry.ID(row.id),
            name=row.name,
            description=row.description,
            created_at=row.created_at,
            built_in=row.workspace_id is None,
        )


@strawberry.type
class AppendedDatasetCases:
    appended_count: int
    case_count: int = strawberry.field(description="The version's running number of cases.")
    version: DatasetVersion


@strawberry.input
class CreateDatasetInput:
    name: str
    description: str | None = None
