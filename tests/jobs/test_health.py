"""The worker's health probe over HTTP: alive always, ready only while the broker answers."""

from __future__ import annotations

import asyncio
import time

import httpx
from redis.exceptions import ConnectionError as RedisConnectionError

from jobs import health
from server.runtime.broker import BrokerLink
from tests.private_services import free_port


async def test_the_probe_answers_healthz_readyz_and_nothing_else() -> None:
    link = BrokerLink(lambda: asyncio.sleep(3600))
    port = free_port()
    server = await health.serve(link, host="127.0.0.1", port=port)
    try:
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as client:
            assert (await client.get("/healthz")).status_code == 200
            ready = await client.get("/readyz")
            assert (ready.status_code, ready.json()) == (200, {"broker": "connected"})
            waiting = asyncio.ensure_future(link.restored(RedisConnectionError("refused")))
            await asyncio.sleep(0)
            link.down_since = time.monotonic() - 12.5
            down = await client.get("/readyz")
            assert down.status_code == 503
            body = down.json()
            assert body["broker"] == "unreachable" and 12.5 <= body["downSeconds"] < 14
            assert (await client.get("/healthz")).status_code == 200
            assert (await client.get("/metrics")).status_code == 404
            waiting.cancel()
    finally:
        link.close()
        server.close()
        await server.wait_closed()
