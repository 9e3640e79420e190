"""Throw-away PostgreSQL databases at the newest schema, for the tests and the benchmarks.

Migrating an empty database from nothing takes 0.7 s of our CPU and 8–9 s of wall time on a
loaded 2-core host (PostgreSQL's DDL); a copy of a migrated template (`CREATE DATABASE …
TEMPLATE`) takes ~0.15 s. The template is `shipwise_template_<digest>`, the digest of
`migrations/`'s files and of every `server` module they import, transitively (the built-in
assets they seed, the trigger SQL, the column types), so an edited migration or anything it
reads gets a template of its own. The first
process to need one builds it under an advisory lock, under a build name, and publishes it by
renaming it; it then takes no connections, so a copy never meets "being accessed by other
users". `tests/test_migrations.py` still migrates from nothing.

SQLite the same way (`create_migrated_sqlite`): a migrated file in the temporary directory,
named by the same digest, copied (1.5 s of migrating at load 9, a copy in milliseconds).
"""

from __future__ import annotations

import ast
import asyncio
import hashlib
import os
import secrets
import shutil
import tempfile
from functools import cache
from pathlib import Path
from typing import Any

from sqlalchemy.engine import make_url

from server.migrate import MIGRATIONS_DIR, upgrade

ROOT = MIGRATIONS_DIR.parent

TEMPLATE_PREFIX = "shipwise_template_"
_LOCK_KEY = 0x5317_7E3A  # pg_advisory_lock's key for building a template


def _plain(admin_url: str) -> str:
    """asyncpg's DSN for SQLAlchemy's `postgresql+asyncpg://` URL."""
    return admin_url.replace("postgresql+asyncpg", "postgresql")


def _url_of(admin_url: str, name: str) -> str:
    return f"{admin_url.rpartition('/')[0]}/{name}"


def _server_imports(path: Path) -> set[Path]:
    """The files of the `server` modules `path` imports (a `from a import b` may name either)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names |= {node.module, *(f"{node.module}.{alias.name}" for alias in node.names)}
        elif isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
    found = set()
    for name in names:
        if name.split(".")[0] == "server":
            base = ROOT.joinpath(*name.split("."))
            found |= {p for p in (base.with_suffix(".py"), base / "__init__.py") if p.is_file()}
    return found


@cache
def template_name() -> str:
    """The template's name for the migrations, and what they import, as in this checkout."""
    files = set(MIGRATIONS_DIR.rglob("*.py"))
    todo = list(files)
    while todo:
        for found in _server_imports(todo.pop()) - files:
            files.add(found)
            todo.append(found)
    digest = hashlib.sha256()
    for path in sorted(files):
        digest.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes())
    return TEMPLATE_PREFIX + digest.hexdigest()[:12]


async def _ensure_template(conn: Any, admin_url: str, template: str) -> None:
    """Build `template` unless it is there (one builder at a time, across processes)."""
    exists = "SELECT 1 FROM pg_database WHERE datname = $1"
    if await conn.fetchval(exists, template):
        return
    await conn.execute("SELECT pg_advisory_lock($1)", _LOCK_KEY)
    try:
        if await conn.fetchval(exists, template):
            return
        # A build that died half-way is left under its build name; only the lock holder builds.
        stale = await conn.fetch(
            "SELECT datname FROM pg_database WHERE datname LIKE $1", f"{TEMPLATE_PREFIX}%_build_%"
        )
        for row in stale:
            await conn.execute(f'DROP DATABASE IF EXISTS "{row["datname"]}" WITH (FORCE)')
        build = f"{template}_build_{secrets.token_hex(3)}"
        await conn.execute(f'CREATE DATABASE "{build}"')
        await asyncio.to_thread(upgrade, _url_of(admin_url, build))
        await conn.execute(f'ALTER DATABASE "{build}" RENAME TO "{template}"')
        await conn.execute(
            f'ALTER DATABASE "{template}" WITH IS_TEMPLATE true ALLOW_CONNECTIONS false'
        )
    finally:
        await conn.execute("SELECT pg_advisory_unlock($1)", _LOCK_KEY)


async def create_migrated_database(admin_url: str, prefix: str) -> tuple[str, str]:
    """(URL, name) of a new database `<prefix>_<hex>` at the newest schema, with no rows but
    what the migrations write."""
    import asyncpg  # type: ignore[import-untyped]

    name = f"{prefix}_{secrets.token_hex(4)}"
    template = template_name()
    conn = await asyncpg.connect(_plain(admin_url))
    try:
        await _ensure_template(conn, admin_url, template)
        await conn.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
    finally:
        await conn.close()
    return _url_of(admin_url, name), name


async def create_empty_database(admin_url: str, prefix: str) -> tuple[str, str]:
    """(URL, name) of a new, empty database `<prefix>_<hex>` (for a caller that migrates)."""
    import asyncpg

    name = f"{prefix}_{secrets.token_hex(4)}"
    conn = await asyncpg.connect(_plain(admin_url))
    try:
        await conn.execute(f'CREATE DATABASE "{name}"')
    finally:
        await conn.close()
    return _url_of(admin_url, name), name


async def drop_database(admin_url: str, name: str) -> None:
    """Drop `name`, ending any connection still on it."""
    import asyncpg

    conn = await asyncpg.connect(_plain(admin_url))
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await conn.close()


def create_migrated_sqlite(database_url: str) -> None:
    """Put a SQLite database at the newest schema at `database_url`'s file (not there yet):
    a copy of the template file, built by the first caller (concurrent builders each rename
    a whole file into place)."""
    target = Path(str(make_url(database_url).database))
    template = Path(tempfile.gettempdir()) / f"{template_name()}.sqlite3"
    if not template.is_file():
        build = template.with_name(f"{template.stem}_build_{secrets.token_hex(3)}.sqlite3")
        try:
            upgrade(f"sqlite+aiosqlite:///{build}")
            os.replace(build, template)
        finally:
            for leftover in build.parent.glob(f"{build.name}*"):  # -wal, -shm, a failed build
                leftover.unlink(missing_ok=True)
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(template, target)
