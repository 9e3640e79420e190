"""Datasets from traces (`createDatasetFromTraces`, its preview, and "Add to dataset"):
sample the traces a filter matches, make each a case, and store them through the dataset
versions service (docs/traces.md "Datasets from traces")."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from server.assets.models import Asset, AssetVersion, VersionState
from server.datasets import service as dataset_service
from server.datasets import trace_cases, versions
from server.datasets.models import DatasetCase
from server.datasets.trace_sample import Sample, Stratum, choose
from server.errors import Conflict, Forbidden, NotFound, ValidationFailed
from server.redaction import Redaction, Redactor, check_patterns
from server.traces import reads
from server.validation import check_range
from server.workspaces.models import Workspace
from server.workspaces.roles import Actor, Role

MAX_SAMPLE = 100_000
MAX_ATTRIBUTE_LENGTH = 200


class StratifyBy(StrEnum):
    RELEASE = "RELEASE"
    MODEL = "MODEL"
    SERVICE = "SERVICE"
    ATTRIBUTE = "ATTRIBUTE"


class ExpectedFrom(StrEnum):
    NONE = "NONE"
    ATTRIBUTE = "ATTRIBUTE"
    """`expectedAttribute` (default `shipwise.expected`)."""
    OUTPUT_WITH_FEEDBACK = "OUTPUT_WITH_FEEDBACK"
    """The trace's output, where its feedback is positive (see `TraceSource.positive`)."""


@dataclass(frozen=True, slots=True)
class SampleSpec:
    size: int
    seed: int = 0
    stratify_by: StratifyBy | None = None
    attribute: str | None = None
    dedupe: bool = True


@dataclass(frozen=True, slots=True)
class FromTracesSpec:
    where: reads.TraceFilter
    sample: SampleSpec
    dataset_id: str | None = None
    name: str | None = None
    description: str | None = None
    expected_from: ExpectedFrom = ExpectedFrom.NONE
    expected_attribute: str | None = None
    redact: Sequence[Redaction] = ()
    redact_patterns: Sequence[str] = ()


@dataclass(slots=True)
class FromTraces:
    """The counts, and (when created) the dataset and its new sealed version."""

    matched: int = 0
    taken: int = 0
    duplicates: int = 0
    without_input: int = 0
    redacted: int = 0
    with_expected: int = 0
    strata: list[Stratum] = field(default_factory=list)
    dataset: Asset | None = None
    version: AssetVersion | None = None


def _check(spec: FromTracesSpec, *, creating: bool) -> None:
    if creating and (spec.dataset_id is None) == (spec.name is None):
        raise ValidationFailed(
            "give `datasetId` (a new version of it) or `name` (a new dataset), not both",
            field="datasetId",
        )
    check_range(spec.sample.size, field="sample.size", low=1, high=MAX_SAMPLE)
    _check_attribute(spec.sample.attribute, "sample.attribute")
    if (spec.sample.stratify_by == StratifyBy.ATTRIBUTE) != (spec.sample.attribute is not None):
        raise ValidationFailed(
            "`sample.attribute` is given with `stratifyBy: ATTRIBUTE`, and only then",
            field="sample.attribute",
        )
    _check_attribute(spec.expected_attribute, "expectedAttribute")
    if spec.expected_attribute is not None and spec.expected_from != ExpectedFrom.ATTRIBUTE:
        raise ValidationFailed(
            "`expectedAttribute` is given with `expectedFrom: ATTRIBUTE`, and only then",
            field="expectedAttribute",
        )


def _check_attribute(value: str | None, where: str) -> None:
    if value is not None and not 1 <= len(value.strip()) <= MAX_ATTRIBUTE_LENGTH:
        raise ValidationFailed(
            f"`{where}` must be an attribute name of 1 to {MAX_ATTRIBUTE_LENGTH} characters",
            field=where,
        )


async def _redactor(
    session: AsyncSession, workspace_id: str, kinds: Sequence[Redaction], patterns: Sequence[str]
) -> Redactor:
    """The request's kinds and patterns, and the workspace's patterns (always applied)."""
    own = check_patterns(list(patterns), field="redactPatterns")
    stored = await session.scalar(
        select(Workspace.redaction_patterns).where(Workspace.id == workspace_id)
    )
    return Redactor(
        kinds=kinds, patterns=check_patterns(stored or [], field="redactionPatterns") + own
    )


async def _target(session: AsyncSession, actor: Actor, dataset_id: str) -> Asset:
    """A dataset of the caller's workspace; NOT_FOUND naming `datasetId` as for an unknown id."""
    try:
        dataset = await dataset_service.get_dataset(
            session=session, actor=actor, dataset_id=dataset_id
        )
    except NotFound:
        raise NotFound("dataset not found", field="datasetId") from None
    if dataset.workspace_id is None:
        raise Forbidden("built-in datasets are read-only", field="datasetId")
    return dataset


async def _sample(session: AsyncSession, actor: Actor, spec: FromTracesSpec) -> Sample:
    conditions = await reads.filter_conditions(
        session=session, workspace_id=actor.workspace_id, where=spec.where
    )
    found = await trace_cases.candidates(
        session=session,
        workspace_id=actor.workspace_id,
        conditions=conditions,
        stratify_by=spec.sample.stratify_by,
        attribute=spec.sample.attribute,
    )
    return choose(found, size=spec.sample.size, seed=spec.sample.seed, dedupe=spec.sample.dedupe)


def _expected(spec: FromTracesSpec, source: trace_cases.TraceSource) -> str | None:
    if spec.expected_from == ExpectedFrom.ATTRIBUTE:
        return source.expected_attribute
    if spec.expected_from == ExpectedFrom.OUTPUT_WITH_FEEDBACK and source.positive:
        return source.output
    return None


def case_of(
    source: trace_cases.TraceSource, expected: str | None, redactor: Redactor
) -> dict[str, Any]:
    """A trace as a dataset case: its id as the item id and as `metadata.sourceTraceId`."""
    return {
        "datasetItemId": source.trace_id,
        "input": [
            {"role": turn["role"], "content": redactor.text(turn["content"])}
            for turn in source.turns()
        ],
        "expected": None if expected is None else redactor.text(expected),
        "split": "DEV",
        "tags": [],
        "metadata": {"sourceTraceId": source.trace_id},
    }


async def _build(
    session: AsyncSession, actor: Actor, spec: FromTracesSpec
) -> tuple[FromTraces, list[dict[str, Any]]]:
    redactor = await _redactor(session, actor.workspace_id, spec.redact, spec.redact_patterns)
    sample = await _sample(session, actor, spec)
    found = await trace_cases.sources(
        session=session,
        workspace_id=actor.workspace_id,
        trace_ids=sample.trace_ids,
        expected_attribute=spec.expected_attribute,
        with_feedback=spec.expected_from == ExpectedFrom.OUTPUT_WITH_FEEDBACK,
    )
    cases = []
    for trace_id in sample.trace_ids:
        expected = _expected(spec, found[trace_id])
        cases.append(case_of(found[trace_id], expected, redactor))
    counts = FromTraces(
        matched=sample.matched,
        taken=len(cases),
        duplicates=sample.duplicates,
        without_input=sample.without_input,
        redacted=redactor.count,
        with_expected=sum(1 for case in cases if case["expected"] is not None),
        strata=sample.strata,
    )
    return counts, cases


async def preview(*, session: AsyncSession, actor: Actor, spec: FromTracesSpec) -> FromTraces:
    """What `create` would take, counted, with nothing written."""
    _check(spec, creating=False)
    if spec.dataset_id is not None:
        await _target(session, actor, spec.dataset_id)
    counts, _ = await _build(session, actor, spec)
    return counts


async def create(*, session: AsyncSession, actor: Actor, spec: FromTracesSpec) -> FromTraces:
    """Sample, make the cases, and open, fill and seal a version (of a new dataset by `name`)."""
    actor.require(Role.MEMBER)
    _check(spec, creating=True)
    dataset = None if spec.dataset_id is None else await _target(session, actor, spec.dataset_id)
    counts, cases = await _build(session, actor, spec)
    if not cases:
        raise ValidationFailed(
            f"no trace to take: {counts.matched} matched the filter, "
            f"{counts.without_input} without an input",
            field="filter",
        )
    if dataset is None:
        assert spec.name is not None
        dataset = await dataset_service.create_dataset(
            session=session, actor=actor, name=spec.name, description=spec.description
        )
    counts.dataset = dataset
    counts.version = await versions.create_sealed_version(
        session=session, actor=actor, asset=dataset, cases=cases
    )
    await dataset_service.record_audit(
        session, actor, "dataset.create_from_traces", "dataset_version", counts.version.id,
        {"datasetId": dataset.id, "matched": counts.matched, "taken": counts.taken,
         "duplicates": counts.duplicates, "redacted": counts.redacted,
         "seed": spec.sample.seed},
    )  # fmt: skip
    return counts


async def add_trace(
    *,
    session: AsyncSession,
    actor: Actor,
    trace_id: str,
    dataset_id: str,
    expected: str | None,
    redact: Sequence[Redaction] = (),
) -> AssetVersion:
    """One trace as a case of the dataset's OPEN version (opened when there is none)."""
    actor.require(Role.MEMBER)
    try:
        trace = await reads.get_trace(
            session=session, workspace_id=actor.workspace_id, trace_id=trace_id
        )
    except NotFound:
        raise NotFound("no such trace", field="traceId") from None
    dataset = await _target(session, actor, dataset_id)
    redactor = await _redactor(session, actor.workspace_id, redact, ())
    found = await trace_cases.sources(
        session=session,
        workspace_id=actor.workspace_id,
        trace_ids=[trace.row.id],
        expected_attribute=None,
        with_feedback=False,
    )
    version = await _open_version(session, actor, dataset)
    taken = await session.scalar(
        select(DatasetCase.id).where(
            DatasetCase.dataset_version_id == version.id,
            DatasetCase.dataset_item_id == trace.row.id,
        )
    )
    if taken is not None:
        raise Conflict(f"this trace is already in version {version.number}", field="traceId")
    case = case_of(found[trace.row.id], expected, redactor)
    return await versions.append_cases(
        session=session, actor=actor, version_id=version.id, cases=[case]
    )


async def _open_version(session: AsyncSession, actor: Actor, dataset: Asset) -> AssetVersion:
    version = await session.scalar(
        select(AssetVersion).where(
            AssetVersion.asset_id == dataset.id, AssetVersion.state == VersionState.OPEN
        )
    )
    if version is not None:
        return version
    return await versions.open_version(session=session, actor=actor, dataset_id=dataset.id)
