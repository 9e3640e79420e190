"""`Accept` negotiation and the status of an `application/graphql-response+json` answer."""

from __future__ import annotations

from typing import Any

import pytest

from server.api.http.media_type import GRAPHQL_RESPONSE, JSON, answer_status, negotiate

URQL = (
    "application/graphql-response+json, application/graphql+json, application/json, "
    "text/event-stream, multipart/mixed"
)
BROWSER = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"


@pytest.mark.parametrize(
    ("accept", "chosen"),
    [
        (None, JSON),
        ("", JSON),
        ("application/json", JSON),
        ("*/*", JSON),
        ("*", JSON),
        ("application/*", JSON),
        (BROWSER, JSON),
        ("application/json, multipart/mixed", JSON),  # GraphiQL's fetcher
        ("application/json, */*", JSON),
        (GRAPHQL_RESPONSE, GRAPHQL_RESPONSE),
        (f"{GRAPHQL_RESPONSE}; charset=utf-8", GRAPHQL_RESPONSE),
        ("Application/GraphQL-Response+JSON", GRAPHQL_RESPONSE),
        (f"{GRAPHQL_RESPONSE}, {JSON}", GRAPHQL_RESPONSE),  # graphql-http's client
        (f"{JSON}, {GRAPHQL_RESPONSE}", JSON),
        (f"{GRAPHQL_RESPONSE},{JSON};q=0.9", GRAPHQL_RESPONSE),  # Apollo Client
        (f"{JSON};q=0.9, {GRAPHQL_RESPONSE}", GRAPHQL_RESPONSE),
        (URQL, GRAPHQL_RESPONSE),
        (f"*/*, {JSON};q=0", GRAPHQL_RESPONSE),
        (f"*/*;q=0.5, {GRAPHQL_RESPONSE};q=0.4", JSON),
        (f"{GRAPHQL_RESPONSE};q=oops, {JSON};q=0.1", JSON),
        ("text/html", None),
        ("text/plain, image/*", None),
        (f"{JSON};q=0", None),
        ("application/graphql+json", None),
    ],
)
def test_the_highest_ranked_supported_type_is_chosen(accept: str | None, chosen: str) -> None:
    assert negotiate(accept) == chosen


def _error(code: str, **extra: Any) -> dict[str, Any]:
    return {"message": "m", "extensions": {"code": code}, **extra}


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({"data": {"me": None}}, 200),
        ({"data": {"me": None}, "errors": [_error("NOT_FOUND", path=["me"])]}, 200),
        ({"data": None, "errors": [_error("UNAUTHENTICATED", path=["me"])]}, 200),
        ({"data": None, "errors": [_error("VALIDATION_FAILED")]}, 400),
        ({"data": None, "errors": [_error("VALIDATION_FAILED"), _error("VALIDATION_FAILED")]}, 400),
        ({"data": None, "errors": [_error("INTERNAL")]}, 500),
        ({"data": None, "errors": [_error("VALIDATION_FAILED"), _error("INTERNAL")]}, 500),
    ],
)
def test_a_request_error_is_4xx_and_a_field_error_200(body: dict[str, Any], status: int) -> None:
    assert answer_status(body) == status
