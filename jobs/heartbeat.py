"""Periodic job: record that a worker (or the embedded runner) is alive."""

from __future__ import annotations

import os
import socket
from typing import Any

from server.ops import service as ops_service


async def record_heartbeat(ctx: dict[str, Any]) -> str:
    worker_name = f"{socket.gethostname()}:{os.getpid()}"
    async with ctx["sessionmaker"]() as session, session.begin():
        await ops_service.beat(session=session, worker_name=worker_name)
    return worker_name
