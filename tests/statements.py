"""Count the SQL statements the server issues for requests while a block runs (N+1 tests)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import event

from tests.harness import Backend


def _in_background_job() -> bool:
    """Embedded jobs (heartbeat, sweeper, dispatch) run as tasks named `job <name> <id>`."""
    try:
        task = asyncio.current_task()
    except RuntimeError:
        return False
    return task is not None and task.get_name().startswith("job ")


@contextmanager
def counting_statements(backend: Backend) -> Iterator[list[str]]:
    """The statements run on the server's engine inside the block, in order.

    Periodic jobs share the embedded engine; their statements are left out so a tick during
    the block cannot change the count.
    """
    statements: list[str] = []

    def before(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        if not _in_background_job():
            statements.append(statement)

    engine = backend.state.engine.sync_engine
    event.listen(engine, "before_cursor_execute", before)
    try:
        yield statements
    finally:
        event.remove(engine, "before_cursor_execute", before)
