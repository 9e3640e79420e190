"""Names that say what (docs/architecture.md, "The rooms"): three collisions ended, kept ended.

Each pair below once read alike and did different things: the readers of other tools' result
files and the judging of an imported run; the judge calls and the labels' judge checks; the
job that judges two runs against each other, the dispatch stage that judges a hosted
comparison's pairs and the statistics of both. The old paths are gone, nothing imports them,
and each of the words they shared names one home at most.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ("server", "jobs", "stats")
IMPORTERS = (*SOURCES, "tests", "bench")

RENAMED = {
    "server/imports": "server/result_formats",
    "server/import_judges": "server/judged_imports",
    "server/labels/judges.py": "server/labels/judge_checks.py",
    "server/pairwise": "server/run_pairs",
    "server/pairwise/hosted_result.py": "server/verdicts/pair_judgments.py",
    "server/api/pairwise": "server/api/run_pairs",
    "server/dispatch/pairwise_stage.py": "server/dispatch/pair_judging.py",
    "stats/pairwise.py": "stats/preference.py",
    "jobs/pairwise.py": "jobs/run_pairs.py",
}
"""Old path → the home that replaced it."""

SHARED_WORDS = ("imports", "judges", "pairwise")
"""Words that named two or three homes at once; each may name one at most now."""


def dotted(path: str) -> str:
    return path.removesuffix(".py").replace("/", ".")


def imported_modules(tree: ast.AST) -> Iterator[tuple[str, int]]:
    """Every module an import may load (`from a import b` may load `a.b`), with its line."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom) and node.module:
            yield node.module, node.lineno
            for alias in node.names:
                yield f"{node.module}.{alias.name}", node.lineno


def python_files() -> Iterator[Path]:
    for top in IMPORTERS:
        yield from sorted((ROOT / top).rglob("*.py"))


def homes() -> Iterator[Path]:
    """Every package and module of the product, as paths relative to the repo."""
    for top in SOURCES:
        for path in sorted((ROOT / top).rglob("*")):
            if "__pycache__" in path.parts:
                continue
            if path.suffix == ".py" and path.name != "__init__.py":
                yield path.relative_to(ROOT)
            elif path.is_dir() and (path / "__init__.py").is_file():
                yield path.relative_to(ROOT)


def test_the_old_paths_are_gone_and_their_homes_exist() -> None:
    left = [old for old in RENAMED if (ROOT / old).exists()]
    missing = [new for new in RENAMED.values() if not (ROOT / new).exists()]
    assert (left, missing) == ([], []), f"still there: {left}; not there: {missing}"


def test_nothing_imports_an_old_name() -> None:
    old = [dotted(path) for path in RENAMED]
    found = [
        f"{path.relative_to(ROOT)}:{line} imports {module}"
        for path in python_files()
        for module, line in imported_modules(ast.parse(path.read_text(), str(path)))
        if any(module == name or module.startswith(f"{name}.") for name in old)
    ]
    assert found == [], "\n".join(found)


def test_a_shared_word_names_one_home_at_most() -> None:
    named: dict[str, list[str]] = {word: [] for word in SHARED_WORDS}
    for home in homes():
        words = home.with_suffix("").name.split("_")
        for word in SHARED_WORDS:
            if word in words:
                named[word].append(home.as_posix())
    crowded = {word: paths for word, paths in named.items() if len(paths) > 1}
    assert crowded == {}, f"one word, several homes: {crowded}"


def test_the_checks_see_an_old_import_and_a_crowded_word() -> None:
    source = "from server.labels import judges\nimport server.pairwise.models\n"
    modules = {module for module, _ in imported_modules(ast.parse(source))}
    assert {"server.labels.judges", "server.pairwise.models"} <= modules
    assert "pairwise" in Path("server/dispatch/pairwise_stage.py").with_suffix("").name.split("_")
