"""The soak's clients, each kind in a process of its own (so their event loops time the
server, not each other): readers of the portal's pages and live subscribers.

Both find the comparisons as the portal does, from the comparisons list, and write what
they saw to a JSON file when `until` (a `time.time()`) has passed:

- a reader loads the list, picks one of its comparisons, loads that comparison's page, its
  scorecard and its "Regressions" case list (the portal's own documents sent as the portal
  sends them, by their persisted hash: bench/kit/portal_documents.py), pausing `think`
  seconds after each; every request is a row `[time, ms, code]`, the code None for a clean
  answer, else the first `extensions.code`, `HTTP_<status>` or the client's exception class;
- a subscriber follows one RUNNING comparison's `comparisonProgress` over
  graphql-transport-ws to its end, then another; it records the messages it got and every
  error (`[time, code]`: an error message's code, a closed socket, a refused connect).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import aiohttp
import httpx

from bench.kit.portal_documents import persisted_body

TERMINAL = {"DONE", "CANCELLED", "FAILED"}
SUBSCRIPTION = (
    "subscription($id: ID!) { comparisonProgress(id: $id) { seq status doneCalls totalCalls } }"
)


def _code(status: int, body: Any) -> str | None:
    if status != 200:
        return f"HTTP_{status}"
    errors = body.get("errors") if isinstance(body, dict) else None
    if not errors:
        return None
    return str((errors[0].get("extensions") or {}).get("code") or "NO_CODE")


async def _reader(
    session: aiohttp.ClientSession, url: str, until: float, think: float, rows: list[Any]
) -> None:
    async def read(name: str, variables: dict[str, Any]) -> Any:
        started = time.perf_counter()
        at = time.time()
        answered = None
        try:
            async with session.post(url, json=persisted_body(name, variables)) as response:
                raw = await response.read()
                answered = time.perf_counter()  # the answer's time, not the client's parse
                body = json.loads(raw) if response.status == 200 else None
                code = _code(response.status, body)
            data = body.get("data") if code is None and isinstance(body, dict) else None
        except (aiohttp.ClientError, TimeoutError, ValueError) as exc:
            code, data = type(exc).__name__, None
        rows.append([at, ((answered or time.perf_counter()) - started) * 1000, code, name])
        await asyncio.sleep(think * random.uniform(0.5, 1.5))
        return data

    while time.time() < until:
        listed = await read("ComparisonsList", {"first": 20})
        edges = (listed or {}).get("comparisons", {}).get("edges") or []
        if not edges:
            continue
        comparison_id = random.choice(edges)["node"]["id"]
        await read("ComparisonPage", {"id": comparison_id})
        await read("ComparisonScorecard", {"id": comparison_id})
        cases = {"filter": "REGRESSIONS", "baseline": 1, "first": 50, "after": None}
        await read("ComparisonCases", {"id": comparison_id, **cases})


def readers(base_url: str, token: str, count: int, until: float, think: float, out: str) -> None:
    """`count` readers until `until`; their rows into `out`. They share the API's two cores,
    so they use aiohttp's client (the provider path's): at 50 connections httpx's pool took
    3.9–4.2 ms of CPU a request here, aiohttp's 0.28–0.39 (2026-12-07, load ~12)."""

    async def main() -> None:
        rows: list[Any] = []
        headers = {"Authorization": f"Bearer {token}"}
        connector = aiohttp.TCPConnector(limit=count, keepalive_timeout=60)
        timeout = aiohttp.ClientTimeout(total=30)
        async with aiohttp.ClientSession(
            headers=headers, connector=connector, timeout=timeout
        ) as session:
            url = base_url + "/graphql"
            await asyncio.gather(*(_reader(session, url, until, think, rows) for _ in range(count)))
        Path(out).write_text(json.dumps({"rows": rows}))

    asyncio.run(main())


class _Running:
    """The RUNNING comparisons, from the portal's list filtered by status, every second."""

    def __init__(self, base_url: str, token: str) -> None:
        self.base_url, self.token = base_url, token
        self.ids: list[str] = []

    async def poll(self, until: float) -> None:
        headers = {"Authorization": f"Bearer {self.token}"}
        body = persisted_body("ComparisonsList", {"first": 20, "status": "RUNNING"})
        async with httpx.AsyncClient(base_url=self.base_url, headers=headers, timeout=30) as client:
            while time.time() < until:
                try:
                    data = (await client.post("/graphql", json=body)).json().get("data")
                    if data:
                        self.ids = [e["node"]["id"] for e in data["comparisons"]["edges"]]
                except (httpx.HTTPError, ValueError):
                    pass
                await asyncio.sleep(1.0)


async def _follow(url: str, token: str, comparison_id: str, stats: dict[str, Any]) -> None:
    """One subscription to its end (a terminal status, `complete`, or a closed socket)."""
    import websockets

    try:
        async with websockets.connect(
            url,
            subprotocols=["graphql-transport-ws"],  # type: ignore[list-item]
            open_timeout=30,
        ) as ws:
            await ws.send(json.dumps({"type": "connection_init", "payload": {"token": token}}))
            await ws.recv()
            payload = {"query": SUBSCRIPTION, "variables": {"id": comparison_id}}
            await ws.send(json.dumps({"id": "1", "type": "subscribe", "payload": payload}))
            async for raw in ws:
                message = json.loads(raw)
                if message["type"] == "ping":
                    await ws.send(json.dumps({"type": "pong"}))
                elif message["type"] == "next":
                    stats["messages"] += 1
                    errors = message["payload"].get("errors")
                    if errors:
                        code = (errors[0].get("extensions") or {}).get("code") or "NO_CODE"
                        stats["errors"].append([time.time(), str(code)])
                        return
                    if message["payload"]["data"]["comparisonProgress"]["status"] in TERMINAL:
                        stats["followed"] += 1
                        return
                elif message["type"] == "error":
                    stats["errors"].append([time.time(), "SUBSCRIPTION_ERROR"])
                    return
                elif message["type"] == "complete":
                    stats["followed"] += 1
                    return
    except (TimeoutError, OSError, websockets.exceptions.WebSocketException) as exc:
        stats["errors"].append([time.time(), type(exc).__name__])
        await asyncio.sleep(1.0)


def subscribers(base_url: str, token: str, count: int, until: float, out: str) -> None:
    """`count` subscribers until `until`; their counts and errors into `out`."""

    async def main() -> None:
        running = _Running(base_url, token)
        poller = asyncio.create_task(running.poll(until))
        url = base_url.replace("http://", "ws://") + "/graphql"
        stats: dict[str, Any] = {"messages": 0, "followed": 0, "errors": []}

        async def subscriber() -> None:
            while time.time() < until:
                if not running.ids:
                    await asyncio.sleep(0.5)
                    continue
                remaining = until - time.time()
                follow = _follow(url, token, random.choice(running.ids), stats)
                try:
                    await asyncio.wait_for(follow, timeout=max(remaining, 0.1))
                except TimeoutError:
                    return

        await asyncio.gather(*(subscriber() for _ in range(count)))
        await poller
        Path(out).write_text(json.dumps(stats))

    asyncio.run(main())


def main() -> None:
    """`python bench/soak_load.py readers|subscribers BASE TOKEN COUNT UNTIL OUT [THINK]`."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("kind", choices=["readers", "subscribers"])
    parser.add_argument("base_url")
    parser.add_argument("token")
    parser.add_argument("count", type=int)
    parser.add_argument("until", type=float)
    parser.add_argument("out")
    parser.add_argument("--think", type=float, default=0.5)
    args = parser.parse_args()
    print(f"{args.kind}: {args.count} from {args.until - time.time():.0f} s before the end")  # noqa: T201
    if args.kind == "readers":
        readers(args.base_url, args.token, args.count, args.until, args.think, args.out)
    else:
        subscribers(args.base_url, args.token, args.count, args.until, args.out)


if __name__ == "__main__":
    main()
