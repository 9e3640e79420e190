"""Every ID argument of every query and mutation, given another workspace's id: NOT_FOUND.

The arguments come from the schema itself, so a new one is walked without editing this file;
an argument whose kind of object cannot be told from its name or its field's type fails the
test until `ARGUMENT_KINDS` or `RETURN_KINDS` says what it takes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from graphql import (
    GraphQLArgument,
    GraphQLEnumType,
    GraphQLField,
    GraphQLList,
    GraphQLNonNull,
    GraphQLObjectType,
    GraphQLScalarType,
    GraphQLType,
    Undefined,
    get_named_type,
)

from bench.kit.factories import make_workspace
from bench.kit.harness import Backend
from server.api.schema import build_schema
from server.settings import Settings
from tests.server.foreign_world import build_world

ARGUMENT_KINDS = {
    "memberId": "member",
    "actorId": "member",
    "datasetId": "dataset",
    "versionId": "dataset_version",
    "experimentId": "experiment",
    "runId": "run",
    "candidateRunId": "run",
    "baselineRunId": "run",
    "rubricVersionId": "rubric_version",
    "judgeModelConfigVersionId": "model_config_version",
    "comparisonId": "comparison",
    "reportId": "report",
    "deliveryId": "webhook_delivery",
    "ids": "follow_up",
    "targetId": "comparison",
    "traceId": "trace",
    "assetId": "asset",
}
"""What an argument named so takes, whatever its field."""

RETURN_KINDS = {
    "Dataset": "dataset",
    "DatasetVersion": "dataset_version",
    "Experiment": "experiment",
    "Comparison": "comparison",
    "ComparisonProgress": "comparison",
    "ComparisonPreview": "comparison",
    "Run": "run",
    "PairwiseJob": "pairwise_job",
    "Report": "report",
    "ReportLink": "report",
    "ApiToken": "token",
    "ModelConnection": "connection",
    "FollowUp": "follow_up",
    "Trace": "trace",
    "LiveComparison": "live_comparison",
}
"""What an `id` argument takes: the object its field answers with."""

POLYMORPHIC = {"exportLink", "stopPlaygroundRun"}
"""Fields whose `id` is what another argument says (`target`), or an object no world can hold
(a Playground run lives in its API process): their own tests probe another workspace's ids
(tests/server/exports/test_exports.py, tests/server/playground/test_run.py)."""

FILTERS = {("auditEvents", "actorId"), ("auditEvents", "targetId")}
"""Arguments that narrow a list: another workspace's id matches nothing (an empty page)."""

PLACEHOLDERS: dict[str, Any] = {
    "url": "http://127.0.0.1:9/hook",
    "secret": "whsec-test-0123456789abcdef",
    "cases": [{"datasetItemId": "q-1", "input": "What is 1 + 1?", "split": "DEV"}],
    "items": [],
    "expiresInHours": 1,
    "settings": {},
}
"""Values for required arguments that are not ids, where the type's default would not pass."""


@dataclass(frozen=True)
class Argument:
    operation: str  # "query" | "mutation"
    field: str
    name: str
    kind: str
    ids: tuple[tuple[str, str, GraphQLArgument], ...]  # every ID argument: (name, kind, arg)
    others: tuple[tuple[str, GraphQLArgument], ...]  # required arguments that are not ids
    scalar_result: bool


def _kind(field: GraphQLField, argument: str) -> str | None:
    if argument in ARGUMENT_KINDS:
        return ARGUMENT_KINDS[argument]
    if argument == "id":
        return RETURN_KINDS.get(get_named_type(field.type).name)
    return None


def _id_arguments() -> tuple[list[Argument], list[str]]:
    """Every ID argument of every query and mutation field, and those of no known kind."""
    found: list[Argument] = []
    unknown: list[str] = []
    gql = build_schema(Settings())._schema
    for operation, root in (("query", gql.query_type), ("mutation", gql.mutation_type)):
        assert root is not None
        for field_name, field in root.fields.items():
            if field_name in POLYMORPHIC:
                continue
            ids = []
            for name, arg in field.args.items():
                if get_named_type(arg.type).name != "ID":
                    continue
                kind = _kind(field, name)
                if kind is None:
                    unknown.append(f"{field_name}({name})")
                else:
                    ids.append((name, kind, arg))
            others = tuple(
                (name, arg)
                for name, arg in field.args.items()
                if get_named_type(arg.type).name != "ID"
                and isinstance(arg.type, GraphQLNonNull)
                and arg.default_value is Undefined
            )
            scalar = not isinstance(get_named_type(field.type), GraphQLObjectType)
            for name, kind, _ in ids:
                found.append(
                    Argument(operation, field_name, name, kind, tuple(ids), others, scalar)
                )
    return found, unknown


def _placeholder(name: str, type_: GraphQLType) -> Any:
    if name in PLACEHOLDERS:
        return PLACEHOLDERS[name]
    if isinstance(type_, GraphQLNonNull):
        return _placeholder(name, type_.of_type)
    if isinstance(type_, GraphQLList):
        return [_placeholder(name, type_.of_type)]
    if isinstance(type_, GraphQLEnumType):
        return next(iter(type_.values))
    assert isinstance(type_, GraphQLScalarType), f"no placeholder for {name}: {type_}"
    return {"String": "n", "Int": 1, "Float": 1.0, "Boolean": False}.get(type_.name, "n")


def _value(arg: GraphQLArgument, object_id: str) -> Any:
    list_type = arg.type.of_type if isinstance(arg.type, GraphQLNonNull) else arg.type
    return [object_id] if isinstance(list_type, GraphQLList) else object_id


def _request(
    argument: Argument, mine: dict[str, list[str]], theirs: dict[str, list[str]]
) -> tuple[str, dict[str, Any]]:
    """The document and variables: this argument another workspace's, every other one ours
    (the n-th argument of a kind takes the n-th object of that kind)."""
    variables: dict[str, Any] = {}
    declared: list[str] = []
    passed: list[str] = []
    used: dict[str, int] = {}
    for name, kind, arg in argument.ids:
        source = theirs if name == argument.name else mine
        nth = used.get(kind, 0)
        used[kind] = nth + 1
        variables[name] = _value(arg, source[kind][nth])
        declared.append(f"${name}: {arg.type}")
        passed.append(f"{name}: ${name}")
    for name, arg in argument.others:
        variables[name] = _placeholder(name, arg.type)
        declared.append(f"${name}: {arg.type}")
        passed.append(f"{name}: ${name}")
    selection = "" if argument.scalar_result else " { __typename }"
    document = (
        f"{argument.operation}({', '.join(declared)}) "
        f"{{ {argument.field}({', '.join(passed)}){selection} }}"
    )
    return document, variables


def test_every_id_argument_has_a_known_kind() -> None:
    arguments, unknown = _id_arguments()
    assert unknown == [], "say what these take in ARGUMENT_KINDS or RETURN_KINDS"
    assert len({(a.field, a.name) for a in arguments}) >= 40


async def test_another_workspaces_ids_are_not_found_naming_the_argument(
    backend: Backend,
) -> None:
    mine_ws = await make_workspace(backend.sessionmaker, name="mine")
    theirs_ws = await make_workspace(backend.sessionmaker, name="theirs")
    mine = (await build_world(backend, mine_ws)).ids
    theirs = (await build_world(backend, theirs_ws)).ids
    arguments, _ = _id_arguments()
    wrong: list[str] = []
    for argument in arguments:
        document, variables = _request(argument, mine, theirs)
        result = await backend.gql(document, variables, token=mine_ws.owner)
        where = f"{argument.field}({argument.name})"
        if (argument.field, argument.name) in FILTERS:
            if result.errors or result.data[argument.field]["__typename"] is None:
                wrong.append(f"{where}: {result.errors}")
            continue
        fields = [e.get("extensions", {}).get("field") for e in result.errors]
        if result.codes != ["NOT_FOUND"]:
            wrong.append(f"{where}: {result.codes} {[e.get('message') for e in result.errors]}")
        elif fields[0] not in (None, argument.name) or (
            len(argument.ids) > 1 and fields[0] != argument.name
        ):
            wrong.append(f"{where}: names {fields[0]!r}")
    assert wrong == [], "\n".join(wrong)
