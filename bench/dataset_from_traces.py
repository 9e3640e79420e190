"""Benchmark: a dataset sampled from 100,000 matched traces on PostgreSQL, in one mutation.

Creates a fresh database, migrates it, writes N traces (one model call each, a stored span
with its input messages; 1 in 5 repeats an earlier question in other case and spacing, 1 in
50 carries an email) with bulk inserts, serves it with `shipwise serve`, and times
`previewDatasetFromTraces` and `createDatasetFromTraces` over GraphQL: every trace of the
workspace matched, 1,000 taken, stratified by release, de-duplicated, every redaction kind.
The target: the create answers in at most 10 s. The last line printed is one JSON object.

    .venv/bin/python bench/dataset_from_traces.py [--traces 100000] [--size 1000] [--smoke]

`SHIPWISE_BENCH_DATABASE_URL` is the admin URL used to create and drop the database
(default postgresql+asyncpg://postgres@127.0.0.1:5432/test).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sqlalchemy import insert, select

from bench.harness import SMOKE_HELP, emit, site
from server.db import create_engine
from server.traces.models import Trace, TraceSpan
from server.workspaces.models import Workspace

TARGET_SECONDS = 10.0
BATCH = 5_000
RELEASES = ("v1", "v2", "v3", "canary")
CREATE = """mutation($i: CreateDatasetFromTracesInput!) { createDatasetFromTraces(input: $i) {
  matched taken duplicates redacted strata { key taken } version { id caseCount } } }"""
PREVIEW = """query($i: CreateDatasetFromTracesInput!) { previewDatasetFromTraces(input: $i) {
  matched taken duplicates redacted } }"""


def base(n: int) -> str:
    return f"Where is my order {n}? It was placed on the {n % 28 + 1}th."


def question(n: int) -> str:
    """Trace n's question: every fifth repeats the one before, cased and spaced otherwise."""
    if n % 5 == 4:
        return "  " + base(n - 1).upper().replace(" ", "   ") + " "
    mail = f" Reach me at buyer{n}@example.com." if n % 50 == 0 else ""
    return base(n) + mail


def rows(workspace_id: str, low: int, high: int) -> tuple[list[Any], list[Any]]:
    start = datetime.now(UTC) - timedelta(hours=1)
    traces, spans = [], []
    for n in range(low, high):
        trace_id = f"{n:032x}"
        text = question(n)
        release = RELEASES[n % len(RELEASES)]
        at = start + timedelta(milliseconds=n)
        traces.append(
            {
                "workspace_id": workspace_id, "id": trace_id, "service": "shop",
                "release": release, "started_at": at, "duration_ms": 120.0, "status": "OK",
                "root_name": "chat gpt-a", "input": text, "output": f"Order {n} ships today.",
                "models": ["gpt-a"], "model_key": "gpt-a", "step_count": 1, "llm_calls": 1,
                "tool_calls": 0, "input_tokens": 40, "output_tokens": 8, "cost_micros": 12,
                "case_id": None, "expected": None, "span_feedback": [], "has_feedback": False,
                "updated_at": at,
            }
        )  # fmt: skip
        messages = [
            {"role": "system", "content": "You answer shoppers.", "toolCalls": []},
            {"role": "user", "content": text, "toolCalls": []},
        ]
        spans.append(
            {
                "workspace_id": workspace_id, "trace_id": trace_id, "span_id": f"{n:016x}",
                "parent_span_id": None, "started_at": at, "service": "shop",
                "step": {"id": f"{n:016x}", "kind": "LLM", "name": "chat gpt-a",
                         "model": "gpt-a", "inputMessages": messages},
                "attributes": {"span": {"shipwise.release": release}, "resource": {},
                               "events": []},
                "received_at": at,
            }
        )  # fmt: skip
    return traces, spans


async def seed(database_url: str, count: int) -> float:
    """Write `count` traces and their spans; the seconds it took."""
    engine = create_engine(database_url)
    started = time.perf_counter()
    try:
        async with engine.begin() as connection:
            workspace_id = (await connection.execute(select(Workspace.id))).scalar_one()
            for low in range(0, count, BATCH):
                traces, spans = rows(workspace_id, low, min(low + BATCH, count))
                await connection.execute(insert(Trace), traces)
                await connection.execute(insert(TraceSpan), spans)
    finally:
        await engine.dispose()
    return time.perf_counter() - started


def timed(client: httpx.Client, document: str, variables: dict[str, Any]) -> tuple[float, Any]:
    started = time.perf_counter()
    answer = client.post("/graphql", json={"query": document, "variables": variables}).json()
    seconds = time.perf_counter() - started
    if answer.get("errors"):
        raise SystemExit(f"the request failed: {answer['errors']}")
    return seconds, answer["data"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--traces", type=int, default=100_000)
    parser.add_argument("--size", type=int, default=1_000, help="Traces taken.")
    parser.add_argument("--smoke", action="store_true", help=SMOKE_HELP)
    args = parser.parse_args()
    if args.smoke:
        args.traces, args.size = 2_000, 100
    request = {
        "filter": {"service": "shop"},
        "sample": {"size": args.size, "seed": 7, "stratifyBy": "RELEASE"},
        "redact": ["EMAIL", "PHONE", "CARD_NUMBER", "API_KEY", "IP_ADDRESS"],
    }
    with site() as bench:
        seeded = asyncio.run(seed(bench.database_url, args.traces))
        emit(f"{args.traces:,} traces written in {seeded:.1f} s")
        bench.serve()
        headers = {"Authorization": f"Bearer {bench.env['SHIPWISE_TOKEN']}"}
        with httpx.Client(base_url=bench.env["SHIPWISE_URL"], headers=headers, timeout=120) as c:
            preview_s, shown = timed(c, PREVIEW, {"i": request})
            create_s, made = timed(c, CREATE, {"i": {**request, "name": "from traffic"}})
    counts = made["createDatasetFromTraces"]
    assert counts["matched"] == args.traces, counts
    assert shown["previewDatasetFromTraces"]["taken"] == counts["taken"]
    emit(f"preview          {preview_s:.2f} s")
    emit(
        f"create           {create_s:.2f} s ({create_s / TARGET_SECONDS:.2f} of the 10 s target): "
        f"{counts['matched']:,} matched, {counts['taken']:,} taken, "
        f"{counts['duplicates']:,} duplicates, {counts['redacted']:,} values redacted"
    )
    emit(
        json.dumps(
            {
                "create_seconds": round(create_s, 3),
                "preview_seconds": round(preview_s, 3),
                "matched": counts["matched"],
                "taken": counts["taken"],
                "duplicates": counts["duplicates"],
                "cpu_count": os.cpu_count(),
                "smoke": args.smoke,
            }
        )
    )


if __name__ == "__main__":
    main()
