"""The portal's own GraphQL documents, read from the generated `web/src/gql/graphql.ts`.

The client preset compiles each `graphql(...)` document (its fragments appended) to a
`DocumentNode` literal; urql sends `print(document)`. Here each literal is rebuilt as a
graphql-core AST and printed the same way, so a bench or a test sends exactly what the
portal sends and follows it when the portal changes.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

from graphql.language import ast, print_ast

GENERATED = Path(__file__).resolve().parents[2] / "web" / "src" / "gql" / "graphql.ts"
_CONSTANT = re.compile(
    r"^export const (\w+)Document = (\{.*\}) as unknown as DocumentNode<", re.MULTILINE
)


def _node(value: Any) -> Any:
    """graphql-js's JSON AST (camelCase kinds and keys) as graphql-core nodes."""
    if isinstance(value, list):
        return tuple(_node(item) for item in value)
    if not isinstance(value, dict):
        return value
    cls = getattr(ast, f"{value['kind']}Node")
    fields: dict[str, Any] = {}
    for key, item in value.items():
        if key in ("kind", "__meta__"):  # `__meta__`: the persisted hash
            continue
        name = re.sub(r"(?<!^)(?=[A-Z])", "_", key).lower()
        if name == "operation":
            item = ast.OperationType(item)
        fields[name] = _node(item)
    return cls(**fields)


@cache
def documents() -> dict[str, str]:
    """Every operation of the portal by its name (`ComparisonsList`, …), as sent."""
    found = {
        name: print_ast(_node(json.loads(literal)))
        for name, literal in _CONSTANT.findall(GENERATED.read_text())
    }
    if not found:
        raise SystemExit(f"no documents found in {GENERATED}")
    return found


def document(name: str) -> str:
    """The operation `name` with its fragments, as the portal sends it."""
    try:
        return documents()[name]
    except KeyError:
        raise SystemExit(f"the portal has no operation {name!r} in {GENERATED}") from None


PERSISTED = GENERATED.parent / "persisted-documents.json"


@cache
def persisted_hashes() -> dict[str, str]:
    """Each operation's persisted hash (hex) by its name, from the code generator's map."""
    found: dict[str, str] = {}
    for key, text in json.loads(PERSISTED.read_text()).items():
        match = re.search(r"\b(?:query|mutation|subscription)\s+(\w+)", text)
        if match:
            found[match.group(1)] = key.removeprefix("sha256:")
    return found


def persisted_body(name: str, variables: dict[str, Any] | None = None) -> dict[str, Any]:
    """The body the portal sends for the operation `name`: its hash, no text."""
    try:
        sha256 = persisted_hashes()[name]
    except KeyError:
        raise SystemExit(f"the portal has no persisted operation {name!r} in {PERSISTED}") from None
    return {
        "operationName": name,
        "variables": variables or {},
        "extensions": {"persistedQuery": {"version": 1, "sha256Hash": sha256}},
    }
