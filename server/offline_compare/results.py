"""Results JSONL (docs/domain.md, Runs and diffs), read from files and directories.

One item per line: `{datasetItemId?, position, input, trials: [{passed?, evaluators
{name: score}, output?, metrics {tokens, turns, toolCalls, wallMs, errors}}]}`. Unknown
keys are ignored (hosted runs add some); known keys must have their types. A directory
holds one or more `*.jsonl` files, read in name order.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

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
    items = [item for file in files for item in _read_file(file)]
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


def _read_file(path: Path) -> list[Item]:
    items = []
    try:
        with path.open("rb") as lines:
            for number, raw in enumerate(lines, start=1):
                if raw.strip():
                    items.append(_parse_line(path, number, raw))
    except OSError as exc:
        raise LoadError(f"{path}: cannot read ({exc.strerror or exc})") from None
    return items


def _parse_line(path: Path, number: int, raw: bytes) -> Item:
    try:
        value = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise LoadError(f"{path}, line {number}: not UTF-8 text") from None
    except ValueError as exc:
        raise LoadError(f"{path}, line {number}: not valid JSON ({exc})") from None
    try:
        return parse_item(value)
    except ValueError as exc:
        raise LoadError(f"{path}, line {number}: {exc}") from None


def parse_item(value: object) -> Item:
    """An item from its decoded JSON; ValueError names the first problem."""
    if not isinstance(value, dict):
        raise ValueError("an item must be a JSON object")
    position = value.get("position")
    if isinstance(position, bool) or not isinstance(position, int) or position < 0:
        raise ValueError("`position` must be a whole number >= 0")
    item_id = value.get("datasetItemId")
    if item_id is not None and (not isinstance(item_id, str) or not item_id):
        raise ValueError("`datasetItemId` must be a non-empty string when given")
    if "input" not in value:
        raise ValueError("`input` is required")
    trials = value.get("trials")
    if not isinstance(trials, list):
        raise ValueError("`trials` must be a list")
    parsed = []
    for index, trial in enumerate(trials):
        try:
            parsed.append(_parse_trial(trial))
        except ValueError as exc:
            raise ValueError(f"trials[{index}]: {exc}") from None
    return Item(position, item_id, value["input"], tuple(parsed))


def _parse_trial(value: object) -> Trial:
    if not isinstance(value, dict):
        raise ValueError("a trial must be a JSON object")
    passed = value.get("passed")
    if passed is not None and not isinstance(passed, bool):
        raise ValueError("`passed` must be true, false or absent")
    return Trial(
        passed=passed,
        output=value.get("output"),
        evaluators=_numbers(value.get("evaluators"), "evaluators", None),
        metrics=_numbers(value.get("metrics"), "metrics", METRICS),
    )


def _numbers(value: object, name: str, known: tuple[str, ...] | None) -> dict[str, float]:
    """`{name: number}` (finite numbers); with `known`, other keys are ignored."""
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise ValueError(f"`{name}` must be an object of numbers")
    numbers = {}
    for key, number in value.items():
        if known is not None and key not in known:
            continue
        if number is None:
            continue
        if isinstance(number, bool) or not isinstance(number, int | float):
            raise ValueError(f"`{name}.{key}` must be a number")
        if not math.isfinite(number):
            raise ValueError(f"`{name}.{key}` must be finite")
        numbers[key] = float(number)
    return numbers
