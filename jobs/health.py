"""The worker's health probe: a tiny HTTP listener (`SHIPWISE_WORKER_HEALTH_PORT`).

`GET /healthz` answers 200 while the process runs; `GET /readyz` answers 200 while the
worker reaches its broker and 503 during an outage, with a JSON body saying which and for
how long (`{"broker": "unreachable", "downSeconds": 12.5}`). Nothing else is served.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from typing import Final

from server.runtime.broker import BrokerLink

READ_LIMIT: Final = 4096
READ_TIMEOUT_S: Final = 2.0


def readiness(link: BrokerLink) -> tuple[int, dict[str, object]]:
    """(HTTP status, body) of `/readyz`."""
    if link.down_since is None:
        return 200, {"broker": "connected"}
    down = round(time.monotonic() - link.down_since, 1)
    return 503, {"broker": "unreachable", "downSeconds": down}


async def serve(link: BrokerLink, *, host: str, port: int) -> asyncio.Server:
    """Start listening; close the returned server to stop."""

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            async with asyncio.timeout(READ_TIMEOUT_S):
                request = await reader.readuntil(b"\r\n\r\n")
        except (TimeoutError, asyncio.IncompleteReadError, asyncio.LimitOverrunError):
            writer.close()
            return
        parts = request.split(b" ", 2)
        path = parts[1].decode("latin-1") if len(parts) > 1 else ""
        body: dict[str, object]
        if path == "/healthz":
            status, body = 200, {"process": "up"}
        elif path == "/readyz":
            status, body = readiness(link)
        else:
            status, body = 404, {"error": "not found"}
        payload = json.dumps(body).encode()
        reason = {200: "OK", 404: "Not Found", 503: "Service Unavailable"}[status]
        writer.write(
            f"HTTP/1.1 {status} {reason}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(payload)}\r\nConnection: close\r\n\r\n".encode()
            + payload
        )
        with contextlib.suppress(ConnectionError):
            await writer.drain()
        writer.close()

    return await asyncio.start_server(handle, host, port, limit=READ_LIMIT)
