"""`tests/call_path.py`, the walk docs/architecture.md's drawn paths are counted with."""

from __future__ import annotations

from pathlib import Path

from tests.call_path import Module, path_of, read_module, read_modules

A = """
from pkg import b
from pkg.c import Helper


async def start(ctx: dict[str, object]) -> None:
    helper = Helper()
    b.first()
    helper.step()
    b.second()
    ctx.get("x")  # a call on a value: not followed


def unused() -> None:
    b.third()
"""
B = """
def first() -> None:
    pass


def second() -> None:
    pass


def third() -> None:
    pass
"""
C = """
class Helper:
    def __init__(self) -> None:
        self.n = 0

    def step(self) -> None:
        self.other()

    def other(self) -> None:
        pass
"""


def _modules(tmp_path: Path) -> dict[str, Module]:
    found = {}
    for name, text in (("pkg.a", A), ("pkg.b", B), ("pkg.c", C)):
        path = tmp_path / f"{name}.py"
        path.write_text(text)
        found[name] = read_module(path, name)
    return found


def test_a_walk_follows_imports_constructors_and_methods_and_counts_the_returns(
    tmp_path: Path,
) -> None:
    found = path_of(("pkg.a", "start"), _modules(tmp_path))
    assert found.stops == [
        ("pkg.a", "start"),
        ("pkg.c", "Helper.__init__"),
        ("pkg.b", "first"),
        ("pkg.c", "Helper.step"),
        ("pkg.c", "Helper.other"),
        ("pkg.b", "second"),
    ]
    assert found.passes == ["pkg.a", "pkg.c", "pkg.b", "pkg.c", "pkg.b"]
    assert found.returns == 2  # into pkg.c again, into pkg.b again


def test_the_dispatch_path_starts_at_the_job_and_enters_the_dispatcher() -> None:
    found = path_of(("jobs.delivery", "dispatch_comparison"), read_modules())
    assert found.passes[:2] == ["jobs.delivery", "server.dispatch.dispatcher"]
    assert ("server.dispatch.dispatcher", "deliver") in found.stops
    assert found.returns > 0
