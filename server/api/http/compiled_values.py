"""The completion of a resolved value as a compiled plan runs it (`compiled_plans`): a leaf
serialized by its type (the built-in scalars' exact values at once, an enum's values looked
up once coerced), a list item by item and an object field by field, what its fields return
awaited together; anything graphql-core would refuse or answer with an error raises
`GiveUp`. An awaitable never awaited is closed with what it holds, so a resolver's coroutine
under it never warns."""

from __future__ import annotations

from collections.abc import Callable, Coroutine, Generator
from inspect import iscoroutine
from math import isfinite
from typing import Any, Final, TypeAlias, cast

from graphql import (
    GraphQLBoolean,
    GraphQLEnumType,
    GraphQLFloat,
    GraphQLID,
    GraphQLInt,
    GraphQLObjectType,
    GraphQLString,
)
from graphql.execution import Executor
from graphql.pyutils import Path, Undefined, gather_with_cancel
from strawberry.execution.is_awaitable import optimized_is_awaitable

INT_RANGE: Final = range(-(2**31), 2**31)

ExecutionContext: TypeAlias = Executor[Any]
"""The request's executor: its coerced variables, and the `Info` it builds for a resolver."""
Run = Callable[[Any, Path | None, ExecutionContext], Any]
"""A value from its source (or a resolved value), its path and the request's executor:
the completed value, or an awaitable of it."""


class GiveUp(Exception):
    """The plan cannot answer this request as graphql-core would: the schema answers."""


class Pending:
    """A value still to come: awaited once, or closed with its unstarted parts (a resolver's
    coroutine under it never runs, and never warns that it was not awaited)."""

    __slots__ = ("_parts", "_start")

    def __init__(self, start: Callable[[], Coroutine[Any, Any, Any]], parts: list[Any]) -> None:
        self._start = start
        self._parts = parts

    def __await__(self) -> Generator[Any, None, Any]:
        return self._start().__await__()

    def close(self) -> None:
        close_all(self._parts)


def settled(complete: Run, value: Any, path: Path | None, executor: ExecutionContext) -> Any:
    """`value` completed, awaited first when a resolver returned an awaitable."""
    if optimized_is_awaitable(value):

        async def later() -> Any:
            done = complete(await value, path, executor)
            return await done if optimized_is_awaitable(done) else done

        return Pending(later, [value])
    return complete(value, path, executor)


_EXACT: Final[dict[Any, type]] = {
    GraphQLString: str,
    GraphQLID: str,
    GraphQLBoolean: bool,
    GraphQLInt: int,
    GraphQLFloat: float,
}
"""Built-in scalars whose value of this exact type is its own serialization (an Int in
range, a finite Float): anything else goes through the type's own coercion."""


def leaf(leaf_type: Any, non_null: bool) -> Run:
    coerce = leaf_type.coerce_output_value
    exact = _EXACT.get(leaf_type)
    # An enum's serialization is a function of the value alone, and its values are few:
    # each one is coerced once and then looked up.
    memo: dict[Any, Any] | None = {} if isinstance(leaf_type, GraphQLEnumType) else None

    def complete(value: Any, _path: Path | None, _executor: ExecutionContext) -> Any:
        if value is None or value is Undefined:
            if non_null:
                raise GiveUp
            return None
        kind = type(value)
        if kind is exact and (
            (kind is not int or value in INT_RANGE) and (kind is not float or isfinite(value))
        ):
            return value
        if memo is not None:
            try:
                return memo[value]
            except (KeyError, TypeError):
                pass
        coerced = coerce(value)
        if coerced is None or coerced is Undefined:
            raise GiveUp
        if memo is not None and len(memo) < _MEMO:
            try:
                memo[value] = coerced
            except TypeError:  # unhashable: coerced each time
                pass
        return coerced

    return complete


_MEMO: Final = 1024
"""Enum values kept serialized per type (an enum has a few dozen at most)."""


def list_of(item: Run, non_null: bool, pathed: bool) -> Run:
    def complete(value: Any, path: Path | None, executor: ExecutionContext) -> Any:
        if value is None or value is Undefined:
            if non_null:
                raise GiveUp
            return None
        if type(value) not in (list, tuple):
            raise GiveUp  # another iterable: graphql-core's to judge
        items: list[Any] = []
        try:
            if pathed:
                items.extend(item(v, Path(path, i, None), executor) for i, v in enumerate(value))
            else:
                items.extend(item(v, None, executor) for v in value)
        except BaseException:
            close_all(items)
            raise
        return _gathered_list(items)

    return complete


def nullable(run: Run) -> Run:
    def complete(value: Any, path: Path | None, executor: ExecutionContext) -> Any:
        if value is None or value is Undefined:
            return None
        return run(value, path, executor)

    return complete


def required(run: Run) -> Run:
    def complete(value: Any, path: Path | None, executor: ExecutionContext) -> Any:
        if value is None or value is Undefined:
            raise GiveUp
        return run(value, path, executor)

    return complete


def object_of(type_: GraphQLObjectType, fields: tuple[tuple[str, Run, bool], ...]) -> Run:
    is_type_of = type_.is_type_of
    name = type_.name

    def complete(value: Any, path: Path | None, executor: ExecutionContext) -> Any:
        if is_type_of is not None and not is_type_of(value, cast(Any, None)):  # info unread
            raise GiveUp
        result: dict[str, Any] = {}
        pending: list[str] | None = None
        try:
            for key, run, pathed in fields:
                done = run(value, Path(path, key, name) if pathed else None, executor)
                result[key] = done
                if optimized_is_awaitable(done):
                    if pending is None:
                        pending = []
                    pending.append(key)
        except BaseException:
            close_all(result[key] for key in pending or ())
            raise
        if pending is None:
            return result
        return Pending(lambda: _gathered_object(result, pending), [result[key] for key in pending])

    return complete


async def _gathered_object(result: dict[str, Any], pending: list[str]) -> dict[str, Any]:
    if len(pending) == 1:
        result[pending[0]] = await result[pending[0]]
        return result
    done = await gather_with_cancel(*(result[key] for key in pending))
    result.update(zip(pending, done, strict=True))
    return result


def _gathered_list(items: list[Any]) -> Any:
    waiting = [i for i, item in enumerate(items) if optimized_is_awaitable(item)]
    if not waiting:
        return items

    async def later() -> list[Any]:
        done = await gather_with_cancel(*(items[i] for i in waiting))
        for i, value in zip(waiting, done, strict=True):
            items[i] = value
        return items

    return Pending(later, [items[i] for i in waiting])


def close_all(awaitables: Any) -> None:
    """Coroutines never to be awaited, closed (no warning, nothing left running)."""
    for awaitable in awaitables:
        if iscoroutine(awaitable) or isinstance(awaitable, Pending):
            awaitable.close()
