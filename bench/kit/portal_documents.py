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
        if key == "kind":
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
