"""Throw-away PostgreSQL databases at the newest schema, for the tests and the benchmarks.

Migrating an empty database from nothing takes 0.7 s of our CPU and 8–9 s of wall time on a
loaded 2-core host (PostgreSQL's DDL); a copy of a migrated template (`CREATE DATABASE …
TEMPLATE`) takes ~0.15 s. The template is `shipwise_template_<digest>`, the digest of
`migrations/`'s files, so an edited or added migration gets a template of its own. The first
process to need one builds it under an advisory lock, under a build name, and publishes it by
renaming it; it then takes no connections, so a copy never meets "being accessed by other
users". `tests/test_migrations.py` still migrates from nothing.
"""

from __future__ import annotations

import asyncio
import hashlib
import secrets
from typing import Any

from server.migrate import MIGRATIONS_DIR, upgrade

TEMPLATE_PREFIX = "shipwise_template_"
_LOCK_KEY = 0x5317_7E3A  # pg_advisory_lock's key for building a template


def _plain(admin_url: str) -> str:
    """asyncpg's DSN for SQLAlchemy's `postgresql+asyncpg://` URL."""
    return admin_url.replace("postgresql+asyncpg", "postgresql")


def _url_of(admin_url: str, name: str) -> str:
    return f"{admin_url.rpartition('/')[0]}/{name}"


def template_name() -> str:
    """The template's name for the migrations as they are in this checkout."""
    digest = hashlib.sha256()
    for path in sorted(MIGRATIONS_DIR.rglob("*.py")):
        digest.update(str(path.relative_to(MIGRATIONS_DIR)).encode() + b"\0" + path.read_bytes())
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
