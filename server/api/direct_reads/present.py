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

from collections.abc import Mapping
from datetime import datetime
from enum import Enum
from typing import Any

from graphql import FieldNode, FragmentDefinitionNode, FragmentSpreadNode, SelectionSetNode

from server.page_reads.fields import attributes, inner, is_leaf, snake_case

Fragments = Mapping[str, FragmentDefinitionNode]


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
        hint = attributes(kind).get(snake_case(name))
        if hint is None:
            absent.append(name)
            continue
        below_kind = inner(hint)
        if field.selection_set is None:
            if not is_leaf(below_kind):
                absent.append(f"{name} (not a leaf)")
        elif not (isinstance(below_kind, type) and attributes(below_kind)):
            absent.append(f"{name} (not an object)")
        else:
            below = missing(below_kind, field.selection_set, fragments, frozenset())
            absent.extend(f"{name}.{path}" for path in below)
    return absent
