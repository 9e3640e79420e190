"""bench/live.py's clients, each kind in a process of its own (so their event loops time the
server, not each other): the feed of OTLP exports and the readers of `/live/:id`.

- `feed`: every tick (10 a second) posts one export per comparison and arm at once, as
  independent services' exporters would; comparison 0's candidate passes 60% against 90%,
  the others' arms both 90%. It writes each export's time and latency.
- `readers`: each reader polls one comparison's page as the portal's `/live/:id` does (its
  persisted document, `LiveComparisonPage`), pausing `pause` seconds between reads; it
  writes each read's time and latency, and when a reader first saw each comparison
  DECIDED.

    python bench/kit/live_load.py feed BASE TOKEN COMPARISONS RATE UNTIL OUT
    python bench/kit/live_load.py readers BASE TOKEN IDS COUNT UNTIL OUT [--pause S]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import aiohttp
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
from opentelemetry.proto.common.v1.common_pb2 import AnyValue, KeyValue

from bench.kit.portal_documents import persisted_body

TICK_SECONDS = 0.1
CANDIDATE, BASELINE = "v2", "v1"


def _kv(key: str, value: str | int) -> KeyValue:
    any_value = (
        AnyValue(int_value=value) if isinstance(value, int) else AnyValue(string_value=value)
    )
    return KeyValue(key=key, value=any_value)


def export(service: str, release: str, passes: list[bool]) -> bytes:
    """One OTLP export: a single-span chat trace per entry, answering right or wrong."""
    request = ExportTraceServiceRequest()
    spans = request.resource_spans.add()
    spans.resource.attributes.extend(
        [_kv("service.name", service), _kv("shipwise.release", release)]
    )
    scope = spans.scope_spans.add()
    now = time.time_ns()
    for index, ok in enumerate(passes):
        span = scope.spans.add(
            trace_id=os.urandom(16), span_id=os.urandom(8), name="chat",
            start_time_unix_nano=now + index, end_time_unix_nano=now + index + 80_000_000,
        )  # fmt: skip
        parts = [{"type": "text", "content": "It is Paris." if ok else "It is Lyon."}]
        span.attributes.extend([
            _kv("gen_ai.operation.name", "chat"), _kv("gen_ai.request.model", "m"),
            _kv("gen_ai.usage.output_tokens", 12), _kv("shipwise.expected", "Paris"),
            _kv("gen_ai.output.messages", json.dumps([{"role": "assistant", "parts": parts}])),
        ])  # fmt: skip
    body: bytes = request.SerializeToString()
    return body


def _session(connections: int) -> aiohttp.ClientSession:
    """aiohttp's client (the provider path's): these clients share the API's two cores, and
    httpx's pool took ~4 ms of CPU a request at 50 connections, aiohttp's ~0.3
    (bench/soak_load.py)."""
    connector = aiohttp.TCPConnector(limit=connections, keepalive_timeout=60)
    return aiohttp.ClientSession(connector=connector, timeout=aiohttp.ClientTimeout(total=60))


def pattern(share: float, start: int, n: int) -> list[bool]:
    """Outcomes `start`..`start + n` of a stream passing exactly `share` of every prefix."""
    return [int((start + i + 1) * share) > int((start + i) * share) for i in range(n)]


async def feed(base_url: str, token: str, comparisons: int, rate: int, until: float) -> Any:
    per_tick = max(2, round(rate * TICK_SECONDS / (2 * comparisons)))
    exports: list[list[float]] = []  # [time, ms]
    headers = {"Content-Type": "application/x-protobuf", "Authorization": f"Bearer {token}"}
    failed: list[str] = []
    url = base_url + "/v1/traces"
    async with _session(4 * comparisons) as client:

        async def post(n: int, release: str, passes: list[bool]) -> None:
            began = time.time()
            body = export(f"svc{n}", release, passes)
            try:
                async with client.post(url, data=body, headers=headers) as answer:
                    await answer.read()
                    code = None if answer.status == 200 else f"HTTP_{answer.status}"
            except (aiohttp.ClientError, TimeoutError) as exc:
                code = type(exc).__name__
            if code is not None:
                failed.append(code)
                return
            exports.append([began, (time.time() - began) * 1000])

        sent = 0
        while time.time() < until:
            tick = time.monotonic()
            sends = []
            for n in range(comparisons):
                worse = n == 0
                for release, share in ((CANDIDATE, 0.6 if worse else 0.9), (BASELINE, 0.9)):
                    passes = pattern(share, sent, per_tick)
                    sends.append(post(n, release, passes))
            await asyncio.gather(*sends)
            sent += per_tick
            await asyncio.sleep(max(0.0, TICK_SECONDS - (time.monotonic() - tick)))
    return {"exports": exports, "per_arm": sent, "failed": failed}


async def readers(
    base_url: str, token: str, ids: list[str], count: int, until: float, pause: float
) -> Any:
    reads: list[list[float]] = []  # [time, ms]
    decided: dict[str, Any] = {}
    failed: list[str] = []
    headers = {"Authorization": f"Bearer {token}"}
    url = base_url + "/graphql"
    async with _session(count) as client:

        async def reader(index: int) -> None:
            live_id = ids[index % len(ids)]
            body = persisted_body("LiveComparisonPage", {"id": live_id})
            while time.time() < until:
                began = time.time()
                try:
                    async with client.post(url, json=body, headers=headers) as answer:
                        raw = await answer.read()
                        ms = (time.time() - began) * 1000
                        status = answer.status
                    found = json.loads(raw)
                except (aiohttp.ClientError, TimeoutError, ValueError) as exc:
                    failed.append(type(exc).__name__)
                    await asyncio.sleep(pause)
                    continue
                if status != 200 or found.get("errors"):
                    failed.append(str(found.get("errors") or status)[:200])
                else:
                    reads.append([began, ms])
                    page = found["data"]["liveComparison"]
                    if page["status"] == "DECIDED" and live_id not in decided:
                        decided[live_id] = time.time()
                await asyncio.sleep(pause)

        await asyncio.gather(*(reader(i) for i in range(count)))
    return {"reads": reads, "decided": decided, "failed": failed}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("kind", choices=["feed", "readers"])
    parser.add_argument("base_url")
    parser.add_argument("token")
    parser.add_argument("what", help="feed: the comparisons; readers: their ids, comma-separated")
    parser.add_argument("number", type=int, help="feed: traces a second; readers: how many")
    parser.add_argument("until", type=float, help="a time.time() to stop at")
    parser.add_argument("out")
    parser.add_argument("--pause", type=float, default=0.1, help="a reader's pause, seconds")
    args = parser.parse_args()
    if args.kind == "feed":
        result = asyncio.run(
            feed(args.base_url, args.token, int(args.what), args.number, args.until)
        )
    else:
        ids = args.what.split(",")
        result = asyncio.run(
            readers(args.base_url, args.token, ids, args.number, args.until, args.pause)
        )
    Path(args.out).write_text(json.dumps(result))


if __name__ == "__main__":
    main()
