"""What every reader shares: the options, the refusal, and what a reader gives back.

A reader turns one tool's file into `RunToImport`s (promptfoo gives one per prompt × provider
pair, the others one): the run's `source` metadata and a generator of run items in the
shape `appendRunItems` takes (docs/domain.md), each with where it came from (`line 7`, `zip member
samples/a_epoch_1.json`) so a refusal can name it.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

FORMATS = ("shipwise", "inspect", "promptfoo", "lm-eval", "openai-evals")


class Refused(Exception):
    """A file, or a record of it, that its format does not allow; says where and which field."""

    def __init__(self, where: str, reason: str, field: str | None = None) -> None:
        named = f"`{field}`: " if field else ""
        super().__init__(f"{where}: {named}{reason}")
        self.where = where
        self.field = field
        self.reason = reason


@dataclass(frozen=True)
class Options:
    """What the user chose: `--scorer`, `--pass-threshold`, `--variant`, `--filter`."""

    scorer: str | None = None
    pass_threshold: float = 1.0
    variant: str | None = None
    filter: str | None = None

    def key(self) -> str:
        """The options in a stable text, part of the default idempotency key."""
        return f"{self.scorer}|{self.pass_threshold!r}|{self.variant}|{self.filter}"


Located = tuple[str, dict[str, Any]]
"""(where in the file, the run item)."""


@dataclass
class RunToImport:
    """One run to import: its `source` metadata, its items and its label (promptfoo's pair)."""

    source: dict[str, Any]
    items: Iterator[Located]
    label: str | None = None
    id_field: str = "id"
    """The field of the tool's record that becomes `datasetItemId` (named in refusals)."""


def number(value: object) -> float | None:
    """A finite JSON number as float (booleans excluded), else None."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value) if math.isfinite(value) else None


def metrics(**values: object) -> dict[str, float]:
    """The run-item metrics that are finite numbers, dropping the missing ones."""
    return {name: n for name, value in values.items() if (n := number(value)) is not None}


def need(record: dict[str, Any], name: str, where: str) -> Any:
    """`record[name]`, or Refused naming the missing field."""
    if name not in record or record[name] is None:
        raise Refused(where, "is missing", name)
    return record[name]


def as_object(value: object, where: str, what: str = "a record") -> dict[str, Any]:
    if not isinstance(value, dict):
        raise Refused(where, f"{what} must be a JSON object")
    return value


def obj(record: dict[str, Any], name: str) -> dict[str, Any]:
    """`record[name]` when it is an object, else an empty one (for optional parts)."""
    value = record.get(name)
    return value if isinstance(value, dict) else {}


def describe(refusal: Refused, path: object) -> str:
    """The refusal as one line that starts with the file (`path: where: reason`)."""
    text = str(refusal)
    name = getattr(path, "name", str(path))
    if refusal.where == name:
        text = text[len(name) + 2 :]
    return f"{path}: {text}"
