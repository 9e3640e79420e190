"""The path a call takes through our modules, read from the source (docs/architecture.md,
"Two paths drawn"): from one function, every function of ours it calls, depth first, each
once, in the order the calls are written. Printed as the stops in that order and the
modules they pass through, with the returns to a module already left counted.

    .venv/bin/python -m tests.call_path jobs.delivery:dispatch_comparison
    .venv/bin/python -m tests.call_path server.api.comparisons.resolvers:comparison

A call is followed when its target is known from the source alone: a function or class of
the same module, a name imported from one of ours (`from server.dispatch import ranges`,
then `ranges.claim_next(…)`), or `self.method(…)` inside a class. A call on any other value
(`session.execute`, a callback, a protocol's method) is not followed, so the count is a
floor of the real back-and-forth, the same floor every time it is counted.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ("server", "jobs", "stats")


@dataclass
class Module:
    name: str
    functions: dict[str, ast.FunctionDef | ast.AsyncFunctionDef] = field(default_factory=dict)
    """Module-level functions by name; methods as `Class.method`."""
    classes: set[str] = field(default_factory=set)
    imported: dict[str, str] = field(default_factory=dict)
    """A local name to the dotted name it stands for (`ranges` → `server.dispatch.ranges`,
    `deliver` → `server.dispatch.dispatcher.deliver`)."""


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def read_module(path: Path, name: str | None = None) -> Module:
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    module = Module(name or module_name(path))
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            module.functions[node.name] = node
        elif isinstance(node, ast.ClassDef):
            module.classes.add(node.name)
            for item in node.body:
                if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef):
                    module.functions[f"{node.name}.{item.name}"] = item
    for found in ast.walk(tree):
        if isinstance(found, ast.Import):
            for alias in found.names:
                if alias.asname:
                    module.imported[alias.asname] = alias.name
        elif isinstance(found, ast.ImportFrom) and found.module and found.level == 0:
            for alias in found.names:
                module.imported[alias.asname or alias.name] = f"{found.module}.{alias.name}"
    return module


def read_modules() -> dict[str, Module]:
    found = {}
    for top in SOURCES:
        for path in sorted((ROOT / top).rglob("*.py")):
            module = read_module(path)
            found[module.name] = module
    return found


Stop = tuple[str, str]
"""(module, function) — a method as `Class.method`."""


def resolve(dotted: str, modules: dict[str, Module]) -> Stop | None:
    """A dotted name of ours (`server.dispatch.dispatcher.deliver`) to its stop; a class
    to its `__init__`."""
    head, _, last = dotted.rpartition(".")
    module = modules.get(head)
    if module is None:
        return None
    if last in module.functions:
        return module.name, last
    if last in module.classes:
        init = f"{last}.__init__"
        return (module.name, init) if init in module.functions else None
    if last in module.imported:  # re-exported from a package's __init__
        return resolve(module.imported[last], modules)
    return None


Class = tuple[str, str]
"""(module, class name)."""


def class_named(name: str, module: Module, modules: dict[str, Module]) -> Class | None:
    if name in module.classes:
        return module.name, name
    dotted = module.imported.get(name)
    if dotted is None:
        return None
    head, _, last = dotted.rpartition(".")
    found = modules.get(head)
    if found is None:
        return None
    if last in found.classes:
        return found.name, last
    return class_named(last, found, modules) if last in found.imported else None


def class_of(node: ast.expr | None, module: Module, modules: dict[str, Module]) -> Class | None:
    """The class of ours an annotation (`Keepalive`, `"Keepalive"`, `Keepalive | None`) or a
    constructor call (`Keepalive(…)`) names."""
    if node is None:
        return None
    if isinstance(node, ast.Call):
        return class_of(node.func, module, modules)
    if isinstance(node, ast.Name):
        return class_named(node.id, module, modules)
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return class_named(node.value, module, modules)
    if isinstance(node, ast.BinOp):  # X | None
        return class_of(node.left, module, modules) or class_of(node.right, module, modules)
    return None


def attribute_classes(module: Module, owner: str, modules: dict[str, Module]) -> dict[str, Class]:
    """`self.x`'s class for each attribute a method of `owner` assigns or annotates."""
    found: dict[str, Class] = {}
    for name, function in module.functions.items():
        if not name.startswith(f"{owner}."):
            continue
        for node in ast.walk(function):
            target: ast.expr | None = None
            value: ast.expr | None = None
            if isinstance(node, ast.Assign) and len(node.targets) == 1:
                target, value = node.targets[0], node.value
            elif isinstance(node, ast.AnnAssign):
                target, value = node.target, node.annotation
            if (
                isinstance(target, ast.Attribute)
                and isinstance(target.value, ast.Name)
                and target.value.id == "self"
                and (known := class_of(value, module, modules)) is not None
            ):
                found.setdefault(target.attr, known)
    return found


def local_classes(
    function: ast.FunctionDef | ast.AsyncFunctionDef, module: Module, modules: dict[str, Module]
) -> dict[str, Class]:
    """A local name's class: from the parameters' annotations and `x = Class(…)`."""
    found: dict[str, Class] = {}
    arguments = function.args
    for argument in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]:
        if (known := class_of(argument.annotation, module, modules)) is not None:
            found[argument.arg] = known
    for node in ast.walk(function):
        if (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
            and isinstance(node.value, ast.Call)
            and (known := class_of(node.value, module, modules)) is not None
        ):
            found[node.targets[0].id] = known
    return found


def method(known: Class | None, name: str, modules: dict[str, Module]) -> Stop | None:
    if known is None:
        return None
    stop = (known[0], f"{known[1]}.{name}")
    return stop if stop[1] in modules[known[0]].functions else None


@dataclass(frozen=True)
class Scope:
    module: Module
    owner: str | None
    locals: dict[str, Class]
    attributes: dict[str, Class]


def target_of(node: ast.expr, scope: Scope, modules: dict[str, Module]) -> Stop | None:
    """The stop `node` (a called or passed function) names, when the source tells."""
    module = scope.module
    if isinstance(node, ast.Name):
        if node.id in module.functions:
            return module.name, node.id
        if node.id in module.classes:
            init = f"{node.id}.__init__"
            return (module.name, init) if init in module.functions else None
        if node.id in module.imported:
            return resolve(module.imported[node.id], modules)
        return None
    if not isinstance(node, ast.Attribute):
        return None
    base = node.value
    if isinstance(base, ast.Name):
        if base.id == "self" and scope.owner is not None:
            own = f"{scope.owner}.{node.attr}"
            return (module.name, own) if own in module.functions else None
        if base.id in scope.locals:
            return method(scope.locals[base.id], node.attr, modules)
        if base.id in module.imported:
            return resolve(f"{module.imported[base.id]}.{node.attr}", modules)
        return None
    if (
        isinstance(base, ast.Attribute)
        and isinstance(base.value, ast.Name)
        and base.value.id == "self"
    ):
        return method(scope.attributes.get(base.attr), node.attr, modules)
    return None


def calls_in(
    function: ast.FunctionDef | ast.AsyncFunctionDef, scope: Scope, modules: dict[str, Module]
) -> Iterator[Stop]:
    """What `function` calls, or hands on as a callback (`run_trial=runner.run`), in the
    order it is written; nested functions and lambdas included: they run on this path."""
    nodes: list[ast.expr] = []
    for node in ast.walk(function):
        if isinstance(node, ast.Call):
            nodes.append(node.func)
            nodes.extend(arg for arg in node.args if isinstance(arg, ast.Attribute | ast.Name))
            nodes.extend(
                keyword.value
                for keyword in node.keywords
                if isinstance(keyword.value, ast.Attribute | ast.Name)
            )
    for node in sorted(nodes, key=lambda n: (n.lineno, n.col_offset)):
        if (found := target_of(node, scope, modules)) is not None:
            yield found


def walk(start: Stop, modules: dict[str, Module]) -> list[Stop]:
    """Every stop reached from `start`, depth first, each once."""
    seen: set[Stop] = set()
    order: list[Stop] = []

    def visit(stop: Stop) -> None:
        if stop in seen:
            return
        seen.add(stop)
        order.append(stop)
        module = modules[stop[0]]
        function = module.functions[stop[1]]
        owner = stop[1].split(".")[0] if "." in stop[1] else None
        attributes = attribute_classes(module, owner, modules) if owner else {}
        scope = Scope(module, owner, local_classes(function, module, modules), attributes)
        for found in calls_in(function, scope, modules):
            visit(found)

    visit(start)
    return order


@dataclass(frozen=True)
class CallPath:
    stops: list[Stop]
    passes: list[str]
    """The modules in the order the path passes through them (one entry per stay)."""
    returns: int
    """Entries into a module the path had already left."""


def path_of(start: Stop, modules: dict[str, Module]) -> CallPath:
    stops = walk(start, modules)
    passes: list[str] = []
    for module, _ in stops:
        if not passes or passes[-1] != module:
            passes.append(module)
    returns = sum(1 for i, module in enumerate(passes) if module in passes[:i])
    return CallPath(stops, passes, returns)


def unit_of(module: str) -> str:
    """The package a module lives in (`server.dispatch`, `jobs`, `stats`), or the flat
    module itself (`server.db`)."""
    parts = module.split(".")
    if parts[0] != "server" or len(parts) == 2:
        return parts[0] if parts[0] != "server" else module
    return ".".join(parts[:2])


def summary(found: CallPath) -> list[str]:
    entered: dict[str, int] = {}
    for name in found.passes:
        entered[name] = entered.get(name, 0) + 1
    units: list[str] = []
    for name in found.passes:
        if not units or units[-1] != unit_of(name):
            units.append(unit_of(name))
    unit_returns = sum(1 for i, unit in enumerate(units) if unit in units[:i])
    busiest = sorted(entered.items(), key=lambda item: -item[1])[:5]
    lines = [
        f"{len(found.stops)} stops in {len(entered)} modules, "
        f"{found.returns} returns to a module already left; "
        f"{len(units)} stays in {len(set(units))} packages, {unit_returns} returns to one",
        "entered most: " + ", ".join(f"{n} ×{c}" for n, c in busiest),
        "modules, in the order first entered:",
    ]
    lines += [f"  {name}" for name in dict.fromkeys(found.passes)]
    lines.append("packages, each stay:")
    lines += [f"  {unit}" for unit in units]
    return lines


def main(argv: list[str]) -> None:
    module, _, function = argv[0].partition(":")
    found = path_of((module, function), read_modules())
    print("\n".join(summary(found)))  # noqa: T201 - the script's output


if __name__ == "__main__":
    main(sys.argv[1:])
