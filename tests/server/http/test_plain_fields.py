"""`PlainFieldExecutor` answers exactly as Strawberry's own executor: values, nulls, errors
and their paths, for plain leaves and for the fields it leaves to graphql-core."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

import strawberry
from graphql import GraphQLObjectType
from strawberry.schema.schema import StrawberryGraphQLCoreExecutionContext

from server.http.plain_fields import PlainFieldExecutor, plan_of


@strawberry.enum
class Color(Enum):
    RED = "RED"
    BLUE = "BLUE"


@strawberry.type
class Item:
    index: int
    name: str | None
    color: Color
    score: float | None
    flag: bool

    @strawberry.field
    def doubled(self) -> int:
        return 2 * self.index

    @strawberry.field
    async def later(self) -> int:
        return self.index


@dataclass
class Odd:
    """A source whose attributes are not what the type says."""

    index: Any
    name: Any
    color: Any
    score: Any
    flag: Any


class Broken:
    @property
    def index(self) -> int:
        raise ValueError("unreadable")

    name = None
    color = Color.RED
    score = 1.0
    flag = True


SOURCES: list[Any] = [
    Item(index=1, name="a", color=Color.RED, score=0.5, flag=True),
    Item(index=2, name=None, color=Color.BLUE, score=None, flag=False),
    Odd(index=None, name="b", color=Color.RED, score=1, flag=True),  # null for Int!
    Odd(index="x", name=3, color="GREEN", score="nan?", flag=0),  # coercions
    Odd(index=True, name=True, color=Color.BLUE, score=2, flag=1),
    Broken(),
]


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


QUERIES = [
    "{ items { index name color score flag doubled later } }",
    *(f"{{ one(at: {at}) {{ name color score flag index doubled }} }}" for at in range(6)),
    "{ a: one(at: 0) { x: index y: index name } b: one(at: 3) { name } }",
]


async def test_answers_match_strawberrys_executor() -> None:
    plain, own = _schema(PlainFieldExecutor), _schema(StrawberryGraphQLCoreExecutionContext)
    for query in QUERIES:
        mine, theirs = await plain.execute(query), await own.execute(query)
        assert mine.data == theirs.data, query
        assert [e.formatted for e in mine.errors or []] == [
            e.formatted for e in theirs.errors or []
        ], query


def test_only_basic_leaves_are_planned() -> None:
    schema = _schema(PlainFieldExecutor)._schema
    item, query = schema.get_type("Item"), schema.query_type
    assert isinstance(item, GraphQLObjectType) and query is not None
    planned = {name for name in item.fields if plan_of(schema, item, name) is not None}
    assert planned == {"index", "name", "color", "score", "flag"}
    assert plan_of(schema, query, "items") is None
    assert plan_of(schema, query, "one") is None
