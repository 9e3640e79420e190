"""What a read model's value carries: its attributes (dataclass fields and properties) with
their types, by the GraphQL field names they stand for (a field's name in snake case)."""

from __future__ import annotations

import re
import types
from collections.abc import Callable, Iterable
from dataclasses import fields, is_dataclass
from datetime import datetime
from enum import Enum
from functools import cache, partial
from typing import Any, TypeVar, Union, cast, get_args, get_origin, get_type_hints

LEAVES = (str, int, float, bool, datetime, Enum)
"""What a leaf is: shown as is, an enum member by name, a datetime in ISO 8601."""


@cache
def attributes(kind: type) -> dict[str, Any]:
    """A value class's fields and properties with their types (empty: not a value class): a
    dataclass, or a NamedTuple."""
    if is_dataclass(kind):
        hints = get_type_hints(kind)
        found = {f.name: hints[f.name] for f in fields(kind)}
    elif isinstance(kind, type) and issubclass(kind, tuple) and hasattr(kind, "_fields"):
        found = dict(get_type_hints(kind))  # a NamedTuple
    else:
        return {}
    for name in dir(kind):
        member = getattr(kind, name, None)
        if isinstance(member, property) and member.fget is not None:
            found[name] = get_type_hints(member.fget).get("return")
    return found


def inner(hint: Any) -> Any:
    """The type under `X | None`, `tuple[X, ...]` and `list[X]` (None: a union of several)."""
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


def nullable(hint: Any) -> bool:
    """Whether an attribute's annotation admits None (`X | None`)."""
    return get_origin(hint) in (Union, types.UnionType) and type(None) in get_args(hint)


def is_leaf(kind: Any) -> bool:
    return isinstance(kind, type) and issubclass(kind, LEAVES)


def snake_case(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def camel_case(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part.title() for part in rest)


T = TypeVar("T")
E = TypeVar("E", bound=Enum)


def made(kind: type[T]) -> Callable[[Iterable[Any]], T]:
    """A named tuple of `kind` from its values in field order, made in C (`tuple.__new__`):
    its generated `__new__`, and a frozen dataclass's `__init__` (each field set through
    `object.__setattr__`), cost three to ten times as much, and a page makes hundreds."""
    return cast("Callable[[Iterable[Any]], T]", partial(tuple.__new__, kind))


@cache
def _field_names(kind: type) -> tuple[str, ...]:
    return tuple(f.name for f in fields(kind))


def copied(kind: type[T], value: Any, **overrides: Any) -> T:
    """A `kind` (a dataclass: a GraphQL type) whose fields are `value`'s attributes of the
    same names, but those `overrides` gives (a type over its read model's value)."""
    names = _field_names(cast(type, kind))
    taken = {n: getattr(value, n) for n in names if n not in overrides}
    return kind(**taken, **overrides)


def members(enum: type[E]) -> dict[Any, E]:
    """An enum's members by value and by themselves: a dict lookup, not the enum's call."""
    return {**{m.value: m for m in enum}, **{m: m for m in enum}}
