"""The cases a comparison runs: the split's cases (or a seeded sample of them, in dataset
order), less those missing a mapped field under LEAVE_OUT, with each variable's coverage."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from server.comparisons.inputs import ResolvedInput, SampleSpec
from server.datasets.models import DatasetCase, Split
from server.prompting.variables import MissingField, VariableCoverage, coverage, select_cases

_CHUNK = 1000


@dataclass(frozen=True, slots=True)
class CaseRef:
    """The fields of a dataset case that selection and rendering read."""

    id: int
    ordinal: int
    dataset_item_id: str
    input: Any
    expected: Any


@dataclass(frozen=True, slots=True)
class Selection:
    split_count: int
    considered: list[CaseRef]
    """The split's cases, or the sample of them, in dataset order."""
    kept: list[CaseRef]
    missing: list[MissingField]
    refused: bool
    coverage: list[VariableCoverage]

    @property
    def left_out(self) -> int:
        return len(self.considered) - len(self.kept) if not self.refused else 0


def sample_positions(count: int, sample: SampleSpec | None) -> list[int]:
    """Positions kept by a seeded sample (reproducible), in ascending order; all without one."""
    if sample is None or sample.size >= count:
        return list(range(count))
    return sorted(random.Random(sample.seed).sample(range(count), sample.size))


async def load_cases(
    session: AsyncSession, *, version_id: str, split: Split, sample: SampleSpec | None
) -> tuple[int, list[CaseRef]]:
    """(cases in the split, the split's or the sample's cases in dataset order)."""
    where = (DatasetCase.dataset_version_id == version_id, DatasetCase.split == split)
    columns = (
        DatasetCase.id,
        DatasetCase.ordinal,
        DatasetCase.dataset_item_id,
        DatasetCase.input,
        DatasetCase.expected,
    )
    if sample is None:
        rows = await session.execute(select(*columns).where(*where).order_by(DatasetCase.ordinal))
        cases = [CaseRef(*row) for row in rows]
        return len(cases), cases
    ids = list(
        await session.scalars(select(DatasetCase.id).where(*where).order_by(DatasetCase.ordinal))
    )
    chosen = [ids[p] for p in sample_positions(len(ids), sample)]
    cases = []
    for low in range(0, len(chosen), _CHUNK):
        batch = chosen[low : low + _CHUNK]
        rows = await session.execute(select(*columns).where(DatasetCase.id.in_(batch)))
        cases.extend(CaseRef(*row) for row in rows)
    return len(ids), sorted(cases, key=lambda case: case.ordinal)


async def select_for(session: AsyncSession, resolved: ResolvedInput) -> Selection:
    """The cases the comparison would run, with the coverage of each template variable."""
    split_count, considered = await load_cases(
        session,
        version_id=resolved.dataset_version.id,
        split=resolved.split,
        sample=resolved.sample,
    )
    cohort_variables = [cohort.prompt.variables for cohort in resolved.cohorts]
    chosen = select_cases(
        considered, cohort_variables, resolved.variables, resolved.missing_field_policy
    )
    lines = coverage(considered, {v for vs in cohort_variables for v in vs}, resolved.variables)
    return Selection(
        split_count=split_count,
        considered=considered,
        kept=chosen.kept,
        missing=chosen.missing,
        refused=chosen.refused,
        coverage=lines,
    )
