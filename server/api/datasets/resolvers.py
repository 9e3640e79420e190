"""Thin resolvers for datasets: read the context, call one service function, convert."""

from __future__ import annotations

from typing import Annotated

import strawberry
from strawberry.scalars import JSON

from server.api.context import Context
from server.api.datasets.types import (
    AppendedDatasetCases,
    CreateDatasetFromTracesInput,
    CreateDatasetInput,
    Dataset,
    DatasetFromTraces,
    DatasetVersion,
    Redaction,
)
from server.api.relay import Connection
from server.datasets import from_traces, service, versions
from server.datasets.cases import MAX_CASES_PER_CHUNK
from server.pagination import check_page_size
from server.workspaces.roles import Role

CASES_DESCRIPTION = (
    f"At most {MAX_CASES_PER_CHUNK:,} cases, each {{datasetItemId (1-200 characters, unique in "
    "the version), input (a string, an object or a list of turns {role, content}), expected?, "
    "split? (DEV | HOLDOUT, default DEV), tags? ([String], default [])}. Taken as one JSON "
    "value and checked by the server rather than as typed input objects: GraphQL's per-field "
    "coercion of 5,000-case chunks costs more than the database insert. An invalid case fails "
    "the whole chunk with VALIDATION_FAILED naming `cases[i]` (extensions: index, reason)."
)

POSITION = (
    "Where the chunk's first case goes (0-based). Without it the chunk goes after the cases "
    "so far; give it to send chunks concurrently in file order (a version with a gap cannot "
    "be sealed; overlapping an earlier chunk is CONFLICT)."
)
KEEP_DATASET = (
    "Keep the dataset even when this was its only version and it was never sealed (the "
    "portal's Discard): the version alone goes. Default false: a never-sealed dataset goes too."
)


@strawberry.type
class DatasetQuery:
    @strawberry.field(description="The workspace's datasets and the built-in ones.")
    async def datasets(
        self, info: strawberry.Info[Context], first: int | None = None, after: str | None = None
    ) -> Connection[Dataset]:
        actor = info.context.require()
        size = check_page_size(first, info.context.settings.max_page_size)
        async with info.context.read() as session:
            page = await service.get_datasets_page(
                session=session, actor=actor, first=size, after=after
            )
        return Connection.of(page, Dataset.from_row)

    @strawberry.field
    async def dataset(self, info: strawberry.Info[Context], id: strawberry.ID) -> Dataset:
        actor = info.context.require()
        async with info.context.read() as session:
            row = await service.get_dataset(session=session, actor=actor, dataset_id=id)
        return Dataset.from_row(row)

    @strawberry.field(description="A version of a dataset of the workspace or a built-in one.")
    async def dataset_version(
        self, info: strawberry.Info[Context], id: strawberry.ID
    ) -> DatasetVersion:
        actor = info.context.require()
        async with info.context.read() as session:
            row = await service.get_version(session=session, actor=actor, version_id=str(id))
        return DatasetVersion.from_row(row)


@strawberry.type
class DatasetMutation:
    @strawberry.mutation(description="A new dataset; add cases through a version.")
    async def create_dataset(
        self, info: strawberry.Info[Context], input: CreateDatasetInput
    ) -> Dataset:
        actor = info.context.require(Role.MEMBER)
        async with info.context.write() as session:
            row = await service.create_dataset(
                session=session, actor=actor, name=input.name, description=input.description
            )
        return Dataset.from_row(row)

    @strawberry.mutation(description="A new OPEN version; one dataset has one open at a time.")
    async def open_dataset_version(
        self, info: strawberry.Info[Context], dataset_id: strawberry.ID
    ) -> DatasetVersion:
        actor = info.context.require(Role.MEMBER)
        async with info.context.write() as session:
            row = await versions.open_version(session=session, actor=actor, dataset_id=dataset_id)
        return DatasetVersion.from_row(row)

    @strawberry.mutation(description="Append a chunk of cases to an OPEN version, in order.")
    async def append_dataset_cases(
        self,
        info: strawberry.Info[Context],
        version_id: strawberry.ID,
        cases: Annotated[JSON, strawberry.argument(description=CASES_DESCRIPTION)],
        position: Annotated[int | None, strawberry.argument(description=POSITION)] = None,
    ) -> AppendedDatasetCases:
        actor = info.context.require(Role.MEMBER)
        async with info.context.write() as session:
            row = await versions.append_cases(
                session=session, actor=actor, version_id=version_id, cases=cases, position=position
            )
        return AppendedDatasetCases(
            appended_count=len(cases) if isinstance(cases, list) else 0,
            case_count=row.case_count,
            version=DatasetVersion.from_row(row),
        )

    @strawberry.mutation(description="Count, hash and seal an OPEN version; it never changes.")
    async def seal_dataset_version(
        self, info: strawberry.Info[Context], version_id: strawberry.ID
    ) -> DatasetVersion:
        actor = info.context.require(Role.MEMBER)
        async with info.context.write() as session:
            row = await versions.seal_version(session=session, actor=actor, version_id=version_id)
        return DatasetVersion.from_row(row)

    @strawberry.mutation(
        description="Drop an OPEN version and its cases (state DISCARDED). A dataset that "
        "was never sealed goes with it (a failed first import leaves nothing), unless "
        "`keepDataset` is true."
    )
    async def discard_dataset_version(
        self,
        info: strawberry.Info[Context],
        version_id: strawberry.ID,
        keep_dataset: Annotated[bool, strawberry.argument(description=KEEP_DATASET)] = False,
    ) -> DatasetVersion:
        actor = info.context.require(Role.MEMBER)
        async with info.context.write() as session:
            row = await versions.discard_version(
                session=session, actor=actor, version_id=version_id, keep_dataset=keep_dataset
            )
        return DatasetVersion.from_row(row)


@strawberry.type
class DatasetFromTracesQuery:
    @strawberry.field(
        description="What `createDatasetFromTraces` would take, counted; nothing is written."
    )
    async def preview_dataset_from_traces(
        self, info: strawberry.Info[Context], input: CreateDatasetFromTracesInput
    ) -> DatasetFromTraces:
        actor = info.context.require()
        async with info.context.read() as session:
            found = await from_traces.preview(session=session, actor=actor, spec=input.to_spec())
        return DatasetFromTraces.of(found)


@strawberry.type
class DatasetFromTracesMutation:
    @strawberry.mutation(
        description="Sample the traces a filter matches into a new sealed dataset version, a "
        "case a trace with `metadata.sourceTraceId` (MEMBER; audited)."
    )
    async def create_dataset_from_traces(
        self, info: strawberry.Info[Context], input: CreateDatasetFromTracesInput
    ) -> DatasetFromTraces:
        actor = info.context.require(Role.MEMBER)
        async with info.context.write() as session:
            found = await from_traces.create(session=session, actor=actor, spec=input.to_spec())
        return DatasetFromTraces.of(found)

    @strawberry.mutation(
        description="Add one trace as a case of the dataset's OPEN version, opened when there "
        "is none (MEMBER; audited). The workspace's `redactionPatterns` apply."
    )
    async def add_trace_to_dataset(
        self,
        info: strawberry.Info[Context],
        trace_id: strawberry.ID,
        dataset_id: strawberry.ID,
        expected: Annotated[
            str | None, strawberry.argument(description="The answer the case expects.")
        ] = None,
        redact: list[Redaction] | None = None,
    ) -> DatasetVersion:
        actor = info.context.require(Role.MEMBER)
        async with info.context.write() as session:
            row = await from_traces.add_trace(
                session=session,
                actor=actor,
                trace_id=str(trace_id),
                dataset_id=str(dataset_id),
                expected=expected,
                redact=list(redact or []),
            )
        return DatasetVersion.from_row(row)
