"""Template variables → case fields: resolving paths, coverage, and which cases a comparison keeps.

A path is `input` (the whole input), `input.a.b` (a field of an object input; a number picks
an item of a list), `expected` or `expected.a`. A field that is absent or null is missing.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Generic, Protocol, TypeVar

from server.errors import ValidationFailed

ROOTS = ("input", "expected")
MAX_PATH_LENGTH = 200


class MissingFieldPolicy(StrEnum):
    LEAVE_OUT = "LEAVE_OUT"
    """Run only the cases that have every field (the same cases for every cohort)."""
    REFUSE = "REFUSE"
    """Refuse the comparison while any case lacks a field."""


class CaseFields(Protocol):
    """What a case offers a template: a `DatasetCase` row fits."""

    @property
    def dataset_item_id(self) -> str: ...

    @property
    def input(self) -> Any: ...

    @property
    def expected(self) -> Any: ...


C = TypeVar("C", bound=CaseFields)


def check_path(path: str, *, field: str = "variables") -> str:
    """A well-formed path (`input`, `input.a.b`, `expected…`), else VALIDATION_FAILED."""
    parts = path.split(".")
    if (
        len(path) > MAX_PATH_LENGTH
        or parts[0] not in ROOTS
        or any(not part.strip() or part != part.strip() for part in parts)
    ):
        raise ValidationFailed(
            f"`{field}` must be `input`, `input.<field>…` or `expected…`", field=field
        )
    return path


def _step(value: Any, key: str) -> tuple[bool, Any]:
    if isinstance(value, dict):
        return (key in value, value.get(key))
    if isinstance(value, list) and key.isdigit() and int(key) < len(value):
        return (True, value[int(key)])
    return (False, None)


def resolve_field(case_input: Any, expected: Any, path: str) -> tuple[bool, Any]:
    """(found, value) of `path` in a case; absent and null fields are not found."""
    root, *rest = path.split(".")
    if root == "input":
        value = case_input
    elif root == "expected":
        value = expected
    else:
        return (False, None)
    for key in rest:
        found, value = _step(value, key)
        if not found:
            return (False, None)
    return (value is not None, value)


def default_mapping(variable: str, case_input: Any) -> str:
    """`input.<name>` for an object input; the whole `input` for a string or a list of turns."""
    return f"input.{variable}" if isinstance(case_input, dict) else "input"


def path_for(variable: str, mapping: Mapping[str, str], case_input: Any) -> str:
    """The mapped path of `variable`, or its default for this case's input."""
    return mapping.get(variable) or default_mapping(variable, case_input)


def resolve_variables(
    case: CaseFields, variables: Iterable[str], mapping: Mapping[str, str]
) -> dict[str, Any]:
    """The values of the variables found in `case` (a missing one is left out, so rendering
    with StrictUndefined fails on it)."""
    values = {}
    for variable in variables:
        found, value = resolve_field(
            case.input, case.expected, path_for(variable, mapping, case.input)
        )
        if found:
            values[variable] = value
    return values


@dataclass(frozen=True, slots=True)
class VariableCoverage:
    """How many cases have the field a variable is mapped to."""

    variable: str
    path: str
    found: int
    total: int

    def describe(self) -> str:
        """E.g. "question ← input.question · found in 50 of 50 cases"."""
        return f"{self.variable} ← {self.path} · found in {self.found} of {self.total} cases"


def coverage(
    cases: Sequence[CaseFields], variables: Iterable[str], mapping: Mapping[str, str]
) -> list[VariableCoverage]:
    """One line per variable (sorted); a defaulted path shows the default most cases used."""
    lines = []
    for variable in sorted(set(variables)):
        paths: Counter[str] = Counter()
        found = 0
        for case in cases:
            path = path_for(variable, mapping, case.input)
            paths[path] += 1
            found += resolve_field(case.input, case.expected, path)[0]
        shown = mapping.get(variable) or (
            paths.most_common(1)[0][0] if paths else f"input.{variable}"
        )
        lines.append(VariableCoverage(variable, shown, found, len(cases)))
    return lines


@dataclass(frozen=True, slots=True)
class MissingField:
    variable: str
    dataset_item_id: str


@dataclass(frozen=True, slots=True)
class Selection(Generic[C]):
    """The cases a comparison keeps, and every (variable, case) whose field is missing."""

    kept: list[C]
    missing: list[MissingField] = field(default_factory=list)
    refused: bool = False
    """REFUSE and something is missing: nothing is kept."""

    @property
    def left_out(self) -> int:
        """How many cases LEAVE_OUT dropped."""
        return len({m.dataset_item_id for m in self.missing}) if not self.refused else 0


def select_cases(
    cases: Sequence[C],
    cohort_variables: Sequence[Iterable[str]],
    mapping: Mapping[str, str],
    policy: MissingFieldPolicy,
) -> Selection[C]:
    """Cases having every variable of every cohort (LEAVE_OUT), or all of them — or none, with
    the missing pairs listed — under REFUSE."""
    # The union: a case one cohort cannot render is dropped for all, so cohorts stay paired.
    variables = sorted({v for cohort in cohort_variables for v in cohort})
    kept: list[C] = []
    missing: list[MissingField] = []
    for case in cases:
        absent = [
            v
            for v in variables
            if not resolve_field(case.input, case.expected, path_for(v, mapping, case.input))[0]
        ]
        missing.extend(MissingField(v, case.dataset_item_id) for v in absent)
        if not absent:
            kept.append(case)
    if policy == MissingFieldPolicy.REFUSE and missing:
        return Selection(kept=[], missing=missing, refused=True)
    return Selection(kept=kept, missing=missing)
