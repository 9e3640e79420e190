"""Following a comparison to its end: the `comparisonProgress` subscription drawn as a bar.

The subscription speaks graphql-transport-ws with the token in `connection_init`. Should the
socket fail (a proxy that refuses websockets, say), the command polls `comparison(id)`
instead, so `--wait` still ends when the comparison does.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Callable
from typing import Any, TextIO

import websockets
from websockets.exceptions import WebSocketException

from server.cli.client import ApiClient, ApiError
from server.money import dollars
from server.words import comparison_status

PROTOCOL = "graphql-transport-ws"
TERMINAL = frozenset({"DONE", "FAILED", "CANCELLED"})
POLL_SECONDS = 1.0

PROGRESS_FIELDS = """
    seq status stopReason doneCalls totalCalls failedCalls percent etaSeconds spentCentsSoFar
    cohorts { cohortIndex state }
"""
SUBSCRIPTION = (
    "subscription($id: ID!) { comparisonProgress(id: $id) {" + PROGRESS_FIELDS + "} }"
)
POLL = "query($id: ID!) { comparison(id: $id) { progress {" + PROGRESS_FIELDS + "} } }"


class SubscriptionError(Exception):
    """The server answered the subscription with an error (not a transport failure)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


def ws_url(url: str) -> str:
    base = url.rstrip("/")
    if base.startswith("https://"):
        return "wss://" + base[len("https://") :] + "/graphql"
    if base.startswith("http://"):
        return "ws://" + base[len("http://") :] + "/graphql"
    return base + "/graphql"


async def subscribe(url: str, token: str, comparison_id: str) -> AsyncIterator[dict[str, Any]]:
    """Each progress snapshot until the terminal one."""
    async with websockets.connect(
        ws_url(url), subprotocols=[PROTOCOL], open_timeout=10  # type: ignore[list-item]
    ) as ws:
        await ws.send(
            json.dumps({"type": "connection_init", "payload": {"Authorization": f"Bearer {token}"}})
        )
        ack = json.loads(await ws.recv())
        if ack.get("type") != "connection_ack":
            raise SubscriptionError("UNAUTHENTICATED", "the server refused the token")
        await ws.send(
            json.dumps(
                {
                    "id": "1",
                    "type": "subscribe",
                    "payload": {"query": SUBSCRIPTION, "variables": {"id": comparison_id}},
                }
            )
        )
        async for raw in ws:
            message = json.loads(raw)
            kind = message.get("type")
            if kind == "ping":
                await ws.send(json.dumps({"type": "pong"}))
            elif kind == "next":
                payload = message.get("payload") or {}
                if payload.get("errors"):
                    first = payload["errors"][0]
                    code = (first.get("extensions") or {}).get("code", "INTERNAL")
                    raise SubscriptionError(code, first.get("message", ""))
                snapshot = payload["data"]["comparisonProgress"]
                yield snapshot
                if snapshot["status"] in TERMINAL:
                    return
            elif kind == "error":
                errors = message.get("payload") or [{}]
                first = errors[0] if isinstance(errors, list) and errors else {}
                code = (first.get("extensions") or {}).get("code", "INTERNAL")
                raise SubscriptionError(code, first.get("message", "subscription refused"))
            elif kind == "complete":
                return


async def poll(client: ApiClient, comparison_id: str) -> AsyncIterator[dict[str, Any]]:
    """The same snapshots by asking `comparison(id)` every second."""
    while True:
        data = await asyncio.to_thread(client.execute, POLL, {"id": comparison_id})
        snapshot: dict[str, Any] = data["comparison"]["progress"]
        yield snapshot
        if snapshot["status"] in TERMINAL:
            return
        await asyncio.sleep(POLL_SECONDS)


class ProgressBar:
    """One line on `out`: redrawn in place on a terminal, else a line per 10% or status."""

    WIDTH = 30

    def __init__(self, out: TextIO, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.out = out
        self.tty = out.isatty()
        self.clock = clock
        self._last: tuple[int, str] | None = None

    def line(self, snapshot: dict[str, Any]) -> str:
        percent = float(snapshot["percent"])
        filled = min(self.WIDTH, int(round(self.WIDTH * percent / 100)))
        bar = "#" * filled + "." * (self.WIDTH - filled)
        parts = [
            f"[{bar}] {percent:5.1f}%",
            f"{snapshot['doneCalls']}/{snapshot['totalCalls']} calls",
        ]
        if snapshot["failedCalls"]:
            parts.append(f"{snapshot['failedCalls']} failed")
        parts.append(dollars(snapshot["spentCentsSoFar"]))
        eta = snapshot.get("etaSeconds")
        if eta is not None and snapshot["status"] == "RUNNING":
            parts.append(f"ETA {_duration(float(eta))}")
        parts.append(comparison_status(snapshot["status"], snapshot.get("stopReason")))
        return "  ".join(parts)

    def draw(self, snapshot: dict[str, Any]) -> None:
        text = self.line(snapshot)
        if self.tty:
            self.out.write("\r" + text.ljust(100))
        else:
            key = (int(float(snapshot["percent"]) // 10), snapshot["status"])
            if key == self._last:
                return
            self._last = key
            self.out.write(text + "\n")
        self.out.flush()

    def note(self, text: str) -> None:
        self.out.write(("\n" if self.tty else "") + text + "\n")
        self.out.flush()

    def close(self) -> None:
        if self.tty:
            self.out.write("\n")
            self.out.flush()


def _duration(seconds: float) -> str:
    seconds = max(0, int(round(seconds)))
    if seconds < 60:
        return f"{seconds}s"
    minutes, seconds = divmod(seconds, 60)
    if minutes < 60:
        return f"{minutes}m{seconds:02d}s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours}h{minutes:02d}m"


async def follow(
    *, url: str, token: str, client: ApiClient, comparison_id: str, bar: ProgressBar
) -> dict[str, Any]:
    """Draw every snapshot until the terminal one, which is returned."""
    last: dict[str, Any] | None = None
    try:
        async for snapshot in subscribe(url, token, comparison_id):
            bar.draw(snapshot)
            last = snapshot
    except (TimeoutError, OSError, WebSocketException, json.JSONDecodeError):
        last = None  # the socket failed: poll instead
    except SubscriptionError as exc:
        raise ApiError(exc.code, exc.message) from None
    if last is None or last["status"] not in TERMINAL:
        bar.note("live progress unavailable; polling every second")
        async for snapshot in poll(client, comparison_id):
            bar.draw(snapshot)
            last = snapshot
    bar.close()
    assert last is not None
    return last
