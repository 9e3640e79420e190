"""Unexpected errors leave as a masked INTERNAL error; their text reaches no response or log."""

from __future__ import annotations

import logging

import pytest
import strawberry
from graphql.error import GraphQLError
from strawberry.tools import merge_types

from server.api.http.graphql_errors import CodedErrors, to_coded_error
from server.api.schema import ShipwiseSchema
from server.errors import NotFound

SECRET = "postgresql://admin:hunter2@db/prod SELECT * FROM api_token"


@strawberry.type
class _Query:
    @strawberry.field
    def explode(self) -> str:
        raise RuntimeError(SECRET)

    @strawberry.field
    def missing(self) -> str:
        raise NotFound("dataset not found")


SCHEMA = ShipwiseSchema(query=merge_types("Query", (_Query,)), extensions=[CodedErrors])


def test_an_unexpected_error_is_internal_and_its_text_is_not_logged(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.DEBUG):
        result = SCHEMA.execute_sync("{ explode }")
    assert result.errors is not None
    (error,) = result.errors
    assert error.message == "Internal error."
    assert error.extensions == {"code": "INTERNAL"}
    assert "hunter2" not in caplog.text
    assert any(getattr(r, "error_type", None) == "RuntimeError" for r in caplog.records)


def test_our_errors_keep_their_message_and_code() -> None:
    result = SCHEMA.execute_sync("{ missing }")
    assert result.errors is not None
    assert result.errors[0].message == "dataset not found"
    assert result.errors[0].extensions == {"code": "NOT_FOUND"}


def test_a_pathless_error_from_our_process_is_internal_and_masked() -> None:
    """A subscription's source failing (Redis gone, say) has no path: it is not the
    document's fault, so it is INTERNAL and its text stays here."""
    coded = to_coded_error(GraphQLError(SECRET, original_error=ConnectionError(SECRET)))
    assert (coded.message, coded.extensions) == ("Internal error.", {"code": "INTERNAL"})


def test_a_variable_that_does_not_coerce_is_the_documents_fault() -> None:
    result = SCHEMA.execute_sync(
        "query Q($n: Int!) { missing }", variable_values={"n": "not a number"}
    )
    assert result.errors is not None
    assert result.errors[0].extensions == {"code": "VALIDATION_FAILED"}
    assert "$n" in result.errors[0].message
