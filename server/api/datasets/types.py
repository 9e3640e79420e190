"""GraphQL types of datasets, their versions and cases."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import TypeAlias, cast

import strawberry
from strawberry.scalars import JSON

from server.api.context import Context
from server.api.relay import Connection
from server.api.traces.input_types import TraceFilter
from server.assets.models import Asset as AssetRow
from server.assets.models import AssetVersion as AssetVersionRow
from server.datasets import from_traces, service
from server.datasets.models import DatasetCase as DatasetCaseRow
from server.datasets.models import Split as SplitEnum
from server.page_reads.comparison_page import DatasetVersionRef
from server.pagination import check_page_size
from server.redaction import Redaction as RedactionValue

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
    metadata: JSON | None = strawberry.field(
        description="Where the case came from, e.g. {sourceTraceId}; not in the content hash."
    )

    @classmethod
    def from_row(cls, row: DatasetCaseRow) -> DatasetCase:
        return cls(
            dataset_item_id=row.dataset_item_id,
            input=row.input,
            expected=row.expected,
            split=row.split,
            tags=list(row.tags),
            metadata=cast(JSON, row.meta),
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
    def from_read(cls, read: DatasetVersionRef) -> DatasetVersion:
        """As a comparison's read shows it (`server.page_reads.comparison_page`)."""
        return cls(
            id=strawberry.ID(read.id),
            dataset_id=strawberry.ID(read.dataset_id),
            number=read.number,
            state=DatasetVersionState(read.state.value),
            case_count=read.case_count,
            case_counts=CaseCounts(dev=read.dev_case_count, holdout=read.holdout_case_count),
            content_hash=read.content_hash,
            created_at=read.created_at,
            sealed_at=read.sealed_at,
        )

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


strawberry.enum(
    RedactionValue,
    name="Redaction",
    description="What is replaced in cases made from traces: EMAIL, PHONE, CARD_NUMBER (13-19 "
    "digits passing the Luhn check), API_KEY (OpenAI, Anthropic, AWS, GitHub, Slack, Google, "
    "JWT and shipwise shapes) and IP_ADDRESS (v4 and v6).",
)
strawberry.enum(
    from_traces.StratifyBy,
    name="TraceStratifyBy",
    description="The key a sample is proportional over, at least one trace a stratum.",
)
strawberry.enum(
    from_traces.ExpectedFrom,
    name="ExpectedFrom",
    description="NONE; ATTRIBUTE: `expectedAttribute` (default `shipwise.expected`); "
    "OUTPUT_WITH_FEEDBACK: the trace's output where every feedback score on it is above 0.",
)
Redaction: TypeAlias = RedactionValue
StratifyBy: TypeAlias = from_traces.StratifyBy
ExpectedFrom: TypeAlias = from_traces.ExpectedFrom


@strawberry.input
class TraceSampleInput:
    size: int = strawberry.field(description="1 to 100,000 traces.")
    seed: int = strawberry.field(default=0, description="The same seed gives the same cases.")
    stratify_by: StratifyBy | None = None
    attribute: str | None = strawberry.field(
        default=None, description="The span or resource attribute of `stratifyBy: ATTRIBUTE`."
    )
    dedupe: bool = strawberry.field(
        default=True,
        description="Drop a trace whose input (case and whitespace folded) was taken already.",
    )


@strawberry.input
class CreateDatasetFromTracesInput:
    filter: TraceFilter
    sample: TraceSampleInput
    dataset_id: strawberry.ID | None = strawberry.field(
        default=None, description="Add a version to this dataset; or give `name`."
    )
    name: str | None = strawberry.field(default=None, description="A new dataset's name.")
    description: str | None = None
    expected_from: ExpectedFrom = ExpectedFrom.NONE
    expected_attribute: str | None = None
    redact: list[Redaction] = strawberry.field(default_factory=list)
    redact_patterns: list[str] = strawberry.field(
        default_factory=list,
        description="Regular expressions (Python syntax) replaced by `[redacted]`, beside the "
        "workspace's `redactionPatterns`.",
    )

    def to_spec(self) -> from_traces.FromTracesSpec:
        return from_traces.FromTracesSpec(
            where=self.filter.to_value(),
            sample=from_traces.SampleSpec(
                size=self.sample.size,
                seed=self.sample.seed,
                stratify_by=self.sample.stratify_by,
                attribute=self.sample.attribute,
                dedupe=self.sample.dedupe,
            ),
            dataset_id=None if self.dataset_id is None else str(self.dataset_id),
            name=self.name,
            description=self.description,
            expected_from=self.expected_from,
            expected_attribute=self.expected_attribute,
            redact=list(self.redact),
            redact_patterns=list(self.redact_patterns),
        )


@strawberry.type
class TraceStratum:
    key: str | None = strawberry.field(description="The release, model(s), service or value.")
    matched: int
    taken: int


@strawberry.type(description="How many traces matched, were taken, were duplicates.")
class DatasetFromTraces:
    matched: int
    taken: int
    duplicates: int
    without_input: int = strawberry.field(description="Matched traces with no user input.")
    redacted: int = strawberry.field(description="Values replaced by redaction.")
    with_expected: int
    strata: list[TraceStratum]
    dataset: Dataset | None = strawberry.field(description="Null in a preview.")
    version: DatasetVersion | None = strawberry.field(
        description="The new SEALED version; null in a preview."
    )

    @classmethod
    def of(cls, found: from_traces.FromTraces) -> DatasetFromTraces:
        strata = found.strata
        return cls(
            matched=found.matched,
            taken=found.taken,
            duplicates=found.duplicates,
            without_input=found.without_input,
            redacted=found.redacted,
            with_expected=found.with_expected,
            strata=[TraceStratum(key=s.key, matched=s.matched, taken=s.taken) for s in strata],
            dataset=None if found.dataset is None else Dataset.from_row(found.dataset),
            version=None if found.version is None else DatasetVersion.from_row(found.version),
        )
