"""A page's read shown as a document selects it: each selected field is the read value's
attribute of that name in snake case, without the schema's execution.

A read model's value (`server.page_reads`) carries the page's fields under the names its
GraphQL type gives them, as plain values: a leaf is a string, number, boolean, enum member
(shown by name) or datetime (ISO 8601), an object is another such value, a list a tuple of
them. `missing` tells, before any request, which selected fields a value's class does not
carry: a document that selects one is not answered directly (the schema answers it), and
`tests/server/direct_reads` fails on it, so a portal document that asks for a new field
needs the field on the read model, where the type reads it too.
"""

from __future__ import annotations

import re
import types
from collections.abc import Mapping
from dataclasses import fields, is_dataclass
from datetime import datetime
from enum import Enum
from functools import cache
from typing import Any, Union, get_args, get_origin, get_type_hints

from graphql import FieldNode, FragmentDefinitionNode, FragmentSpreadNode, SelectionSetNode

Fragments = Mapping[str, FragmentDefinitionNode]
LEAVES = (str, int, float, bool, datetime, Enum)


def show(
    value: Any, selections: SelectionSetNode, fragments: Fragments, given: Mapping[str, Any]
) -> dict[str, Any]:
    """The selected fields of `value` by response key; `given` names fields shown as given
    (at this level only)."""
    shown: dict[str, Any] = {}
    for field in selected(selections, fragments):
        name = field.name.value
        key = field.alias.value if field.alias else name
        found = given[name] if name in given else getattr(value, snake_case(name))
        shown[key] = _shown(found, field.selection_set, fragments)
    return shown


def _shown(value: Any, selections: SelectionSetNode | None, fragments: Fragments) -> Any:
    if value is None:
        return None
    if isinstance(value, (tuple, list)):
        return [_shown(item, selections, fragments) for item in value]
    if selections is not None:
        return show(value, selections, fragments, {})
    if isinstance(value, Enum):
        return value.name
    if isinstance(value, datetime):
        return value.isoformat()
    return value


def selected(selections: SelectionSetNode, fragments: Fragments) -> list[FieldNode]:
    """The fields of a selection set, named fragments spread (`missing` refuses the rest)."""
    found: list[FieldNode] = []
    for selection in selections.selections:
        if isinstance(selection, FieldNode):
            found.append(selection)
        elif isinstance(selection, FragmentSpreadNode):
            found.extend(selected(fragments[selection.name.value].selection_set, fragments))
    return found


def missing(
    kind: Any, selections: SelectionSetNode, fragments: Fragments, given: frozenset[str]
) -> list[str]:
    """The selected fields that a value of `kind` does not carry as this module shows them
    (with their paths); none: every answer of the document is `show`'s."""
    absent: list[str] = []
    keys: set[str] = set()
    for selection in selections.selections:
        if not isinstance(selection, (FieldNode, FragmentSpreadNode)) or selection.directives:
            absent.append("(an inline fragment or a directive)")
        elif isinstance(selection, FragmentSpreadNode) and selection.name.value not in fragments:
            absent.append(f"...{selection.name.value}")
    for field in selected(selections, fragments):
        name = field.name.value
        key = field.alias.value if field.alias else name
        if key in keys or field.arguments or field.directives:
            absent.append(f"{key} (again, with arguments or a directive)")
            continue
        keys.add(key)
        if name in given:
            continue
        hint = _attributes(kind).get(snake_case(name))
        if hint is None:
            absent.append(name)
            continue
        inner = _inner(hint)
        if field.selection_set is None:
            if not (isinstance(inner, type) and issubclass(inner, LEAVES)):
                absent.append(f"{name} (not a leaf)")
        elif not (isinstance(inner, type) and _attributes(inner)):
            absent.append(f"{name} (not an object)")
        else:
            below = missing(inner, field.selection_set, fragments, frozenset())
            absent.extend(f"{name}.{path}" for path in below)
    return absent


def _inner(hint: Any) -> Any:
    """The type under `X | None`, `tuple[X, ...]` and `list[X]`."""
    while True:
        origin = get_origin(hint)
        if origin in (Union, types.UnionType):
            options = [a for a in get_args(hint) if a is not type(None)]
            if len(options) != 1:
                return None
            hint = options[0]
        elif origin in (tuple, list):
            hint = get_args(hint)[0]
        else:
            return hint


@cache
def _attributes(kind: type) -> dict[str, Any]:
    """A class's fields and properties with their types (empty: not an object)."""
    if not is_dataclass(kind):
        return {}
    hints = get_type_hints(kind)
    found = {f.name: hints[f.name] for f in fields(kind)}
    for name in dir(kind):
        member = getattr(kind, name, None)
        if isinstance(member, property) and member.fget is not None:
            found[name] = get_type_hints(member.fget).get("return")
    return found


def snake_case(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()
