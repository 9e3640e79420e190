"""Trace ingest: spans/s stored by one `shipwise serve` on PostgreSQL from 4 OTLP/HTTP
clients, the API's RSS growth, then the trace list's and one trace's p99 at 20 clients; and
Arize Phoenix on the same load on the same machine, for the ratio (docs/benchmarks.md,
"Trace ingest"; docs/traces.md).

The load is the four-span agent shape with ~1.5 KB of messages a span
(`bench/kit/agent_traces.py`), 50 traces (200 spans) an export, protobuf. A span counts as
stored when `traces { totalCount }` shows its trace: the rate is spans over the time from the
first export to every trace queryable. The API's RSS (with its children, the prepare workers)
is sampled every 50 ms from a warm start (one export first: code, connections and workers
warm), and its CPU (with its children) counted over the ingest, per span: a figure the
machine's load moves less than spans/s. Then, with everything stored (and the trace tables
vacuumed and analyzed when the server's autovacuum is off, as autovacuum would soon have
done), 20 clients read in turn for
`--read-seconds` each: the first page of `/traces` (50 rows), a filtered page (`status:
ERROR, model`), and `/traces/:id` (`trace(id)` with its steps), as the portal sends them
(its persisted documents); then the same three as query texts of the bench's own (`*_text`),
with the API's CPU a request for each. Targets (issue 46): ≥ 15,000 spans/s stored,
RSS growth ≤ 150 MB, no 5xx, list p99 ≤ 250 ms, trace p99 ≤ 100 ms.

Phoenix runs when `PHOENIX_BIN` names its executable or `phoenix` is on the PATH (else its
figures are null and the bench says so; install: `bench/kit/phoenix.py`), on a database of its
own on the same PostgreSQL:
`--phoenix-spans` of the same load, its stored rate measured until every trace shows in its
`traceCount` or `--phoenix-seconds` pass (then what it stored by then, over that time).

    .venv/bin/python bench/trace_ingest.py --smoke           # 2,000 spans, no Phoenix
    PHOENIX_BIN=~/phoenix-venv/bin/phoenix .venv/bin/python bench/trace_ingest.py \\
        --spans 100000

Ends with one JSON line: {"spans", "spans_per_s_stored", "acked_seconds", "stored_seconds",
"phoenix_spans", "phoenix_spans_per_s_stored", "ratio_to_phoenix", "api_rss_growth_mb",
"api_cpu_us_per_span", "api_cpu_us_per_span_in_workers", "pg_cpu_us_per_span",
"vacuumed_before_reads",
"server_errors", "list_p99_ms", "filtered_p99_ms", "trace_p99_ms", "list_text_p99_ms",
"filtered_text_p99_ms", "trace_text_p99_ms", each read's `*_failures` and
`*_api_cpu_ms_per_request`, "smoke"}.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import aiohttp
import psutil

from bench.harness import SMOKE_HELP, PeakRss, create_database, drop_database, emit, site
from bench.kit.agent_traces import MODEL, SPANS_PER_TRACE, Template, template
from bench.kit.phoenix import Phoenix, phoenix_bin
from bench.kit.portal_documents import persisted_body

TRACES_PER_EXPORT = 50
INGEST_CLIENTS = 4
WARM_EXPORTS = 2 * INGEST_CLIENTS
READ_CLIENTS = 20
PROTOBUF = {"Content-Type": "application/x-protobuf"}
COUNT = "{ traces(first: 1) { totalCount } }"
LIST = """query($filter: TraceFilter) { traces(filter: $filter, first: 50) {
  totalCount edges { node { id service release startedAt durationMs status rootName input output
  models stepCount llmCalls toolCalls inputTokens outputTokens costCents caseId hasFeedback } }
} }"""
TRACE = """query($id: ID!) { trace(id: $id) { id status steps { id kind name startedAt durationMs
  status model inputTokens outputTokens toolName arguments result parentId
  inputMessages { role content } outputMessages { role content toolCalls { name arguments } } }
} }"""


async def ingest(
    url: str, headers: dict[str, str], body: Template, exports: int
) -> tuple[float, dict[int, int], list[str]]:
    """`exports` bodies from `INGEST_CLIENTS` clients: (seconds, statuses, some trace ids)."""
    statuses: dict[int, int] = {}
    sample: list[str] = []
    left = iter(range(exports))

    async def client(session: aiohttp.ClientSession) -> None:
        for _ in left:
            data, prefix = body.body()
            while True:
                async with session.post(url, data=data, headers=headers) as answer:
                    await answer.read()
                    statuses[answer.status] = statuses.get(answer.status, 0) + 1
                    if answer.status not in (429, 503):
                        break
                    await asyncio.sleep(float(answer.headers.get("Retry-After", "1")))
            if len(sample) < 1_000:
                sample.append(body.trace_id(prefix, random.randrange(body.traces)))

    timeout = aiohttp.ClientTimeout(total=120)
    async with aiohttp.ClientSession(timeout=timeout) as session:
        started = time.perf_counter()
        await asyncio.gather(*(client(session) for _ in range(INGEST_CLIENTS)))
        return time.perf_counter() - started, statuses, sample


async def graphql(
    session: aiohttp.ClientSession, url: str, query: str, variables: dict[str, Any] | None = None
) -> dict[str, Any]:
    async with session.post(url, json={"query": query, "variables": variables or {}}) as answer:
        found: dict[str, Any] = await answer.json()
    if answer.status != 200 or found.get("errors"):
        raise SystemExit(f"{answer.status}: {json.dumps(found)[:500]}")
    data: dict[str, Any] = found["data"]
    return data


async def wait_stored(base: str, token: str, traces: int, bound_seconds: float) -> None:
    """Until `traces` traces are queryable (a bound against a hang, not a delay)."""
    headers = {"Authorization": f"Bearer {token}"}
    deadline = time.monotonic() + bound_seconds
    async with aiohttp.ClientSession(headers=headers) as session:
        while time.monotonic() < deadline:
            data = await graphql(session, f"{base}/graphql", COUNT)
            if data["traces"]["totalCount"] >= traces:
                return
            await asyncio.sleep(0.2)
    raise SystemExit(f"not every trace was queryable within {bound_seconds:.0f} s")


async def read_p99(
    base: str, token: str, bodies: list[dict[str, Any]], seconds: float
) -> tuple[float, int, int]:
    """(p99 ms, requests, non-2xx) of `READ_CLIENTS` clients posting `bodies` in turn."""
    headers = {"Authorization": f"Bearer {token}"}
    latencies: list[float] = []
    failures = 0
    deadline = time.monotonic() + seconds

    async def client(session: aiohttp.ClientSession, offset: int) -> None:
        nonlocal failures
        turn = offset
        while time.monotonic() < deadline:
            body = bodies[turn % len(bodies)]
            turn += 1
            started = time.perf_counter()
            async with session.post(f"{base}/graphql", json=body) as answer:
                found = await answer.json()
            latencies.append((time.perf_counter() - started) * 1000)
            if answer.status != 200 or found.get("errors"):
                failures += 1
                if failures < 3:
                    emit(f"a failed read: {answer.status} {json.dumps(found)[:600]}")

    connector = aiohttp.TCPConnector(limit=READ_CLIENTS)
    async with aiohttp.ClientSession(headers=headers, connector=connector) as session:
        await asyncio.gather(*(client(session, i) for i in range(READ_CLIENTS)))
    latencies.sort()
    p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))] if latencies else 0.0
    return round(p99, 1), len(latencies), failures


def cpu_seconds(pid: int) -> tuple[float, float]:
    """User + system CPU so far of the API process and of its children (the prepare workers):
    per span, a cost the machine's load changes less than it changes spans/s."""
    process = psutil.Process(pid)
    own = process.cpu_times()
    children = 0.0
    for child in process.children(recursive=True):
        times = child.cpu_times()
        children += times.user + times.system
    return own.user + own.system, children


async def vacuum_if_no_autovacuum(database_url: str) -> bool:
    """`VACUUM (ANALYZE)` the trace tables when the server's autovacuum is off (as on the
    shared development machine), so the reads meet what a server with autovacuum, PostgreSQL's
    default, reaches by itself soon after a burst: pages all-visible for the list's index-only
    count, and the tables' sizes known to the planner. Whether it ran."""
    import asyncpg  # type: ignore[import-untyped]

    connection = await asyncpg.connect(database_url.replace("postgresql+asyncpg", "postgresql"))
    try:
        if await connection.fetchval("SHOW autovacuum") == "on":
            return False
        await connection.execute("VACUUM (ANALYZE) trace, trace_span")
        return True
    finally:
        await connection.close()


async def pg_backend_cpu(database_url: str) -> dict[int, float]:
    """User + system CPU so far of each PostgreSQL backend serving the bench's database (the
    API's pooled connections; this one's own excluded), by pid: PostgreSQL's part of a span's
    cost. A backend that ends during the ingest takes its CPU with it (the API's pool keeps
    its connections)."""
    import asyncpg

    connection = await asyncpg.connect(database_url.replace("postgresql+asyncpg", "postgresql"))
    try:
        pids = await connection.fetch(
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database()"
            " AND pid <> pg_backend_pid()"
        )
    finally:
        await connection.close()
    found: dict[int, float] = {}
    for (pid,) in pids:
        try:
            times = psutil.Process(pid).cpu_times()
        except psutil.Error:
            continue
        found[pid] = times.user + times.system
    return found


def rss_mb(pid: int) -> float:
    process = psutil.Process(pid)
    total = int(process.memory_info().rss) + sum(
        int(child.memory_info().rss) for child in process.children(recursive=True)
    )
    return total / (1024 * 1024)


def measure_phoenix(binary: str, exports: int, body: Template, bound: float) -> dict[str, Any]:
    """Phoenix's stored spans/s on `exports` bodies, on a database of its own."""
    database_url, name = asyncio.run(create_database())
    workdir = Path(tempfile.mkdtemp(prefix="phoenix-bench-"))
    phoenix = Phoenix(binary, database_url, workdir)
    try:
        phoenix.wait_ready()
        url = f"{phoenix.url}/v1/traces"
        acked, statuses, _ = asyncio.run(ingest(url, PROTOBUF, body, exports))
        emit(f"phoenix acknowledged {exports * body.spans:,} spans in {acked:.1f} s: {statuses}")
        wanted = exports * body.traces
        started = time.monotonic() - acked
        deadline = time.monotonic() + bound
        stored = phoenix.traces_stored()
        while stored < wanted and time.monotonic() < deadline:
            time.sleep(1.0)
            stored = phoenix.traces_stored()
        seconds = time.monotonic() - started
        spans = stored * SPANS_PER_TRACE
        emit(f"phoenix stored {spans:,} of {wanted * SPANS_PER_TRACE:,} spans in {seconds:.0f} s")
        return {"phoenix_spans": spans, "phoenix_spans_per_s_stored": round(spans / seconds, 1)}
    finally:
        phoenix.stop()
        asyncio.run(drop_database(name))
        shutil.rmtree(workdir, ignore_errors=True)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--spans", type=int, default=1_000_000)
    parser.add_argument("--read-seconds", type=float, default=20.0)
    parser.add_argument("--phoenix-spans", type=int, default=20_000)
    parser.add_argument("--phoenix-seconds", type=float, default=300.0)
    parser.add_argument("--no-phoenix", action="store_true")
    parser.add_argument("--profile", help="py-spy the server into this .svg or .json")
    parser.add_argument("--smoke", action="store_true", help=SMOKE_HELP)
    args = parser.parse_args(argv)
    if args.smoke:
        args.spans, args.read_seconds, args.no_phoenix = 2_000, 2.0, True
    body = template(TRACES_PER_EXPORT)
    exports = max(1, args.spans // body.spans)
    spans = exports * body.spans
    figures: dict[str, Any] = {"spans": spans, "smoke": args.smoke}
    with site() as bench:
        server = bench.serve(args.profile)
        base, token = bench.env["SHIPWISE_URL"], bench.env["SHIPWISE_TOKEN"]
        auth = {"Authorization": f"Bearer {token}"}
        asyncio.run(_settings(base, token))
        # code, connections and every prepare worker warm: the pool starts a worker only when
        # an export finds none idle, so one export alone left the others' start-up (importing
        # the server, ~1 s of CPU each) in the measured CPU a span
        asyncio.run(ingest(f"{base}/v1/traces", auth | PROTOBUF, body, WARM_EXPORTS))
        base_mb, base_cpu = rss_mb(server.pid), cpu_seconds(server.pid)
        base_pg = asyncio.run(pg_backend_cpu(bench.database_url))
        emit(f"posting {spans:,} spans ({exports:,} exports) from {INGEST_CLIENTS} clients")
        with PeakRss(server.pid) as peak:
            acked, statuses, sample = asyncio.run(
                ingest(f"{base}/v1/traces", auth | PROTOBUF, body, exports)
            )
            asyncio.run(wait_stored(base, token, (exports + WARM_EXPORTS) * body.traces, 600))
            stored = time.perf_counter()
            api_cpu = [
                now - then for now, then in zip(cpu_seconds(server.pid), base_cpu, strict=True)
            ]
            pg_cpu = asyncio.run(pg_backend_cpu(bench.database_url))
        stored_seconds = acked + (time.perf_counter() - stored)
        server_errors = sum(n for status, n in statuses.items() if status >= 500)
        figures |= {
            "acked_seconds": round(acked, 2),
            "stored_seconds": round(stored_seconds, 2),
            "spans_per_s_stored": round(spans / stored_seconds, 1),
            "api_rss_growth_mb": round(peak.peak_mb - base_mb, 1),
            "api_cpu_us_per_span": round(sum(api_cpu) / spans * 1e6, 1),
            "api_cpu_us_per_span_in_workers": round(api_cpu[1] / spans * 1e6, 1),
            "pg_cpu_us_per_span": round(
                sum(cpu - base_pg.get(pid, 0.0) for pid, cpu in pg_cpu.items()) / spans * 1e6, 1
            ),
            "server_errors": server_errors,
            "statuses": {str(k): v for k, v in sorted(statuses.items())},
        }
        emit(
            f"stored {spans:,} spans in {stored_seconds:.1f} s: "
            f"{figures['spans_per_s_stored']:,.0f} spans/s (target ≥ 15,000); RSS growth "
            f"{figures['api_rss_growth_mb']} MB (≤ 150); API CPU "
            f"{figures['api_cpu_us_per_span']} µs a span "
            f"({figures['api_cpu_us_per_span_in_workers']} in its workers), PostgreSQL's "
            f"backends {figures['pg_cpu_us_per_span']} µs; statuses {statuses}"
        )
        figures["vacuumed_before_reads"] = asyncio.run(vacuum_if_no_autovacuum(bench.database_url))
        if figures["vacuumed_before_reads"]:
            emit("autovacuum is off: VACUUM (ANALYZE) trace, trace_span before the reads")
        for name, bodies in read_bodies(sample):
            cpu_before = sum(cpu_seconds(server.pid))
            p99, requests, failures = asyncio.run(read_p99(base, token, bodies, args.read_seconds))
            cpu_ms = (sum(cpu_seconds(server.pid)) - cpu_before) / max(1, requests) * 1000
            figures[f"{name}_p99_ms"] = p99
            figures[f"{name}_failures"] = failures
            figures[f"{name}_api_cpu_ms_per_request"] = round(cpu_ms, 2)
            emit(
                f"{name}: p99 {p99} ms over {requests} requests at {READ_CLIENTS} clients, "
                f"API CPU {cpu_ms:.2f} ms a request"
            )
    figures |= _phoenix(args, body)
    theirs = figures["phoenix_spans_per_s_stored"]
    if theirs:
        figures["ratio_to_phoenix"] = round(figures["spans_per_s_stored"] / theirs, 1)
        emit(f"shipwise stores {figures['ratio_to_phoenix']}× Phoenix's spans/s")
    emit(json.dumps(figures))


def read_bodies(sample: list[str]) -> list[tuple[str, list[dict[str, Any]]]]:
    """Each read by name: the portal's `/traces` page (first 50), the same filtered to failed
    traces of the bench's model, and `/traces/:id`, as the portal sends them (its persisted
    documents, by hash: `bench/kit/portal_documents.py`); then the same three as this bench's
    own query texts (`_text`), which the server parses, validates and executes field by field
    rather than from a compiled plan."""
    error_filter = {"status": "ERROR", "model": MODEL}
    return [
        ("list", [persisted_body("TracesPage", {"first": 50})]),
        ("filtered", [persisted_body("TracesPage", {"first": 50, "filter": error_filter})]),
        ("trace", [persisted_body("TracePage", {"id": trace}) for trace in sample]),
        ("list_text", [{"query": LIST}]),
        ("filtered_text", [{"query": LIST, "variables": {"filter": error_filter}}]),
        ("trace_text", [{"query": TRACE, "variables": {"id": trace}} for trace in sample]),
    ]


def _phoenix(args: argparse.Namespace, body: Template) -> dict[str, Any]:
    none: dict[str, Any] = {
        "phoenix_spans": None,
        "phoenix_spans_per_s_stored": None,
        "ratio_to_phoenix": None,
    }
    binary = phoenix_bin()
    if args.no_phoenix or binary is None:
        why = "--smoke or --no-phoenix" if args.no_phoenix else "no PHOENIX_BIN nor phoenix"
        emit(f"Phoenix not measured ({why}): its figures are null")
        return none
    exports = max(1, args.phoenix_spans // body.spans)
    return none | measure_phoenix(binary, exports, body, args.phoenix_seconds)


async def _settings(base: str, token: str) -> None:
    """The token's rate raised past the load: the bench measures storing, not the limit."""
    mutation = """mutation { updateWorkspaceSettings(input: {requestsPerMinutePerToken: 100000})
      { id } }"""
    async with aiohttp.ClientSession(headers={"Authorization": f"Bearer {token}"}) as session:
        await graphql(session, f"{base}/graphql", mutation)


if __name__ == "__main__":
    main()
