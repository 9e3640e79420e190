"""The shape of the code: imports point one way, with no exemption (docs/architecture.md).

A unit is a package under `server/` (`server.dispatch`) or under the GraphQL layer
`server/api/` (`server.api.comparisons`), a flat module there (`server.db`,
`server.api.context`), `jobs` or `stats`. Every import of ours is read:
at module level, under `if TYPE_CHECKING` and inside functions. Between units the arrows
close no loop; between modules they close no circle. Nothing outside `server.api` imports
it, and nothing of `server` imports `jobs`, except the composition root `server.app`.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from server.db import Base
from server.dispatch.models import ComparisonRange
from server.spend.models import ConnectionSpend, ExperimentSpend

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ("server", "jobs", "stats")
API = "server.api"
COMPOSITION_ROOT = "server.app"
"""Builds the app from the API and the domain, and wires the queue (`jobs`): it alone may
import both `server.api` and `jobs`; `server.cli` reaches them through it, but for
`WORKER_ENTRY`."""
WORKER_ENTRY = ("server.cli.app", "jobs.main")
"""`shipwise worker` runs the worker's own entry point, `jobs.main`, and nothing else of `jobs`:
through `server.app` each worker's start imported the API's schema and routes (~2 s of CPU)."""


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
    if parts[0] != "server":
        return parts[0]
    return ".".join(parts[:3] if parts[1] == "api" else parts[:2])


def in_api(module: str) -> bool:
    return module == API or module.startswith(f"{API}.")


def is_ours(module: str) -> bool:
    path = ROOT / module.replace(".", "/")
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def source_files() -> Iterator[Path]:
    for top in SOURCES:
        yield from sorted((ROOT / top).rglob("*.py"))


def imports_in(tree: ast.AST) -> Iterator[tuple[str, int, list[str]]]:
    """(module imported, line, names) for each import of ours anywhere in `tree`."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if is_ours(alias.name):
                    yield alias.name, node.lineno, []
        elif isinstance(node, ast.ImportFrom) and node.module:
            assert node.level == 0, f"line {node.lineno}: a relative import"
            names = [a.name for a in node.names]
            for name in names:
                full = f"{node.module}.{name}"
                if is_ours(full):  # `from server.dispatch import store`
                    yield full, node.lineno, []
                elif is_ours(node.module):
                    yield node.module, node.lineno, [name]


def imports_of(path: Path) -> Iterator[tuple[str, int, list[str]]]:
    return imports_in(ast.parse(path.read_text(), str(path)))


@cache
def module_arrows() -> tuple[Arrow, ...]:
    return tuple(
        Arrow(module_name(path), target, f"{path.relative_to(ROOT)}:{line} -> {target}")
        for path in source_files()
        for target, line, _ in imports_of(path)
        if target != module_name(path)
    )


@cache
def arrows() -> tuple[Arrow, ...]:
    """The arrows between units."""
    return tuple(
        Arrow(unit_of(a.source), unit_of(a.target), a.where)
        for a in module_arrows()
        if unit_of(a.source) != unit_of(a.target)
    )


def loops(edges: set[tuple[str, str]]) -> list[set[str]]:
    """Strongly connected components of more than one node (Tarjan)."""
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


def closing(found: list[set[str]], among: tuple[Arrow, ...]) -> list[str]:
    return [
        a.where
        for component in found
        for a in among
        if a.source in component and a.target in component
    ]


def test_no_pair_of_units_imports_each_other() -> None:
    edges = {(a.source, a.target) for a in arrows()}
    pairs = sorted({tuple(sorted((a, b))) for a, b in edges if (b, a) in edges})
    assert pairs == []


def test_no_loop_between_units() -> None:
    found = loops({(a.source, a.target) for a in arrows()})
    detail = closing(found, arrows())
    assert not found, "imports close a loop between packages:\n" + "\n".join(detail)


def test_no_circle_between_modules() -> None:
    """Type-only imports (`if TYPE_CHECKING`) and imports inside functions count too."""
    found = loops({(a.source, a.target) for a in module_arrows()})
    detail = closing(found, module_arrows())
    assert not found, "imports close a circle between modules:\n" + "\n".join(detail)


def test_a_loop_is_found_however_long() -> None:
    edges = {("a", "b"), ("b", "c"), ("c", "a"), ("c", "d"), ("e", "d"), ("d", "f"), ("f", "d")}
    assert sorted(sorted(c) for c in loops(edges)) == [["a", "b", "c"], ["d", "f"]]
    assert loops({("a", "b"), ("b", "c"), ("a", "c")}) == []


def test_type_only_and_in_function_imports_are_read() -> None:
    source = (
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n"
        "    from server.dispatch.store import record\n"
        "def f() -> None:\n"
        "    from server.api.comparisons import types\n"
    )
    found = [(target, line) for target, line, _ in imports_in(ast.parse(source))]
    assert found == [("server.dispatch.store", 3), ("server.api.comparisons.types", 5)]


def test_nothing_below_the_graphql_layer_imports_it() -> None:
    upward = [
        a.where
        for a in module_arrows()
        if in_api(a.target) and not in_api(a.source) and a.source != COMPOSITION_ROOT
    ]
    assert not upward, "\n".join(upward)


def imported_names(path: Path) -> Iterator[tuple[str, int]]:
    """(module, line) of every import in `path`, ours or not."""
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            yield from ((alias.name, node.lineno) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            yield node.module, node.lineno


def test_only_the_graphql_layer_speaks_graphql() -> None:
    """The domain hands plain values up; strawberry and graphql-core stay in `server/api/`."""
    speaking = [
        f"{path.relative_to(ROOT)}:{line} imports {name}"
        for path in source_files()
        if not in_api(module_name(path))
        for name, line in imported_names(path)
        if name.split(".")[0] in ("strawberry", "graphql")
    ]
    assert speaking == []


def test_server_imports_jobs_only_at_the_composition_root() -> None:
    wrong = [
        a.where
        for a in module_arrows()
        if a.source.startswith("server")
        and unit_of(a.target) == "jobs"
        and a.source != COMPOSITION_ROOT
        and (a.source, a.target) != WORKER_ENTRY
    ]
    assert wrong == []


def test_stats_imports_nothing_of_ours() -> None:
    assert [a.where for a in arrows() if a.source == "stats"] == []


def test_a_table_lives_with_the_package_that_writes_it() -> None:
    homes = {
        ComparisonRange: "server.dispatch.models",
        ConnectionSpend: "server.spend.models",
        ExperimentSpend: "server.spend.models",
    }
    assert {table: table.__module__ for table in homes} == homes
    for table in homes:
        assert Base.metadata.tables[table.__tablename__] is table.__table__


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


DECISION_HOMES = ("stats/decision/", "server/decisions/")
"""Everything that decides a ship decision (docs/architecture.md, "The decision path")."""
OLD_DECISION_MODULES = (
    "stats/ship_policy.py",
    "server/verdicts/ship_decision.py",
    "server/verdicts/judged_decision.py",
    "server/verdicts/decisions.py",
    "server/runs/diff_decision.py",
    "server/labels/judge_gate.py",
)
ENGINE_INTERNALS = frozenset(
    {"ship_decision", "Decision", "Criterion", "cases_needed", "POWER", "outcome", "criteria"}
    | {"figures", "ship", "sample_size", "vocabulary"}
)
"""What of `stats.decision` computes or states an outcome; its inputs (`CohortMeasures`,
`QualityBounds`) and the policy engine's names (`stats.decision.policy`) may be read."""
OUTCOMES = frozenset({"SHIP", "DONT_SHIP", "MORE_DATA", "NO_DECISION"})


def outside_decision_homes() -> Iterator[Path]:
    for path in source_files():
        relative = path.relative_to(ROOT).as_posix()
        if not relative.startswith(DECISION_HOMES) and relative != "stats/__init__.py":
            yield path


def test_the_decision_has_left_its_old_homes() -> None:
    assert [p for p in OLD_DECISION_MODULES if (ROOT / p).exists()] == []
    assert (ROOT / "stats/decision/policy.py").is_file()


def engine_reaches(tree: ast.AST) -> Iterator[str]:
    """Each import of the engine's internals, and each `stats.ship_decision`-like use."""
    for target, line, names in imports_in(tree):
        inside = target.removeprefix("stats.decision").lstrip(".")
        if target.startswith("stats.decision") and (
            inside.split(".")[0] in ENGINE_INTERNALS or ENGINE_INTERNALS & set(names)
        ):
            yield f"{line} imports {target} {names}"
    for node in ast.walk(tree):
        if not isinstance(node, ast.Attribute) or node.attr not in ENGINE_INTERNALS:
            continue
        if isinstance(node.value, ast.Name) and node.value.id == "stats":
            yield f"{node.lineno} uses stats.{node.attr}"
        elif isinstance(node.value, ast.Attribute) and node.value.attr == "decision":
            yield f"{node.lineno} uses stats.decision.{node.attr}"


def outcome_tests(tree: ast.AST) -> Iterator[int]:
    """The line of each comparison with an outcome: a string (`… == "SHIP"`, `… in
    ("MORE_DATA",)`) or a name for one (`… != SHIP`, `… == Outcome.DONT_SHIP`)."""

    def outcome(node: ast.expr) -> bool:
        if isinstance(node, ast.Constant):
            return node.value in OUTCOMES
        if isinstance(node, ast.Name):
            return node.id in OUTCOMES
        if isinstance(node, ast.Attribute):
            return node.attr in OUTCOMES
        if isinstance(node, ast.Tuple | ast.List | ast.Set):
            return any(outcome(element) for element in node.elts)
        return False

    for node in ast.walk(tree):
        if isinstance(node, ast.Compare) and any(map(outcome, [node.left, *node.comparators])):
            yield node.lineno


def test_only_the_decision_packages_reach_the_engine() -> None:
    """Outside `stats/decision/` and `server/decisions/` nothing imports the engine's
    outcome rule, criteria or power, nor calls `stats.ship_decision`: every caller goes
    through `server/decisions/` (the package `stats` only re-exports it)."""
    found = [
        f"{path.relative_to(ROOT)}:{where}"
        for path in outside_decision_homes()
        for where in engine_reaches(ast.parse(path.read_text(), str(path)))
    ]
    assert not found, "\n".join(found)


def test_no_module_outside_the_decision_packages_tests_an_outcome() -> None:
    """A comparison with SHIP, DONT_SHIP, MORE_DATA or NO_DECISION is a decision rule: it is
    `server/decisions/approval.py`'s (only SHIP passes), not its callers'."""
    found = [
        f"{path.relative_to(ROOT)}:{line}"
        for path in outside_decision_homes()
        for line in outcome_tests(ast.parse(path.read_text(), str(path)))
    ]
    assert not found, "outcomes tested outside server/decisions:\n" + "\n".join(found)


def test_a_decision_made_elsewhere_is_found() -> None:
    source = (
        "import stats\n"
        "from stats.decision import CohortMeasures, ship_decision\n"
        "from stats.decision.outcome import Decision\n"
        "def passed(d: dict) -> bool:\n"
        '    return d["outcome"] == "SHIP"\n'
        "def held(d: dict) -> bool:\n"
        '    return d["outcome"] not in ("DONT_SHIP", "MORE_DATA") or d["outcome"] != SHIP\n'
        "def decide() -> None:\n"
        "    stats.ship_decision()\n"
        "    stats.decision.cases_needed()\n"
    )
    tree = ast.parse(source)
    assert sorted(outcome_tests(tree)) == [5, 7, 7]
    assert [where.split(" ")[0] for where in engine_reaches(tree)] == ["2", "3", "9", "10"]
    assert list(engine_reaches(ast.parse("from stats.decision import QualityBounds\n"))) == []
