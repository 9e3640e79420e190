"""Results JSONL (docs/domain.md, Runs and diffs), read from files and directories.

One item per line: `{datasetItemId?, position?, input, trials: [{passed?, evaluators
{name: score}, output?, metrics {tokens, turns, toolCalls, wallMs, errors}}]}`, checked by
the same check as `shipwise run import` and `appendRunItems` (`server.runs.items`), so
the two commands accept the same files. An item without a `position` takes its place in
the run (its index among the items). A directory holds one or more `*.jsonl` files, read
in name order, as one run.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from server.runs.items import CaseError, check_item

METRICS = ("tokens", "turns", "toolCalls", "wallMs", "errors")
EXPERIMENT_FILE = "experiment.json"


class LoadError(Exception):
    """A results file or directory that cannot be compared; the message says where and why."""


@dataclass(frozen=True, slots=True)
class Trial:
    """One trial: its grade (None when not graded), output, evaluator scores and metrics."""

    passed: bool | None
    output: Any
    evaluators: dict[str, float] = field(default_factory=dict)
    metrics: dict[str, float] = field(default_factory=dict)
    trajectory: tuple[dict[str, Any], ...] | None = None
    """The steps the trial's agent took (docs/domain.md), when it carries them."""


@dataclass(frozen=True, slots=True)
class Item:
    """One item (case) of a run and its trials, in file order."""

    position: int
    dataset_item_id: str | None
    input: Any
    trials: tuple[Trial, ...]


@dataclass(frozen=True, slots=True)
class Run:
    """A named run: a results file, a directory of them, or one variant of an experiment."""

    name: str
    source: Path
    items: tuple[Item, ...]


def load_run(path: Path, *, name: str | None = None) -> Run:
    """The run in a JSONL file, or in the `*.jsonl` files of a directory (name order)."""
    if path.is_dir():
        files = sorted(p for p in path.glob("*.jsonl") if p.is_file())
        if not files:
            raise LoadError(f"{path}: the directory holds no .jsonl results file")
    elif path.is_file():
        files = [path]
    else:
        raise LoadError(f"{path}: no such file or directory")
    items: list[Item] = []
    for file in files:
        items.extend(_read_file(file, len(items)))
    if not items:
        raise LoadError(f"{path}: no items")
    return Run(
        name=name or (path.stem if path.is_file() else path.name), source=path, items=tuple(items)
    )


def load_experiment(directory: Path, *, baseline_variant: str | None) -> tuple[Run, list[Run]]:
    """The baseline variant and the others of an experiment directory (docs/domain.md).

    The directory holds `<variant>.jsonl` per variant; `experiment.json` may name the
    `baseline`; `baseline_variant` overrides it and is required when neither names one.
    """
    if not directory.is_dir():
        raise LoadError(f"{directory}: not a directory")
    files = {p.stem: p for p in sorted(directory.glob("*.jsonl")) if p.is_file()}
    if len(files) < 2:
        raise LoadError(f"{directory}: an experiment needs two or more <variant>.jsonl files")
    baseline = baseline_variant or _declared_baseline(directory)
    if baseline is None:
        raise LoadError(
            f"{directory}: no baseline: give --baseline-variant (variants: {', '.join(files)})"
        )
    if baseline not in files:
        raise LoadError(
            f"{directory}: baseline variant {baseline!r} has no {baseline}.jsonl "
            f"(variants: {', '.join(files)})"
        )
    runs = {variant: load_run(path, name=variant) for variant, path in files.items()}
    return runs.pop(baseline), list(runs.values())


def _declared_baseline(directory: Path) -> str | None:
    path = directory / EXPERIMENT_FILE
    if not path.is_file():
        return None
    try:
        declared = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise LoadError(f"{path}: not valid JSON ({exc})") from None
    baseline = declared.get("baseline") if isinstance(declared, dict) else None
    if baseline is None:
        return None
    if not isinstance(baseline, str) or not baseline:
        raise LoadError(f"{path}: `baseline` must be a variant name")
    return baseline


def _read_file(path: Path, start: int) -> list[Item]:
    """The file's items; one without a `position` takes its place (`start` + its index)."""
    items: list[Item] = []
    try:
        with path.open("rb") as lines:
            for number, raw in enumerate(lines, start=1):
                if raw.strip():
                    items.append(_parse_line(path, number, raw, start + len(items)))
    except OSError as exc:
        raise LoadError(f"{path}: cannot read ({exc.strerror or exc})") from None
    return items


def _parse_line(path: Path, number: int, raw: bytes, position: int) -> Item:
    try:
        value = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise LoadError(f"{path}, line {number}: not UTF-8 text") from None
    except ValueError as exc:
        raise LoadError(f"{path}, line {number}: not valid JSON ({exc})") from None
    try:
        return parse_item(value, position)
    except ValueError as exc:
        raise LoadError(f"{path}, line {number}: {exc}") from None


def parse_item(value: object, position: int) -> Item:
    """An item from its decoded JSON, checked by the one check of the format that the API and
    `shipwise run import` use (`server.runs.items.check_item`): what one accepts, the other
    does. ValueError names the first problem; the item takes `position` unless it gives one.
    """
    try:
        row = check_item(value, position)
    except CaseError as exc:
        named = f"`{exc.field}`: " if exc.field.startswith("trials[") else ""
        raise ValueError(named + exc.reason) from None
    return stored_item(row["position"], row["dataset_item_id"], row["input"], row["trials"])


def stored_item(
    position: int, dataset_item_id: str | None, case_input: Any, trials: list[Any]
) -> Item:
    """An item from values already checked (a checked line, or a stored run item, whose
    trials may carry more keys than the format's: hosted runs add some; they are ignored)."""
    return Item(position, dataset_item_id, case_input, tuple(_trial(t) for t in trials))


def _trial(value: dict[str, Any]) -> Trial:
    return Trial(
        passed=value.get("passed"),
        output=value.get("output"),
        evaluators=_numbers(value.get("evaluators"), None),
        metrics=_numbers(value.get("metrics"), METRICS),
        trajectory=_steps(value.get("trajectory")),
    )


def _steps(value: object) -> tuple[dict[str, Any], ...] | None:
    """A checked trajectory's steps; None without one."""
    if not isinstance(value, list):
        return None
    return tuple(step for step in value if isinstance(step, dict))


def _numbers(value: object, known: tuple[str, ...] | None) -> dict[str, float]:
    """`{name: number}`'s finite numbers; with `known`, other keys are left out."""
    if not isinstance(value, dict):
        return {}
    return {
        key: float(number)
        for key, number in value.items()
        if (known is None or key in known)
        and not isinstance(number, bool)
        and isinstance(number, int | float)
        and math.isfinite(number)
    }
