"""What a cacheable read looks like: its root field, its arguments, the fields it may select
(a `Shape`), and the stamp that covers them."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final, Union

from server.page_reads.fields import attributes, camel_case, inner, is_leaf

WHOLE: Final = "WHOLE"
"""A field whose whole subtree, whatever it selects, is covered by the stamp."""

Shape = Mapping[str, Union["Shape", str, None]]
"""Allowed field names: None a leaf, a nested `Shape` its own allowed fields, or WHOLE."""

Stamp = tuple[Any, ...]

StampReader = Callable[..., Awaitable[Stamp | None]]
"""`await stamp(fetch, dialect=…, workspace_id=…, arguments=…, max_page_size=…)`: the stamp,
or None when the answer must not be kept (not the workspace's, not covered, bad arguments).
`fetch` is the request's page reader (`server.api.context.Context.fetch`: on PostgreSQL the
driver's own connection, its records read by column name or position)."""


@dataclass(frozen=True, slots=True)
class Rule:
    root: str
    arguments: frozenset[str]
    """Arguments the root field may take (others make the document run as usual)."""
    required: frozenset[str]
    shape: Shape
    stamp: StampReader


def shape_of(kind: type) -> Shape:
    """The fields a read model's value class carries (`server.page_reads.fields`): a leaf
    attribute a leaf field, a value class below its own shape."""
    shape: dict[str, Shape | str | None] = {}
    for name, hint in attributes(kind).items():
        below = inner(hint)
        if is_leaf(below):
            shape[camel_case(name)] = None
        elif isinstance(below, type) and attributes(below):
            shape[camel_case(name)] = shape_of(below)
    return shape
