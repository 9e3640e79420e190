"""`PlainFieldExecutor` answers exactly as Strawberry's own executor: values, nulls, errors
and their paths, for plain leaves and for the fields it leaves to graphql-core."""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from enum import Enum
from inspect import CORO_CLOSED, getcoroutinestate, isawaitable
from typing import Any, cast

import pytest
import strawberry
from cachetools import LRUCache
from graphql import execute, parse
from strawberry.execution.is_awaitable import optimized_is_awaitable
from strawberry.extensions import FieldExtension
from strawberry.schema.schema import StrawberryGraphQLCoreExecutionContext

from server.api.http import plain_fields
from server.api.http.plain_fields import PlainFieldExecutor


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


def _schema(executor: type[StrawberryGraphQLCoreExecutionContext]) -> strawberry.Schema:
    return strawberry.Schema(query=Query, execution_context_class=executor)


ALL = "index name color score flag doubled tags { label weight } maybe { label } counts"
RESOLVED = "doubled where loaded parentLabel"
QUERIES = [
    "{ items { index name color score flag doubled later } }",
    "{ items { name tags { label } } }",
    f"{{ items {{ index {RESOLVED} }} }}",
    "{ items { name x: where guarded } }",
    *(f"{{ one(at: {at}) {{ {RESOLVED} }} }}" for at in range(len(SOURCES))),
    *(f"{{ one(at: {at}) {{ {ALL} }} }}" for at in range(len(SOURCES))),
    *(f"{{ one(at: {at}) {{ tags {{ weight label }} counts }} }}" for at in range(len(SOURCES))),
    "{ a: one(at: 0) { x: index y: index name } b: one(at: 3) { name } }",
    "{ one(at: 0) { tags { label @skip(if: true) weight } maybe { ... on Tag { label } } } }",
]


async def test_answers_match_strawberrys_executor() -> None:
    plain, own = _schema(PlainFieldExecutor), _schema(StrawberryGraphQLCoreExecutionContext)
    for query in QUERIES:
        context = {"who": "caller"}
        mine = await plain.execute(query, context_value=context)
        theirs = await own.execute(query, context_value=context)
        assert mine.data == theirs.data, query
        assert all(getcoroutinestate(c) == CORO_CLOSED for c in STARTED), query
        assert [e.formatted for e in mine.errors or []] == [
            e.formatted for e in theirs.errors or []
        ], query


def test_plain_selections_take_the_short_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """Plain fields — leaves, sync resolvers without arguments, plain objects and lists —
    never reach graphql-core's field path; an async field, and the fields beside it, do."""
    seen: list[str] = []
    own = StrawberryGraphQLCoreExecutionContext.execute_field

    def execute_field(self: Any, parent_type: Any, source: Any, details: Any, *rest: Any) -> Any:
        seen.append(f"{parent_type.name}.{details[0].node.name.value}")
        return own(self, parent_type, source, details, *rest)

    monkeypatch.setattr(StrawberryGraphQLCoreExecutionContext, "execute_field", execute_field)
    schema = _schema(PlainFieldExecutor)
    plain = "index doubled where tags { label weight } maybe { label } counts"
    result = schema.execute_sync(f"{{ one(at: 0) {{ {plain} }} }}", context_value={"who": "me"})
    assert result.errors is None
    assert seen == ["Query.one"]
    assert result.data is not None and result.data["one"]["where"] == "['one', 'where'] me where"
    seen.clear()
    result = schema.execute_sync("{ one(at: 0) { index guarded tags { label } } }")
    assert result.errors is None
    assert seen == ["Query.one", "Item.guarded"]


SHARED_DOCUMENTS: list[tuple[str, list[dict[str, Any]]]] = [
    ("query($at: Int!) { one(at: $at) { index where tags { label } } }", [{"at": 0}, {"at": 1}]),
    (
        "query($at: Int!, $show: Boolean!) { one(at: $at) { index ...More @include(if: $show) } }"
        " fragment More on Item { name doubled tags { label } }",
        [{"at": 0, "show": True}, {"at": 0, "show": False}, {"at": 1, "show": True}],
    ),
    (
        "query($show: Boolean!) { items { index ... on Item @skip(if: $show) { name } } }",
        [{"show": True}, {"show": False}],
    ),
]


def test_one_parsed_document_answers_each_operation_as_strawberry_does() -> None:
    """A document parsed once and run again (as the document cache does) answers each run
    with its own variables, directives on fragments included."""
    plain, own = _schema(PlainFieldExecutor), _schema(StrawberryGraphQLCoreExecutionContext)
    for text, runs in SHARED_DOCUMENTS:
        document = parse(text)
        for variables in runs:
            answers = [
                execute(
                    schema._schema,
                    document,
                    variable_values=variables,
                    context_value={"who": "caller"},
                    executor_class=schema.execution_context_class,
                    is_awaitable=cast(Any, optimized_is_awaitable),  # Strawberry passes it
                )
                for schema in (plain, own)
            ]
            mine, theirs = answers
            assert not isawaitable(mine) and not isawaitable(theirs)
            assert mine.data == theirs.data, (text, variables)
            assert mine.errors == theirs.errors, (text, variables)


def test_kept_plans_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """Past `MAX_SHARED_PLANS` (3 here) the least recently used plans go; answers stay right."""
    monkeypatch.setattr(plain_fields, "_shared", LRUCache(maxsize=3))
    plain, own = _schema(PlainFieldExecutor), _schema(StrawberryGraphQLCoreExecutionContext)
    for at in range(4):
        document = parse(f"{{ one(at: {at}) {{ index doubled tags {{ label }} }} }}")
        for _ in range(2):
            mine, theirs = (
                execute(schema._schema, document, executor_class=schema.execution_context_class)
                for schema in (plain, own)
            )
            assert not isawaitable(mine) and not isawaitable(theirs)
            assert (mine.data, mine.errors) == (theirs.data, theirs.errors)
        assert len(plain_fields._shared) == 3
