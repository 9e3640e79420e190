"""Fixtures live in conftest files (or `pytest_plugins`), never imported into a test module.

A fixture imported into a test module is registered as that module's own fixture, so a
session-scoped one is set up once per module: when the page tests imported `browser` that
way, a run launched some seventy Chromiums and kept each to the end (docs/testing.md).
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TESTS = ROOT / "tests"


def _imported_names(path: Path) -> list[tuple[str, str, int]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        (node.module, alias.name, node.lineno)
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0
        if node.module.split(".")[0] in ("tests", "bench")
        for alias in node.names
    ]


def _is_fixture(module: str, name: str) -> bool:
    value = getattr(importlib.import_module(module), name, None)
    return hasattr(value, "_fixture_function_marker")


def test_no_test_module_imports_a_fixture() -> None:
    modules = [p for p in TESTS.rglob("test_*.py") if "fixtures" not in p.parts]
    assert len(modules) > 100, "the walk found the test modules"
    imported = [
        f"{path.relative_to(ROOT)}:{line} imports the fixture {name} from {module}"
        for path in modules
        for module, name, line in _imported_names(path)
        if _is_fixture(module, name)
    ]
    assert imported == []


def test_the_walk_recognises_a_fixture() -> None:
    assert _is_fixture("bench.kit.browser", "browser")
    assert _is_fixture("tests.portal.harness", "portal_page")
    assert not _is_fixture("tests.portal.harness", "sign_in")
