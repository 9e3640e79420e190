"""Unexpected errors leave as a masked INTERNAL error; their text reaches no response or log."""

from __future__ import annotations

import logging

import pytest
import strawberry
from strawberry.tools import merge_types

from server.api.http.graphql_errors import CodedErrors
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
