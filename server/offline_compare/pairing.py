"""Pairing two runs: items by `datasetItemId` when both runs carry them, else by position;
within an item, trials by index (docs/statistics.md). A pair is (item, trial index)."""

from __future__ import annotations

from dataclasses import dataclass

from server.offline_compare.results import Item, LoadError, Run, Trial


@dataclass(frozen=True, slots=True)
class Pair:
    """One matched pair: the item's key, the trial index, and the two trials."""

    key: str
    dataset_item_id: str | None
    position: int
    trial_index: int
    case_input: object
    baseline: Trial
    treatment: Trial


@dataclass(frozen=True, slots=True)
class Matching:
    """The matched pairs in baseline item order, and what was left unmatched."""

    pairs: tuple[Pair, ...]
    by: str
    """`datasetItemId` or `position`."""
    items: int
    baseline_only_items: int
    treatment_only_items: int
    unmatched_trials: int
    """Trials beyond the shorter side's count in matched items."""


def match(baseline: Run, treatment: Run) -> Matching:
    """The pairs of `treatment` against `baseline`; LoadError when a key repeats in a run."""
    by_id = all(i.dataset_item_id is not None for i in (*baseline.items, *treatment.items))
    by = "datasetItemId" if by_id else "position"
    base = _keyed(baseline, by_id)
    treat = _keyed(treatment, by_id)
    pairs: list[Pair] = []
    unmatched = 0
    for key, item in base.items():
        other = treat.get(key)
        if other is None:
            continue
        count = min(len(item.trials), len(other.trials))
        unmatched += max(len(item.trials), len(other.trials)) - count
        pairs.extend(
            Pair(
                key,
                item.dataset_item_id,
                item.position,
                index,
                item.input,
                item.trials[index],
                other.trials[index],
            )
            for index in range(count)
        )
    shared = base.keys() & treat.keys()
    return Matching(
        pairs=tuple(pairs),
        by=by,
        items=len(shared),
        baseline_only_items=len(base) - len(shared),
        treatment_only_items=len(treat) - len(shared),
        unmatched_trials=unmatched,
    )


def _keyed(run: Run, by_id: bool) -> dict[str, Item]:
    keyed: dict[str, Item] = {}
    for item in run.items:
        key = item.dataset_item_id if by_id else f"#{item.position}"
        assert key is not None
        if key in keyed:
            what = f"datasetItemId {key!r}" if by_id else f"position {item.position}"
            raise LoadError(f"{run.source}: {what} appears twice in run {run.name!r}")
        keyed[key] = item
    return keyed
