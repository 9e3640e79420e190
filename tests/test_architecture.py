"""The shape of the code: imports point one way between packages (docs/architecture.md).

A unit is a package under `server/` (`server.dispatch`), a flat module there (`server.db`),
`jobs` or `stats`. An aggregate's GraphQL layer (its types, resolvers, mutations and
subscriptions) and the request's composition (`server.app`, `server.api.schema`,
`server.api.context`, `server.api.loaders`, `server.api.listing`, `server.models`), with
`server.api.direct_reads` (documents answered as the schema answers them), stand above every
service: they may import across aggregates (a type naming another aggregate's types or
resolvers, the Phoenix pattern), so their imports are not drawn. Every other import is an
arrow between units, and the arrows must not close a loop.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ("server", "jobs", "stats")
GRAPHQL_LAYER = {"types", "resolvers", "mutations", "subscription"}
COMPOSITION = {
    "server.app",
    "server.api.schema",
    "server.api.context",
    "server.api.loaders",
    "server.api.listing",
    "server.models",
}


@dataclass(frozen=True, slots=True)
class Arrow:
    source: str
    target: str
    where: str


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def unit_of(module: str) -> str:
    parts = module.split(".")
    return parts[0] if parts[0] != "server" else ".".join(parts[:2])


def in_graphql_layer(module: str) -> bool:
    leaf = module.rsplit(".", 1)[-1]
    package = ".".join(module.split(".")[:2])
    return (
        module in COMPOSITION
        or package == "server.api.direct_reads"  # answers documents as the schema would
        or leaf in GRAPHQL_LAYER
        or leaf.endswith("_types")
    )


def is_ours(module: str) -> bool:
    path = ROOT / module.replace(".", "/")
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def source_files() -> Iterator[Path]:
    for top in SOURCES:
        yield from sorted((ROOT / top).rglob("*.py"))


def imports_of(path: Path) -> Iterator[tuple[str, int, list[str]]]:
    """(module imported, line, names) for each absolute import of ours in `path`."""
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if is_ours(alias.name):
                    yield alias.name, node.lineno, []
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [a.name for a in node.names]
            for name in names:
                full = f"{node.module}.{name}"
                if is_ours(full):  # `from server.dispatch import store`
                    yield full, node.lineno, []
                elif is_ours(node.module):
                    yield node.module, node.lineno, [name]


@cache
def arrows() -> tuple[Arrow, ...]:
    found = []
    for path in source_files():
        module = module_name(path)
        if in_graphql_layer(module):
            continue
        for target, line, _ in imports_of(path):
            if unit_of(target) != unit_of(module):
                where = f"{path.relative_to(ROOT)}:{line} -> {target}"
                found.append(Arrow(unit_of(module), unit_of(target), where))
    return tuple(found)


def loops(edges: set[tuple[str, str]]) -> list[set[str]]:
    """Strongly connected components of more than one unit (Tarjan)."""
    graph: dict[str, set[str]] = {}
    for a, b in edges:
        graph.setdefault(a, set()).add(b)
        graph.setdefault(b, set())
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[set[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = set()
            while True:
                w = stack.pop()
                component.add(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(component)

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_no_loop_between_packages() -> None:
    edges = {(a.source, a.target) for a in arrows()}
    found = loops(edges)
    detail = [
        a.where
        for component in found
        for a in arrows()
        if a.source in component and a.target in component
    ]
    assert not found, "imports close a loop between packages:\n" + "\n".join(detail)


def test_a_loop_is_found_however_long() -> None:
    edges = {("a", "b"), ("b", "c"), ("c", "a"), ("c", "d"), ("e", "d"), ("d", "f"), ("f", "d")}
    assert sorted(sorted(c) for c in loops(edges)) == [["a", "b", "c"], ["d", "f"]]
    assert loops({("a", "b"), ("b", "c"), ("a", "c")}) == []


def test_nothing_below_imports_the_graphql_layer() -> None:
    upward = [
        f"{path.relative_to(ROOT)}:{line} -> {target}"
        for path in source_files()
        if not in_graphql_layer(module_name(path))
        and not module_name(path).startswith(("server.api.http", "server.cli", "jobs"))
        for target, line, _ in imports_of(path)
        if in_graphql_layer(target) and target not in ("server.api.context", "server.models")
    ]
    assert not upward, "\n".join(upward)


def test_stats_imports_nothing_of_ours_and_server_no_jobs() -> None:
    wrong = [
        a.where
        for a in arrows()
        if (a.source == "stats") or (a.source.startswith("server") and a.target == "jobs")
    ]
    allowed = {"server.cli", "server.runtime"}  # composition roots that wire the queue
    assert [w for w in wrong if not w.startswith(tuple(s.replace(".", "/") for s in allowed))] == []


def test_no_private_name_is_imported_from_another_module() -> None:
    private = [
        f"{path.relative_to(ROOT)}:{line} imports {name} from {target}"
        for top in (*SOURCES, "tests", "bench")
        for path in sorted((ROOT / top).rglob("*.py"))
        for target, line, names in imports_of(path)
        for name in names
        if name.startswith("_") and not name.startswith("__")
    ]
    assert not private, "\n".join(private)


def test_one_price_computation() -> None:
    """Prices (`*_per_million*`) enter arithmetic only in `server/providers/pricing.py`, whose
    `call_cost` every trial, judge call and bound goes through."""

    def priced(node: ast.expr) -> bool:
        name = node.attr if isinstance(node, ast.Attribute) else getattr(node, "id", "")
        return "per_million" in name

    found = [
        f"{path.relative_to(ROOT)}:{node.lineno}"
        for path in source_files()
        if path != ROOT / "server/providers/pricing.py"
        for node in ast.walk(ast.parse(path.read_text(), str(path)))
        if isinstance(node, ast.BinOp) and (priced(node.left) or priced(node.right))
    ]
    assert not found, "price arithmetic outside call_cost:\n" + "\n".join(found)
