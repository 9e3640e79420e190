"""What a resolver's document selects below it (Strawberry's `info.selected_fields`)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from strawberry.types.nodes import SelectedField


def field_names(selections: Iterable[Any]) -> set[str]:
    """The names of the fields selected directly on the object, fragments looked through."""
    names: set[str] = set()
    for selection in selections:
        if isinstance(selection, SelectedField):
            names.add(selection.name)
        else:
            names |= field_names(selection.selections)
    return names


def below(selections: Iterable[Any], name: str) -> list[Any]:
    """The selections under every field `name` selected directly on the object."""
    found: list[Any] = []
    for selection in selections:
        if isinstance(selection, SelectedField):
            if selection.name == name:
                found.extend(selection.selections)
        else:
            found.extend(below(selection.selections, name))
    return found


def selects_anywhere(selections: Sequence[Any], names: frozenset[str]) -> bool:
    """Whether a field named in `names` is selected anywhere below (fragments included)."""
    return any(
        getattr(s, "name", None) in names or selects_anywhere(getattr(s, "selections", ()), names)
        for s in selections
    )
