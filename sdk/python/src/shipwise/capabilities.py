"""What the server's API offers, read once by introspection.

An SDK newer than its server still works: it sends `checks` only where `startRunImport`
takes them and asks `runDiff` for a `decision` only where the schema has one, selecting
the decision's fields that the server declares.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from shipwise.transport import Transport

TYPE_REF = "name kind ofType { name kind ofType { name kind ofType { name kind } } }"
ROOTS = (
    'query { m: __type(name: "Mutation") { fields { name args { name } } }'
    ' q: __type(name: "Query") { fields { name args { name } } }'
    ' t: __type(name: "RunTrial") { fields { name args { name } } }'
    ' d: __type(name: "RunDiff") { fields { name type { ' + TYPE_REF + " } } } }"
)
TYPE_FIELDS = (
    "query($name: String!) { __type(name: $name) { fields { name args { name } type { "
    + TYPE_REF
    + " } } } }"
)
LEAF_KINDS = frozenset({"SCALAR", "ENUM"})


@dataclass(frozen=True)
class Capabilities:
    import_checks: bool
    diff_policy: bool
    decision_selection: str | None
    """`decision { … }` with the fields the server declares, or None without decisions."""
    trajectories: bool = False
    """Run trials take a `trajectory` (and a `traceId`)."""


def _args(root: dict[str, Any] | None, field: str) -> set[str]:
    for found in (root or {}).get("fields") or []:
        if found["name"] == field:
            return {arg["name"] for arg in found.get("args") or []}
    return set()


def _named(type_ref: dict[str, Any]) -> tuple[str, str]:
    """The innermost (name, kind) under NON_NULL and LIST wrappers."""
    while type_ref.get("ofType"):
        type_ref = type_ref["ofType"]
    return str(type_ref.get("name")), str(type_ref.get("kind"))


async def _selection(transport: Transport, type_name: str, depth: int = 0) -> str:
    """Every argument-free leaf field of the type, and one level of object fields."""
    answer = await transport.execute(TYPE_FIELDS, {"name": type_name})
    parts: list[str] = []
    for found in (answer.get("__type") or {}).get("fields") or []:
        if found.get("args"):
            continue
        name, kind = _named(found["type"])
        if kind in LEAF_KINDS:
            parts.append(found["name"])
        elif kind == "OBJECT" and depth == 0:
            inner = await _selection(transport, name, depth + 1)
            if inner:
                parts.append(f"{found['name']} {{ {inner} }}")
    return " ".join(parts)


async def read(transport: Transport) -> Capabilities:
    roots = await transport.execute(ROOTS)
    decision = None
    for found in (roots.get("d") or {}).get("fields") or []:
        if found["name"] == "decision":
            selection = await _selection(transport, _named(found["type"])[0])
            decision = f"decision {{ {selection} }}" if selection else None
    return Capabilities(
        import_checks="checks" in _args(roots.get("m"), "startRunImport"),
        diff_policy="policy" in _args(roots.get("q"), "runDiff"),
        decision_selection=decision,
        trajectories=any(
            found["name"] == "trajectory" for found in (roots.get("t") or {}).get("fields") or []
        ),
    )
