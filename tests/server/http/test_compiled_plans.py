"""A compiled document (`server.api.http.compiled_documents`, planned by `compiled_plans`)
answers exactly as Strawberry's own executor, or not at all: wherever Strawberry answers
with an error (a null for a non-null field, a value its type refuses, a resolver raising),
the compiled answer is None and the schema answers instead; and what a plan cannot cover
(directives, abstract types, introspection) is never compiled."""

from __future__ import annotations

import json
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from enum import Enum
from inspect import CORO_CLOSED, getcoroutinestate
from typing import Any, cast

import pytest
import strawberry
from strawberry.extensions import FieldExtension

from server.api.http.compiled_documents import compile_document, execute
from server.settings import Settings


@strawberry.enum
class Color(Enum):
    RED = "RED"
    BLUE = "BLUE"


class Tripled(FieldExtension):
    """A field extension: the field is Strawberry's to resolve, not plain."""

    def resolve(
        self, next_: Callable[..., Any], source: Any, info: strawberry.Info, **kwargs: Any
    ) -> Any:
        return 3 * next_(source, info, **kwargs)


@strawberry.type
class Tag:
    label: str
    weight: float | None


STARTED: list[Coroutine[Any, Any, int]] = []
"""Each coroutine `Item.loaded` returned: each must end awaited or closed."""


@strawberry.type
class Item:
    index: int
    name: str | None
    color: Color
    score: float | None
    flag: bool
    tags: list[Tag]
    maybe: Tag | None
    counts: list[int | None] | None

    @strawberry.field
    def doubled(self) -> int:
        return 2 * self.index

    @strawberry.field
    async def later(self) -> int:
        return self.index

    @strawberry.field
    def where(self, info: strawberry.Info) -> str:
        """Its path and the request's context, as a resolver called directly must see them."""
        return f"{info.path.as_list()} {info.context['who']} {info.field_name}"

    @strawberry.field
    def loaded(self) -> int:
        """Read beforehand (an int index) or still to be awaited (any other)."""
        if type(self.index) is int:
            return self.index

        async def load() -> int:
            return 7

        STARTED.append(load())
        return cast(int, STARTED[-1])

    @strawberry.field
    def parent_label(self, parent: strawberry.Parent[Item]) -> str | None:
        return parent.name if parent is self else "not the source"

    guarded: int = strawberry.field(resolver=lambda: 1, extensions=[Tripled()])


@dataclass
class Odd:
    """A source whose attributes are not what the type says."""

    index: Any
    name: Any
    color: Any
    score: Any
    flag: Any
    tags: Any = ()
    maybe: Any = None
    counts: Any = None


class Broken:
    @property
    def index(self) -> int:
        raise ValueError("unreadable")

    name = None
    color = Color.RED
    score = 1.0
    flag = True
    tags: list[Tag] = []
    maybe = None
    counts = None


def _tags(*weights: float | None) -> list[Tag]:
    return [Tag(label=f"t{i}", weight=w) for i, w in enumerate(weights)]


SOURCES: list[Any] = [
    Item(
        index=1,
        name="a",
        color=Color.RED,
        score=0.5,
        flag=True,
        tags=_tags(1.0, None),
        maybe=Tag(label="m", weight=2.0),
        counts=[1, None, 3],
    ),
    Item(
        index=2,
        name=None,
        color=Color.BLUE,
        score=None,
        flag=False,
        tags=[],
        maybe=None,
        counts=None,
    ),
    Odd(index=None, name="b", color=Color.RED, score=1, flag=True),  # null for Int!
    Odd(index="x", name=3, color="GREEN", score="nan?", flag=0),  # coercions
    Odd(index=True, name=True, color=Color.BLUE, score=2, flag=1, tags=(Tag(label="x", weight=1),)),
    Broken(),
    Odd(1, "c", Color.RED, 1.0, True, tags=[Tag(label="a", weight=1), None]),  # null in [Tag!]!
    Odd(1, "d", Color.RED, 1.0, True, tags=[Odd(*"abcde")], maybe=Odd(None, *"bcde")),
    Odd(1, "e", Color.RED, 1.0, True, tags=None, counts=("1", 2.5)),  # null for a list
    Odd(1, "f", Color.RED, 1.0, True, tags=[Broken()], counts=[object()]),
]
"""Items as the types say, then sources graphql-core would complete, refuse or fail on."""


@strawberry.type
class Query:
    @strawberry.field
    def items(self) -> list[Item]:
        return SOURCES

    @strawberry.field
    def one(self, at: int) -> Item | None:
        found: Item | None = SOURCES[at]
        return found


SCHEMA = strawberry.Schema(query=Query)

ALL = "index name color score flag doubled tags { label weight } maybe { label } counts"
RESOLVED = "doubled where loaded parentLabel"
QUERIES = [
    "{ items { index name color score flag doubled later } }",
    "{ items { name tags { label } } }",
    f"{{ items {{ index {RESOLVED} }} }}",
    "{ items { name x: where guarded __typename } }",
    *(f"{{ one(at: {at}) {{ {RESOLVED} }} }}" for at in range(len(SOURCES))),
    *(f"{{ one(at: {at}) {{ {ALL} }} }}" for at in range(len(SOURCES))),
    *(f"{{ one(at: {at}) {{ tags {{ weight label }} counts }} }}" for at in range(len(SOURCES))),
    "{ a: one(at: 0) { x: index y: index name } b: one(at: 3) { name } }",
    "{ one(at: 0) { ...Named tags { ... on Tag { label } } } } fragment Named on Item { name }",
    "query($at: Int!) { one(at: $at) { index where later tags { label } } }",
]


async def _both(query: str, variables: dict[str, Any] | None = None) -> tuple[Any, Any]:
    """(the compiled answer or None, Strawberry's answer) of one query."""
    compiled = compile_document(SCHEMA, query, Settings())
    assert compiled is not None, query
    context = {"who": "caller"}
    mine = await execute(SCHEMA, compiled, context, variables or {})
    theirs = await SCHEMA.execute(query, variable_values=variables, context_value=context)
    return mine, theirs


async def test_a_compiled_answer_is_strawberrys_or_none() -> None:
    answered = 0
    for query in QUERIES:
        mine, theirs = await _both(query, {"at": 0} if "$at" in query else None)
        assert all(getcoroutinestate(c) == CORO_CLOSED for c in STARTED), query
        if theirs.errors:
            assert mine is None, query
            continue
        assert mine is not None, query
        assert json.dumps(mine.data) == json.dumps(theirs.data), query  # key order too
        answered += 1
    assert answered >= 12  # the plain ones, and async fields, arguments, fragments


async def test_variables_the_schema_refuses_leave_the_answer_to_it() -> None:
    query = "query($at: Int!) { one(at: $at) { index } }"
    for variables in ({"at": "0"}, {}, {"at": 2**40}):
        mine, theirs = await _both(query, variables)
        assert mine is None and theirs.errors, variables
    mine, theirs = await _both(query, {"at": 1})
    assert mine is not None and mine.data == theirs.data == {"one": {"index": 2}}


@pytest.mark.parametrize(
    "query",
    [
        "{ one(at: 0) { tags { label @skip(if: true) weight } } }",
        "{ __schema { queryType { name } } }",
        "mutation { nothing }",
        "{ one(at: 0) { nope } }",
        "{ a: items { index } } { b: items { index } }",
    ],
)
def test_what_a_plan_does_not_cover_is_not_compiled(query: str) -> None:
    assert compile_document(SCHEMA, query, Settings()) is None


def test_a_document_past_the_limits_is_not_compiled() -> None:
    deep = "{ one(at: 0) { maybe { label } } }"
    assert compile_document(SCHEMA, deep, Settings()) is not None
    assert compile_document(SCHEMA, deep, Settings(max_query_depth=1)) is None
    assert compile_document(SCHEMA, deep, Settings(max_query_tokens=5)) is None


async def test_a_document_answers_each_request_with_its_own_variables_and_context() -> None:
    """The executor kept from a document's first request serves the next ones with theirs
    (`compiled_documents._executor`): paths, context and arguments are each request's."""
    query = "query($at: Int!) { one(at: $at) { index where tags { label } } }"
    compiled = compile_document(SCHEMA, query, Settings())
    assert compiled is not None
    for at, who in ((0, "first"), (1, "second"), (0, "third")):
        context = {"who": who}
        mine = await execute(SCHEMA, compiled, context, {"at": at})
        theirs = await SCHEMA.execute(query, variable_values={"at": at}, context_value=context)
        assert mine is not None and theirs.errors is None
        assert json.dumps(mine.data) == json.dumps(theirs.data) and who in json.dumps(mine.data)
    assert await execute(SCHEMA, compiled, {"who": "x"}, {"at": "0"}) is None  # refused
