"""Run Alembic programmatically (the config lives in code, not an alembic.ini)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationInfo
from alembic.script import ScriptDirectory
from sqlalchemy.engine import make_url

import migrations

MIGRATIONS_DIR = Path(migrations.__file__).parent


def alembic_config(database_url: str) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    config.set_main_option("sqlalchemy.url", database_url.replace("%", "%%"))
    return config


@dataclass
class Migrated:
    """What an upgrade did: the revisions it applied, in order, and where the schema is."""

    database: str
    """The database URL without its password."""
    head: str | None
    applied: list[str] = field(default_factory=list)
    started_empty: bool = False

    def summary(self) -> str:
        """One line for a person: what changed, or that nothing had to."""
        if not self.applied:
            return f"{self.database}: already at the newest schema ({self.head}); nothing to do"
        count = f"{len(self.applied)} migration{'s' if len(self.applied) != 1 else ''}"
        if self.started_empty:
            return (
                f"{self.database}: was empty; created the schema with {count} "
                f"({self.applied[0]} to {self.applied[-1]})"
            )
        steps = ", ".join(self.applied)
        return f"{self.database}: upgraded to {self.applied[-1]} with {count} ({steps})"


def upgrade(database_url: str, revision: str = "head") -> Migrated:
    """Bring the database at `database_url` to `revision` (blocking; call off the event loop)."""
    config = alembic_config(database_url)
    done = Migrated(
        database=make_url(database_url).render_as_string(hide_password=True),
        head=ScriptDirectory.from_config(config).get_current_head(),
    )

    def applied(*, step: MigrationInfo, **_: Any) -> None:
        if step.is_upgrade and step.is_migration and step.up_revision_id is not None:
            if not done.applied and not step.down_revision_ids:
                done.started_empty = True
            done.applied.append(step.up_revision_id)

    config.attributes["on_version_apply"] = applied
    command.upgrade(config, revision)
    return done
