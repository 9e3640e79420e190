"""Unexpected errors leave as a masked INTERNAL error; their text reaches no response or log."""

from __future__ import annotations

import logging
from collections.abc import AsyncGenerator

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


@strawberry.type
class _Subscription:
    @strawberry.subscription
    async def ticks(self) -> AsyncGenerator[int, None]:
        yield 1
        raise RuntimeError(SECRET)  # as a database error raised mid-stream


SCHEMA = ShipwiseSchema(
    query=merge_types("Query", (_Query,)), subscription=_Subscription, extensions=[CodedErrors]
)


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


async def test_an_error_raised_mid_subscription_is_internal_not_a_validation_error() -> None:
    """Strawberry reports an error the stream raised without a path, as it reports errors
    in the document: only those keep their text."""
    stream = await SCHEMA.subscribe("subscription { ticks }")
    results = [result async for result in stream]
    assert results[0].data == {"ticks": 1} and not results[0].errors
    (error,) = results[-1].errors or []
    assert error.message == "Internal error."
    assert error.extensions == {"code": "INTERNAL"}
    (refused,) = SCHEMA.execute_sync("{ nothing }").errors or []
    assert refused.extensions == {"code": "VALIDATION_FAILED"}
    assert "nothing" in refused.message
