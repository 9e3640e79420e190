"""A page's read shown as a document selects it: each selected field is the read value's
attribute of that name in snake case, without the schema's execution.

A read model's value (`server.page_reads`) carries the page's fields under the names its
GraphQL type gives them, as plain values: a leaf is a string, number, boolean, enum member
(shown by name) or datetime (ISO 8601), an object is another such value, a list a tuple of
them. `missing` tells, before any request, which selected fields a value's class does not
carry: a document that selects one is not answered directly (the schema answers it), and
`tests/server/direct_reads` fails on it, so a portal document that asks for a new field
needs the field on the read model, where the type reads it too.

`shower` turns a selection that `missing` accepts into one Python function per object,
built once per persisted document: a dict display of the selected attributes, each leaf
converted as its annotation says (an enum's `.name`, a datetime's `.isoformat()`), so
showing a value costs what an answer written by hand for the document costs (walking the
selection for each value cost a list of 20 rows as much again as its statement).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime
from enum import Enum
from typing import Any, Final, get_args, get_origin

from graphql import (
    FieldNode,
    FragmentDefinitionNode,
    FragmentSpreadNode,
    SelectionSetNode,
    VariableNode,
)

from server.api.direct_reads.documents import Persisted
from server.page_reads.fields import attributes, inner, is_leaf, nullable, snake_case

Fragments = Mapping[str, FragmentDefinitionNode]


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


def one_root(persisted: Persisted, root: str, kind: type, given: frozenset[str]) -> list[str]:
    """What a document of one `root(id: $id)` field selects that a value of `kind` does not
    carry (`missing`; `given` shown as given at its top)."""
    roots = selected(persisted.operation.selection_set, persisted.fragments)
    if len(roots) != 1 or roots[0].name.value != root or roots[0].selection_set is None:
        return [f"(one `{root}(id: $id)` root field)"]
    field, selections = roots[0], roots[0].selection_set
    arguments = field.arguments or ()
    value = arguments[0].value if len(arguments) == 1 else None
    if not (
        isinstance(value, VariableNode) and value.name.value == arguments[0].name.value == "id"
    ):
        return [f"{root}(id: $id)"]
    return missing(kind, selections, persisted.fragments, given)


Show = Callable[[Any], Any]
"""A value as a document selects it (None as null)."""

_SHOWERS: dict[tuple[type, int], tuple[SelectionSetNode, Show]] = {}


def shower(
    kind: type, selections: SelectionSetNode, fragments: Fragments, given: Mapping[str, Any]
) -> Show:
    """`show` of a value of `kind` for `selections` (`given` at its top level), compiled
    once per selection set (which `missing` has accepted for `kind`)."""
    key = (kind, id(selections))
    kept = _SHOWERS.get(key)
    if kept is not None and kept[0] is selections:
        return kept[1]
    namespace: dict[str, Any] = dict(_HELPERS)
    lines: list[str] = []
    name = _compile(kind, selections, fragments, given, namespace, lines)
    # Generated from the read model's own attribute names and the document's response keys
    # (GraphQL names, written as string literals), nothing else of the request.
    exec(compile("\n".join(lines), f"<shower of {kind.__name__}>", "exec"), namespace)
    show_value: Show = namespace[name]
    _SHOWERS[key] = (selections, show_value)
    return show_value


def show_root(
    persisted: Persisted, kind: type, value: Any, given: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """The answer's `data`: `value` (of `kind`) under the document's one root field, by its
    response key (the document is one `covers` accepted)."""
    (root,) = selected(persisted.operation.selection_set, persisted.fragments)
    key = root.alias.value if root.alias else root.name.value
    assert root.selection_set is not None  # `covers` saw to it
    return {key: shower(kind, root.selection_set, persisted.fragments, given or {})(value)}


def _name_or_none(value: Enum | None) -> str | None:
    return None if value is None else value.name


def _iso_or_none(value: datetime | None) -> str | None:
    return None if value is None else value.isoformat()


def _list_or_none(value: Any) -> list[Any] | None:
    return None if value is None else list(value)


def _leaf_of(value: Any) -> Any:
    """A leaf whose annotation does not say its kind: null, a list of leaves, an enum member
    by name, a datetime in ISO 8601, anything else as is."""
    if value is None:
        return None
    if isinstance(value, (tuple, list)):
        return [_leaf_of(item) for item in value]
    if isinstance(value, Enum):
        return value.name
    if isinstance(value, datetime):
        return value.isoformat()
    return value


_HELPERS: Final[dict[str, Any]] = {
    "_name": _name_or_none,
    "_iso": _iso_or_none,
    "_list": _list_or_none,
    "_leaf": _leaf_of,
}


def _compile(
    kind: type,
    selections: SelectionSetNode,
    fragments: Fragments,
    given: Mapping[str, Any],
    namespace: dict[str, Any],
    lines: list[str],
) -> str:
    """The name of the generated function showing a value of `kind` (None as null), its
    source appended to `lines` after those of the objects below it."""
    display = _display(kind, selections, fragments, given, namespace, lines, "v")
    function = f"_show{len(lines)}_{kind.__name__}"
    source = (
        f"def {function}(v):",
        "    if v is None:",
        "        return None",
        f"    return {display}",
    )
    lines.append("\n".join((*source, "")))
    return function


def _display(
    kind: type,
    selections: SelectionSetNode,
    fragments: Fragments,
    given: Mapping[str, Any],
    namespace: dict[str, Any],
    lines: list[str],
    value: str,
) -> str:
    """The dict display of the selected attributes of the (not None) value named `value`.
    The items of a list of objects are shown by a display inside its comprehension, not a
    call each (a page of 50 cases shows 650 of them)."""
    hints = attributes(kind)
    entries: list[str] = []
    for field in selected(selections, fragments):
        name = field.name.value
        key = field.alias.value if field.alias else name
        if name in given:
            constant = f"_given{len(namespace)}"
            namespace[constant] = given[name]
            entries.append(f"{key!r}: {constant}")
            continue
        attribute = snake_case(name)
        if not attribute.isidentifier() or attribute not in hints:
            raise ValueError(f"{kind.__name__} does not carry {name}")
        hint, got = hints[attribute], f"{value}.{attribute}"
        below = inner(hint)
        if field.selection_set is None:
            expression = _leaf_expression(hint, below, got)
        elif _is_list(hint):
            assert isinstance(below, type), name
            item = f"x{len(namespace)}"
            namespace[item] = None  # reserves the name
            shown = _display(below, field.selection_set, fragments, {}, namespace, lines, item)
            expression = f"[{shown} for {item} in {got}]"
            if nullable(hint):
                expression = f"(None if {got} is None else {expression})"
        else:
            assert isinstance(below, type), name
            function = _compile(below, field.selection_set, fragments, {}, namespace, lines)
            expression = f"{function}({got})"
        entries.append(f"{key!r}: {expression}")
    return f"{{{', '.join(entries)}}}"


def _leaf_expression(hint: Any, kind: Any, got: str) -> str:
    optional = nullable(hint)
    if _is_list(hint):
        return f"_list({got})" if optional else f"list({got})"
    if isinstance(kind, type) and issubclass(kind, Enum):
        return f"_name({got})" if optional else f"{got}.name"
    if isinstance(kind, type) and issubclass(kind, datetime):
        return f"_iso({got})" if optional else f"{got}.isoformat()"
    if isinstance(kind, type) and issubclass(kind, (str, int, float, bool)):
        return got
    return f"_leaf({got})"


def _is_list(hint: Any) -> bool:
    origin = get_origin(hint)
    if origin in (tuple, list):
        return True
    return any(get_origin(a) in (tuple, list) for a in get_args(hint))
