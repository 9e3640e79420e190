"""Live comparisons under load (docs/live.md, docs/benchmarks.md): live comparisons fed
traces over OTLP at a steady rate while readers poll `liveComparison(id)` as the portal's
`/live/:id` does. The embedded runtime (in-process grading jobs) served by uvicorn, on
SQLite, or with `--postgres` on a PostgreSQL database of its own; the load clients run in the
same process. Each tick (10 a second) posts every arm's export at once; the run lifts the
workspace's per-token limit, which 20 readers and 80 exports a second pass.

Full size: 4 live comparisons, 2,000 traces/s for 5 minutes, 20 readers. `--smoke`: 2
comparisons, 400 traces/s for 8 s, 4 readers; `--comparisons`, `--rate`, `--seconds`,
`--readers` override either. One comparison's candidate passes 30 points less than its
baseline, so it decides (DONT_SHIP) while traffic flows; the others are equal.

Last line, JSON: `read_p99_ms`, `decision_visible_ms` (from the return of the later of the
two exports holding the traces that decided it to a reader seeing DECIDED), `graded_once`
(every grade row's trace is distinct and no trace was graded twice), `rss_growth_mb` (this
process after its first minute to the end; null under a minute), `traces_per_s` (achieved),
`export_p99_ms`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cryptography.fernet import Fernet
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
from opentelemetry.proto.common.v1.common_pb2 import AnyValue, KeyValue
from sqlalchemy import func, select

from bench.harness import create_database, drop_database
from bench.kit.factories import make_workspace
from bench.kit.harness import Backend, start_backend
from server.live.models import LiveGrade
from server.migrate import upgrade
from server.settings import Settings
from server.workspaces.roles import Role

CREATE = """mutation($i: CreateLiveComparisonInput!) { createLiveComparison(input: $i) { id } }"""
SETTINGS = """mutation($i: WorkspaceSettingsInput!) { updateWorkspaceSettings(input: $i) { id } }"""
REQUESTS_PER_MINUTE = 100_000
"""The tokens' limit for the run: 20 readers and 80 exports a second pass the default 600."""
READ_PAUSE_SECONDS = 0.1
"""Between one reader's reads: 20 readers make 200 reads a second at most."""
HEADERS = {"Content-Type": "application/x-protobuf"}
READ = """query($id: ID!) { liveComparison(id: $id) {
  status arms { release graded passRate } decision { outcome } sequence { traces low high } } }"""


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


def rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


async def run(
    comparisons: int, rate: int, seconds: float, readers: int, *, postgres: bool = False
) -> dict[str, Any]:
    """One run on embedded SQLite, or on a fresh PostgreSQL database of its own."""
    with tempfile.TemporaryDirectory() as tmp:
        database, name = (await create_database()) if postgres else ("", "")
        settings = Settings(
            data_dir=Path(tmp), secret_key=Fernet.generate_key().decode(), database_url=database
        )
        try:
            await asyncio.to_thread(upgrade, settings.database_url)
            async with start_backend("postgres" if postgres else "sqlite", settings) as backend:
                return await _drive(backend, comparisons, rate, seconds, readers)
        finally:
            if name:
                await drop_database(name)


def _visible_ms(
    seen: dict[str, float], returned: dict[str, list[tuple[float, int]]], live_id: str
) -> float | None:
    """From the moment the traces that decided it were stored to a reader seeing DECIDED:
    the decision was made from the arms' first `graded` traces, stored by the later of the
    returns of the two exports holding each arm's last one."""
    if live_id not in seen:
        return None
    deciding = max(
        next(
            (at for at, upto in returned[release] if upto >= seen[f"{live_id}:{release}"]),
            seen[live_id],
        )
        for release in ("v2", "v1")
    )
    return (seen[live_id] - deciding) * 1000


async def _drive(
    backend: Backend, comparisons: int, rate: int, seconds: float, readers: int
) -> dict[str, Any]:
    ws = await make_workspace(backend.sessionmaker)
    member, viewer = ws.tokens[Role.MEMBER], ws.tokens[Role.VIEWER]
    limit = {"i": {"requestsPerMinutePerToken": REQUESTS_PER_MINUTE}}
    (await backend.gql(SETTINGS, limit, token=ws.owner)).ok()
    ids = []
    for n in range(comparisons):
        spec = {"service": f"svc{n}", "candidateRelease": "v2", "baselineReleases": ["v1"]}
        ids.append(
            (await backend.gql(CREATE, {"i": spec}, token=member)).ok()["createLiveComparison"][
                "id"
            ]
        )
    posted: list[tuple[float, int]] = []  # (tick's end, traces an arm so far)
    returned: dict[str, list[tuple[float, int]]] = {"v2": [], "v1": []}
    """svc0's exports an arm: (when it returned, that arm's traces up to it)."""
    latencies: list[float] = []
    seen_decided: dict[str, float] = {}
    stop = asyncio.Event()
    start = time.monotonic()
    rss_at_minute: float | None = None

    exports: list[float] = []

    async def post(service: str, release: str, passes: list[bool], upto: int) -> None:
        began = time.monotonic()
        answer = await backend.client.post(
            "/v1/traces", content=export(service, release, passes),
            headers={**HEADERS, "Authorization": f"Bearer {member}"},
        )  # fmt: skip
        exports.append((time.monotonic() - began) * 1000)
        assert answer.status_code == 200, answer.text
        if service == "svc0":
            returned[release].append((time.monotonic(), upto))

    async def feed() -> None:
        """A tick's exports go out together, as independent services' exporters would."""
        nonlocal rss_at_minute
        per_tick = max(2, rate // 10 // (2 * comparisons))  # 10 exports a second per arm
        sent = 0
        while time.monotonic() - start < seconds:
            tick = time.monotonic()
            sends = []
            for n in range(comparisons):
                worse = n == 0
                for release, share in (("v2", 0.6 if worse else 0.9), ("v1", 0.9)):
                    passes = [
                        int((sent + i + 1) * share) > int((sent + i) * share)
                        for i in range(per_tick)
                    ]
                    sends.append(post(f"svc{n}", release, passes, sent + per_tick))
            await asyncio.gather(*sends)
            sent += per_tick
            posted.append((time.monotonic(), sent))
            if rss_at_minute is None and time.monotonic() - start >= 60:
                rss_at_minute = rss_mb()
            await asyncio.sleep(max(0.0, 0.1 - (time.monotonic() - tick)))
        stop.set()

    async def read(index: int) -> None:
        live_id = ids[index % len(ids)]
        while not stop.is_set():
            began = time.monotonic()
            found = (await backend.gql(READ, {"id": live_id}, token=viewer)).ok()["liveComparison"]
            latencies.append((time.monotonic() - began) * 1000)
            if found["status"] == "DECIDED" and live_id not in seen_decided:
                seen_decided[live_id] = time.monotonic()
                for arm in found["arms"]:
                    seen_decided[f"{live_id}:{arm['release']}"] = arm["graded"]
            await asyncio.sleep(READ_PAUSE_SECONDS)

    await asyncio.gather(feed(), *(read(i) for i in range(readers)))
    achieved = posted[-1][1] * 2 * comparisons / (time.monotonic() - start) if posted else 0.0
    visible = _visible_ms(seen_decided, returned, ids[0])
    async with backend.sessionmaker() as session:
        rows = await session.scalar(select(func.count()).select_from(LiveGrade))
        distinct = await session.scalar(
            select(func.count()).select_from(
                select(LiveGrade.live_comparison_id, LiveGrade.trace_id).distinct().subquery()
            )
        )
    latencies.sort()
    exports.sort()
    p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))] if latencies else None
    return {
        "read_p99_ms": round(p99, 1) if p99 is not None else None,
        "decision_visible_ms": round(visible, 1) if visible is not None else None,
        "graded_once": bool(rows) and rows == distinct,
        "rss_growth_mb": None if rss_at_minute is None else round(rss_mb() - rss_at_minute, 1),
        "traces_per_s": round(achieved, 1),
        "export_p99_ms": round(exports[int(len(exports) * 0.99)], 1) if exports else None,
        "graded": rows,
        "reads": len(latencies),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--smoke", action="store_true", help="2 comparisons, 400/s, 8 s, 4 readers")
    parser.add_argument(
        "--postgres", action="store_true", help="PostgreSQL (a database of its own), not SQLite"
    )
    parser.add_argument("--comparisons", type=int, help="override the size's comparisons")
    parser.add_argument("--rate", type=int, help="override the traces a second asked")
    parser.add_argument("--seconds", type=float, help="override the duration")
    parser.add_argument("--readers", type=int, help="override the readers")
    args = parser.parse_args()
    size = [2, 400, 8.0, 4] if args.smoke else [4, 2000, 300.0, 20]
    for index, given in enumerate((args.comparisons, args.rate, args.seconds, args.readers)):
        if given is not None:
            size[index] = given
    comparisons, rate, seconds, readers = size
    figures = asyncio.run(
        run(int(comparisons), int(rate), float(seconds), int(readers), postgres=args.postgres)
    )
    figures["smoke"] = args.smoke
    figures["backend"] = "postgresql" if args.postgres else "sqlite"
    figures["size"] = {"comparisons": comparisons, "rate": rate, "seconds": seconds,
                       "readers": readers}  # fmt: skip
    print(json.dumps(figures))  # noqa: T201


if __name__ == "__main__":
    main()
