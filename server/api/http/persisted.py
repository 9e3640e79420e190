"""The portal's persisted documents: GraphQL Code Generator's map of each document's hash to
its text (`web/src/gql/persisted-documents.json`, the client preset's `persistedDocuments`),
loaded at start.

The portal sends a query as `extensions.persistedQuery.sha256Hash` and no text (urql leaves
the text out when the hash is there); a body naming a known hash runs that hash's document,
whatever text it also sends. The hash is also what a document's compiled plan is found by
(`server.api.http.compiled_documents`), never the text. A hash not in the map with no text
is refused (400, VALIDATION_FAILED): a portal from another build must be reloaded.
docs/graphql.md, "Persisted documents".
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from cross_web import HTTPException
from strawberry.http import GraphQLRequestData

logger = logging.getLogger("shipwise.persisted")

PREFIX = "sha256:"


def load(path: Path) -> dict[str, str]:
    """{hex hash: document text}; empty (logged) when the file is absent or unreadable."""
    try:
        found = json.loads(path.read_text())
    except (OSError, ValueError) as exc:
        logger.warning("no persisted documents", extra={"error_type": type(exc).__name__})
        return {}
    if not isinstance(found, dict):
        return {}
    return {
        key.removeprefix(PREFIX): text
        for key, text in found.items()
        if isinstance(key, str) and isinstance(text, str)
    }


def persisted_hash(extensions: Mapping[str, Any] | None) -> str | None:
    """`extensions.persistedQuery.sha256Hash` when it is a string."""
    wanted = (extensions or {}).get("persistedQuery")
    found = wanted.get("sha256Hash") if isinstance(wanted, dict) else None
    return found if isinstance(found, str) else None


def resolved(request: GraphQLRequestData, documents: Mapping[str, str]) -> GraphQLRequestData:
    """The request with its persisted document's text when it names a known hash; refused
    when it names an unknown one and sends no text."""
    found = persisted_hash(request.extensions)
    if found is None:
        return request
    text = documents.get(found)
    if text is not None:
        return GraphQLRequestData(
            query=text,
            variables=request.variables,
            operation_name=request.operation_name,
            extensions=request.extensions,
            protocol=request.protocol,
        )
    if request.query is None:
        raise HTTPException(400, "no persisted document has this hash: reload the portal")
    return request
