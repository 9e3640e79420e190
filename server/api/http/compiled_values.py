"""What the code a plan generates (`compiled_plans`) calls off its fast path, and the request's
awaited values.

The generated functions complete the values that are as the types say inline (a `str` for a
String, an enum member known to its type, a list of objects); whatever else a leaf or a list
holds comes here: null for a nullable field, a coercion graphql-core would make, an
awaitable a resolver returned. An awaitable is not awaited where it is found: it becomes a
`Later`, kept in the request's list, and its slot in the answer is filled once
`finish` has awaited it (every one found in a pass awaited together, as graphql-core
gathers an object's fields). Anything graphql-core would refuse or answer with an error
raises `GiveUp`, and every awaitable not yet awaited is closed (a resolver's coroutine
under it never runs, and never warns)."""

from __future__ import annotations

from collections.abc import Callable
from inspect import iscoroutine
from math import isfinite
from types import GeneratorType
from typing import Any, Final, TypeAlias

from graphql import (
    GraphQLBoolean,
    GraphQLEnumType,
    GraphQLFloat,
    GraphQLID,
    GraphQLInt,
    GraphQLString,
)
from graphql.execution import Executor
from graphql.pyutils import Path, Undefined, gather_with_cancel
from strawberry.execution.is_awaitable import optimized_is_awaitable

INT_RANGE: Final = range(-(2**31), 2**31)

ExecutionContext: TypeAlias = Executor[Any]
"""The request's executor: its coerced variables, and the `Info` it builds for a resolver."""
Complete = Callable[[Any, Path | None, ExecutionContext, list["Later"]], Any]
"""A resolved value completed (its path, the request's executor, its list of `Later`s): the
answer's value, or a `Later` when it must still be awaited."""


class GiveUp(Exception):
    """The plan cannot answer this request as graphql-core would: the schema answers."""


class Later:
    """An awaitable a resolver returned, its completion once awaited, and the slot of the
    answer (`into[key]`: a dict's key or a list's index) the completed value fills."""

    __slots__ = ("awaitable", "complete", "path", "into", "key")

    def __init__(self, awaitable: Any, complete: Complete, path: Path | None) -> None:
        self.awaitable = awaitable
        self.complete = complete
        self.path = path
        self.into: Any = None
        self.key: Any = None


def later(value: Any, complete: Complete, path: Path | None, waiting: list[Later] | None) -> Later:
    """`value` (an awaitable) kept to be awaited and completed by `finish`; where nothing can
    wait (`waiting` None: a value completed inline, `compiled_plans`), the schema answers."""
    if waiting is None:
        if iscoroutine(value):
            value.close()
        raise GiveUp
    found = Later(value, complete, path)
    waiting.append(found)
    return found


def pending(found: list[Later] | None, one: Later, key: str) -> list[Later]:
    """`one` kept for the object being built, its slot the field's `key` (the generated
    code sets `into` once the object's dict exists)."""
    one.key = key
    if found is None:
        return [one]
    found.append(one)
    return found


async def finish(executor: ExecutionContext, waiting: list[Later]) -> None:
    """Every kept awaitable awaited (each pass's together) and its slot filled with its
    completed value, which may keep more (an object's own awaited fields)."""
    try:
        while waiting:
            batch = waiting.copy()
            waiting.clear()
            if len(batch) == 1:
                values = [await batch[0].awaitable]
            else:
                values = await gather_with_cancel(*(one.awaitable for one in batch))
            for one, value in zip(batch, values, strict=True):
                done = one.complete(value, one.path, executor, waiting)
                if done.__class__ is Later:
                    done.into, done.key = one.into, one.key
                one.into[one.key] = done
    except BaseException:
        close_all(waiting)
        raise


def close_all(waiting: list[Later]) -> None:
    """The coroutines never to be awaited, closed (no warning, nothing left running)."""
    for one in waiting:
        if iscoroutine(one.awaitable):
            one.awaitable.close()
    waiting.clear()


EXACT: Final[dict[Any, type]] = {
    GraphQLString: str,
    GraphQLID: str,
    GraphQLBoolean: bool,
    GraphQLInt: int,
    GraphQLFloat: float,
}
"""Built-in scalars whose value of this exact type is its own serialization (an Int in
range, a finite Float): anything else goes through the type's own coercion."""

MEMO: Final = 1024
"""Enum values kept serialized per type (an enum has a few dozen at most)."""


def leaf(leaf_type: Any, non_null: bool, memo: dict[Any, Any] | None) -> Complete:
    """A leaf's completion by its type's own coercion (an enum's results kept in `memo`,
    which the generated code looks its values up in first)."""
    coerce = leaf_type.coerce_output_value
    exact = EXACT.get(leaf_type)
    if memo is None and isinstance(leaf_type, GraphQLEnumType):
        memo = {}

    def complete(value: Any, path: Path | None, _executor: ExecutionContext, w: list[Later]) -> Any:
        if value is None or value is Undefined:
            if non_null:
                raise GiveUp
            return None
        kind = type(value)
        if kind is exact and (
            (kind is not int or value in INT_RANGE) and (kind is not float or isfinite(value))
        ):
            return value
        if awaitable(value):
            return later(value, _awaited(complete), path, w)
        coerced = coerce(value)
        if coerced is None or coerced is Undefined:
            raise GiveUp
        if memo is not None and len(memo) < MEMO:
            try:
                memo[value] = coerced
            except TypeError:  # unhashable: coerced each time
                pass
        return coerced

    return complete


def _awaited(complete: Complete) -> Complete:
    """`complete` of an awaited value: one that is awaitable again is graphql-core's."""

    def run(value: Any, path: Path | None, executor: ExecutionContext, w: list[Later]) -> Any:
        if optimized_is_awaitable(value):
            if iscoroutine(value):
                value.close()
            raise GiveUp
        return complete(value, path, executor, w)

    return run


def list_of(item: Complete, non_null: bool, pathed: bool) -> Complete:
    """A list's completion, item by item (its items' paths when something below needs
    them); a slot an item must still await is the list's index."""

    def complete(value: Any, path: Path | None, executor: ExecutionContext, w: list[Later]) -> Any:
        if value is None or value is Undefined:
            if non_null:
                raise GiveUp
            return None
        if type(value) not in (list, tuple):
            if optimized_is_awaitable(value):
                return later(value, _awaited(complete), path, w)
            raise GiveUp  # another iterable: graphql-core's to judge
        if pathed:
            items = [item(v, Path(path, i, None), executor, w) for i, v in enumerate(value)]
        else:
            items = [item(v, None, executor, w) for v in value]
        for index, done in enumerate(items):
            if done.__class__ is Later:
                done.into, done.key = items, index
        return items

    return complete


def object_or_later(run: Complete) -> Complete:
    """An object's completion (`run`, generated), or a `Later` when a resolver returned an
    awaitable of it."""

    def complete(value: Any, path: Path | None, executor: ExecutionContext, w: list[Later]) -> Any:
        if value is not None and optimized_is_awaitable(value):
            return later(value, _awaited(run), path, w)
        return run(value, path, executor, w)

    return complete


def give_up() -> Any:
    raise GiveUp


PLAIN: Final[set[type]] = set()
"""Classes seen whose values are never awaitable (not a generator's, which may be): a field
of one is completed without asking again."""


def awaitable(value: Any) -> bool:
    """Whether `value` must be awaited (graphql-core's test); its class kept in `PLAIN`
    when no value of it can be."""
    if optimized_is_awaitable(value):
        return True
    kind = value.__class__
    if kind is not GeneratorType and len(PLAIN) < MEMO:
        PLAIN.add(kind)
    return False
