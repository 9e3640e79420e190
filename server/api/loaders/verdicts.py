"""DataLoaders of the case view, built per request into `server.api.loaders.Loaders`: the
trials and dataset case of each case on a page."""

from __future__ import annotations

from typing import Any

from strawberry.dataloader import DataLoader

from server.reading import SharedReader
from server.verdicts import cases


def trials_by_case(
    reader: SharedReader, *, brief: bool = False
) -> DataLoader[cases.CaseKey, dict[int, list[cases.CaseTrialRow]]]:
    """Each case's trials per cohort index, in trial order: one statement for a page;
    `brief`: without their output and checks."""

    async def load(keys: list[cases.CaseKey]) -> list[dict[int, list[cases.CaseTrialRow]]]:
        async with reader.session() as session:
            found = await cases.get_trials(session=session, keys=keys, brief=brief)
        return [found.get(key, {}) for key in keys]

    return DataLoader(load_fn=load)


def dataset_case_by_id(reader: SharedReader) -> DataLoader[int, tuple[Any, Any]]:
    """A case's frozen `(input, expected)` by dataset case id (ids come from scoped rows)."""

    async def load(keys: list[int]) -> list[tuple[Any, Any]]:
        async with reader.session() as session:
            found = await cases.get_dataset_cases(session=session, dataset_case_ids=keys)
        return [found.get(key, (None, None)) for key in keys]

    return DataLoader(load_fn=load)
