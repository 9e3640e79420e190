"""The repo explains itself (docs/architecture.md): code cites the docs in the repo, never a
file outside it, and the room table of `docs/architecture.md` names every module under
`server/`, `jobs/` and `stats/`, and nothing that is not there."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CITING = ("server", "jobs", "stats", "tests", "bench", "web/src")
SUFFIXES = {".py", ".ts", ".tsx"}
OUTSIDE = re.compile(r"SPEC §|SPEC\.md|STACK_NOTES|STYLE\.md|\.\./shared|/work/|shared/seeds")
DOC_LINK = re.compile(r"\bdocs/([\w-]+\.md)")
ROOMS = ("server", "jobs", "stats")
TICKED = re.compile(r"`([^`]+)`")
NAME = re.compile(r"[a-z_][a-z0-9_]*")


def citing_files() -> Iterator[Path]:
    for top in CITING:
        for path in sorted((ROOT / top).rglob("*")):
            if path.suffix in SUFFIXES and "node_modules" not in path.parts:
                yield path


def test_no_source_cites_a_file_outside_the_repo() -> None:
    this = Path(__file__).resolve()
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in citing_files()
        if path != this
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if OUTSIDE.search(line)
    ]
    assert found == [], "\n".join(found)


def test_every_doc_the_code_cites_exists() -> None:
    cited = {
        (name, str(path.relative_to(ROOT)))
        for path in citing_files()
        for name in DOC_LINK.findall(path.read_text(encoding="utf-8"))
    }
    missing = sorted(f"{where} cites docs/{name}" for name, where in cited)
    missing = [line for line in missing if not (ROOT / "docs" / line.split("docs/")[-1]).is_file()]
    assert missing == []


def test_the_rules_outside_the_repo_are_found() -> None:
    """The pattern is not vacuous: it catches each form the repo used to cite."""
    for line in ("as SPEC §4 says", "see STACK_NOTES", "../shared/SPEC.md", "/work/x"):
        assert OUTSIDE.search(line)
    assert not OUTSIDE.search("as docs/statistics.md says")


@dataclass(frozen=True, slots=True)
class Room:
    folders: tuple[str, ...]
    """Folders relative to the repo (`server/comparisons`), or `server` for `server/*.py`."""
    flat: bool
    """Only the folder's own modules (`server/*.py`), not its subfolders."""
    names: frozenset[str]
    """Every backticked name in the row's description."""


def room_rows() -> list[Room]:
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    table = text.split("## The rooms", 1)[1].split("\n## ", 1)[0]
    rooms = []
    for line in table.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) != 2 or cells[0] in {"room", "---"}:
            continue
        folders: list[str] = []
        flat = False
        for ticked in TICKED.findall(cells[0]):
            if ticked.endswith("*.py"):
                folders.append(ticked.removesuffix("/*.py"))
                flat = True
            elif match := re.fullmatch(r"(.*)/\{(.*)\}/", ticked):
                folders += [f"{match[1]}/{name}" for name in match[2].split(",")]
            else:
                folders.append(ticked.rstrip("/"))
        rooms.append(Room(tuple(folders), flat, frozenset(TICKED.findall(cells[1]))))
    return rooms


def modules() -> Iterator[Path]:
    for top in ROOMS:
        for path in sorted((ROOT / top).rglob("*.py")):
            if path.name not in {"__init__.py", "__main__.py"}:
                yield path.relative_to(ROOT)


def room_of(module: Path, rooms: list[Room]) -> Room | None:
    best: tuple[int, Room] | None = None
    for room in rooms:
        for folder in room.folders:
            parent = module.parent.as_posix()
            inside = parent == folder if room.flat else f"{parent}/".startswith(f"{folder}/")
            if inside and (best is None or len(folder) > best[0]):
                best = (len(folder), room)
    return None if best is None else best[1]


def named(module: Path, room: Room) -> bool:
    """Named by its stem or its path inside the room (`commands/runs`), with or without `.py`."""
    stem = module.with_suffix("").as_posix()
    return any(
        name.removesuffix(".py") == stem[len(folder) + 1 :] or name == module.stem
        for folder in room.folders
        if stem.startswith(f"{folder}/")
        for name in room.names
    )


def test_the_room_table_names_every_module() -> None:
    rooms = room_rows()
    homeless = [str(module) for module in modules() if room_of(module, rooms) is None]
    unnamed = [
        str(module)
        for module in modules()
        if (room := room_of(module, rooms)) is not None and not named(module, room)
    ]
    assert (homeless, unnamed) == ([], []), f"in no room: {homeless}; not named: {unnamed}"


def defined_names(folder: Path) -> set[str]:
    """Modules, packages and top-level functions, classes and constants under `folder`."""
    names: set[str] = set()
    for path in folder.rglob("*.py"):
        names.update(part for part in path.relative_to(folder).with_suffix("").parts)
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                names.add(node.name)
            elif isinstance(node, ast.Assign | ast.AnnAssign):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                names.update(t.id for t in targets if isinstance(t, ast.Name))
    return names


SOURCES_DOTTED = tuple(f"{top}." for top in ROOMS)


def is_path(name: str, folders: list[Path]) -> bool:
    """A path (`server/pagination`, `commands/runs.py`, `server.dispatch`) that exists, from
    the repo or from the room; `<aggregate>` stands for any folder."""
    relative = name.replace(".", "/") if "/" not in name else name.removesuffix(".py")
    relative = relative.rstrip("/")
    for base in [ROOT, *folders, *(folder.parent for folder in folders)]:
        for path in base.glob(re.sub(r"<[^>]+>", "*", relative)):
            if path.is_dir():
                return True
        if base.joinpath(f"{relative}.py").is_file():
            return True
    return False


def test_the_room_table_names_nothing_stale() -> None:
    stale = []
    for room in room_rows():
        folders = [ROOT / folder for folder in room.folders]
        assert all(folder.is_dir() for folder in folders), room.folders
        known = set().union(*(defined_names(folder) for folder in folders))
        for name in room.names:
            if "/" in name or name.startswith(SOURCES_DOTTED):
                if not is_path(name, folders):
                    stale.append(f"{room.folders[0]}: `{name}`")
                continue
            head = name.split(".", 1)[0]
            if NAME.fullmatch(head) and head not in known:
                stale.append(f"{room.folders[0]}: `{name}`")
    assert stale == [], f"names the room table gives that are not in the room: {stale}"


def test_the_room_checks_tell_a_named_module_from_an_unnamed_one() -> None:
    room = Room(("server/cli",), False, frozenset({"app", "commands/runs"}))
    assert named(Path("server/cli/app.py"), room)
    assert named(Path("server/cli/commands/runs.py"), room)
    assert not named(Path("server/cli/client.py"), room)
    assert is_path("server/pagination", [])
    assert not is_path("server/nowhere", [ROOT / "server"])
