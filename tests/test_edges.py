"""The edges of the tree: the benches stand on their own (`bench/kit/` holds what they share
with the tests), so nothing under `bench/` imports `tests/`."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def imported_modules(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
    return found


def imports_tests(path: Path) -> list[str]:
    return sorted(m for m in imported_modules(path) if m == "tests" or m.startswith("tests."))


def test_no_bench_file_imports_tests() -> None:
    found = {
        str(path.relative_to(ROOT)): names
        for path in sorted((ROOT / "bench").rglob("*.py"))
        if (names := imports_tests(path))
    }
    assert found == {}


def test_an_import_of_tests_is_seen(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text("import json\n\ndef f() -> None:\n    from tests.waiting import eventually\n")
    assert imports_tests(module) == ["tests.waiting"]
