"""The API only grows (docs/graphql.md "The API only grows"): no breaking change from the
schema as last released (`docs/released-schema.graphql`) to the code's, the names the contract
published answer, and the portal, the CLI and the SDK use no deprecated name."""

from __future__ import annotations

import asyncio
import importlib
import json
import pkgutil
from pathlib import Path
from typing import Any, cast

import pytest
import shipwise
from graphql import (
    DocumentNode,
    GraphQLArgument,
    GraphQLEnumType,
    GraphQLObjectType,
    GraphQLSchema,
    NoDeprecatedCustomRule,
    build_schema,
    find_breaking_changes,
    find_dangerous_changes,
    parse,
    print_ast,
    validate,
)
from graphql.error import GraphQLSyntaxError
from shipwise import api as sdk_api
from shipwise.transport import Transport

import server.cli
from server.api.schema import export_sdl

ROOT = Path(__file__).resolve().parents[1]
RELEASED = ROOT / "docs" / "released-schema.graphql"
PERSISTED = ROOT / "web" / "src" / "gql" / "persisted-documents.json"


@pytest.fixture(scope="module")
def schema() -> GraphQLSchema:
    return build_schema(export_sdl())


def test_no_breaking_change_since_the_release(schema: GraphQLSchema) -> None:
    released = build_schema(RELEASED.read_text())
    breaking = [f"{c.type.name}: {c.description}" for c in find_breaking_changes(released, schema)]
    dangerous = [
        f"{c.type.name}: {c.description}" for c in find_dangerous_changes(released, schema)
    ]
    print("dangerous changes since the release:", *dangerous or ["none"], sep="\n  ")  # noqa: T201 - listed in the output, as docs/graphql.md says
    assert breaking == [], (
        "the API only grows: add beside the published name and deprecate it "
        "(docs/graphql.md)\n" + "\n".join(breaking)
    )


def _values(schema: GraphQLSchema, enum: str) -> set[str]:
    kind = schema.get_type(enum)
    assert isinstance(kind, GraphQLEnumType), f"{enum} is not an enum of the schema"
    return set(kind.values)


def _field_type(schema: GraphQLSchema, owner: str, field: str) -> str:
    kind = schema.get_type(owner)
    assert isinstance(kind, GraphQLObjectType)
    return str(kind.fields[field].type)


def test_the_names_spec_3_and_seed_001_published_are_there(schema: GraphQLSchema) -> None:
    assert {"REGRESSIONS", "IMPROVEMENTS", "DIVERGED", "ALL"} <= _values(schema, "CaseFilter")
    assert _values(schema, "DiffCaseFilter") == {"ALL", "REGRESSED", "IMPROVED", "CHANGED"}
    assert {"REGRESSED", "IMPROVED", "UNCHANGED", "ADDED", "REMOVED"} <= _values(
        schema, "DiffCaseStatus"
    )
    assert _values(schema, "EvaluatorStatus") == {"REGRESSED", "IMPROVED", "UNCHANGED"}
    assert _values(schema, "VerdictOutcome") == {
        "REGRESSED", "IMPROVED", "NO_CHANGE", "NO_VERDICT",
    }  # fmt: skip
    assert _field_type(schema, "BaselineVerdict", "outcome") == "VerdictOutcome!"
    assert _field_type(schema, "DiffCaseEvaluator", "status") == "EvaluatorStatus!"
    assert _field_type(schema, "RunDiffSummary", "unchangedCount") == "Int!"
    run_diff = schema.get_type("RunDiff")
    assert isinstance(run_diff, GraphQLObjectType)
    status = run_diff.fields["cases"].args["status"]
    assert (str(status.type), _default(status)) == ("DiffCaseFilter!", "ALL")
    comparison = schema.get_type("Comparison")
    assert isinstance(comparison, GraphQLObjectType)
    assert _default(comparison.fields["cases"].args["filter"]) == "REGRESSIONS"


def _default(argument: GraphQLArgument) -> str:
    assert argument.ast_node is not None and argument.ast_node.default_value is not None
    return print_ast(argument.ast_node.default_value)


def _deprecated_uses(schema: GraphQLSchema, document: DocumentNode) -> list[str]:
    return [e.message for e in validate(schema, document, [NoDeprecatedCustomRule])]


def _documents_in(package: Any) -> list[tuple[str, DocumentNode]]:
    """Every module-level string of `package`'s modules that is a GraphQL operation."""
    found: list[tuple[str, DocumentNode]] = []
    modules = [package.__name__] + [
        m.name
        for m in pkgutil.walk_packages(package.__path__, package.__name__ + ".")
        if not m.name.endswith(".__main__")  # importing it runs the command
    ]
    for name in modules:
        module = importlib.import_module(name)
        for attribute, value in vars(module).items():
            if not isinstance(value, str):
                continue
            text = value.lstrip()
            if not text.startswith(("query", "mutation", "subscription")):
                continue
            try:
                found.append((f"{name}.{attribute}", parse(value)))
            except GraphQLSyntaxError:
                continue  # words that start with "query", not a document
    return found


class _Recording:
    """What the SDK asks, kept instead of sent."""

    def __init__(self) -> None:
        self.documents: list[str] = []

    async def execute(self, document: str, variables: dict[str, Any] | None = None) -> Any:  # noqa: ARG002
        self.documents.append(document)
        return {"runDiff": {}}


def test_the_portal_cli_and_sdk_use_no_deprecated_name(schema: GraphQLSchema) -> None:
    portal = [
        (f"portal {digest[:12]}", parse(text))
        for digest, text in json.loads(PERSISTED.read_text()).items()
    ]
    recording = _Recording()
    asyncio.run(
        sdk_api.run_diff(
            cast(Transport, recording), "c", "b", decision_selection=None, policy=None
        )
    )
    sdk_built = [("shipwise.api.run_diff", parse(d)) for d in recording.documents]
    documents = portal + _documents_in(server.cli) + _documents_in(shipwise) + sdk_built
    assert len(portal) > 40 and len(documents) > len(portal) + 20  # the search found them
    uses = {where: _deprecated_uses(schema, doc) for where, doc in documents}
    assert {where: found for where, found in uses.items() if found} == {}


def test_a_deprecated_use_is_seen(schema: GraphQLSchema) -> None:
    """The check above can fail: the names added after the release are deprecated."""
    document = parse(
        "query($c: ID!, $b: ID!) { runDiff(candidateRunId: $c, baselineRunId: $b) {"
        " summary { noChangeCount } cases(filter: CHANGED) { totalCount } } }"
    )
    assert len(_deprecated_uses(schema, document)) == 3
