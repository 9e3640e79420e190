"""Reading a GraphQL request body: one JSON object, or a refusal the view answers in JSON.

Strawberry assumes a decoded body is an object (a string or `null` made it raise) and lets
`json.loads` recurse as deep as the body nests (100,000 arrays made it raise). Every
refusal here is an `HTTPException` with a 4xx status, which the view turns into a coded
GraphQL error.
"""

from __future__ import annotations

import json
from typing import Any

from cross_web import HTTPException
from strawberry.http import GraphQLRequestData

from server.api.http.persisted import persisted_hash

MAX_JSON_NESTING = 64
"""Deepest nesting of objects and arrays in a request body (a case's JSON may nest 32)."""


def decode_json(data: str | bytes) -> Any:
    """The JSON value of `data`, nested at most MAX_JSON_NESTING levels deep."""
    try:
        value = json.loads(data)
    except RecursionError:
        raise _too_deep() from None
    except ValueError:  # JSONDecodeError, and UnicodeDecodeError for bytes that are not text
        raise HTTPException(400, "the body (or its `variables`) is not valid JSON") from None
    _check_nesting(value)
    return value


def operation_from_body(data: Any) -> GraphQLRequestData:
    """The one operation of a decoded POST body: `{query, variables?, operationName?, …}`
    (the query may be left out when `extensions` names a persisted document)."""
    if isinstance(data, list):
        raise HTTPException(400, "batched operations are not supported: send one per request")
    if not isinstance(data, dict):
        raise HTTPException(400, "the request body must be a JSON object with a `query` string")
    for key in ("variables", "extensions"):
        if not isinstance(data.get(key), dict | None):
            raise HTTPException(400, f"`{key}` must be an object or null")
    query = data.get("query")
    if not isinstance(query, str) and not (
        query is None and persisted_hash(data.get("extensions"))
    ):
        raise HTTPException(400, "the request body must hold the operation as a `query` string")
    operation_name = data.get("operationName")
    if not isinstance(operation_name, str | None):
        raise HTTPException(400, "`operationName` must be a string or null")
    return GraphQLRequestData(
        query=query,
        variables=data.get("variables"),
        operation_name=operation_name,
        extensions=data.get("extensions"),
        protocol="http",
    )


def _check_nesting(value: Any) -> None:
    """Level by level, without recursion, so any nesting is measured safely."""
    level = [value] if type(value) is dict or type(value) is list else []
    for _ in range(MAX_JSON_NESTING):
        if not level:
            return
        children: list[Any] = []
        for item in level:
            values = item.values() if type(item) is dict else item
            children.extend(v for v in values if type(v) is dict or type(v) is list)
        level = children
    if level:
        raise _too_deep()


def _too_deep() -> HTTPException:
    return HTTPException(
        400, f"the request body nests objects and arrays deeper than {MAX_JSON_NESTING} levels"
    )
