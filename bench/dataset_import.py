"""Benchmark: import 100,000 cases through `shipwise dataset import` into PostgreSQL.

Creates a fresh database, migrates it, serves it with `shipwise serve` in a subprocess,
creates a workspace with `shipwise workspace create`, writes a JSONL file and times the
import command (a subprocess too) while sampling the resident memory of both processes
(and their children) every 50 ms. The database is dropped at the end. The last line printed
is one JSON object.

    .venv/bin/python bench/dataset_import.py [--cases 100000] [--chunk-size 5000] [--profile F]

`SHIPWISE_BENCH_DATABASE_URL` is the admin URL used to create and drop the database
(default postgresql+asyncpg://postgres@127.0.0.1:5432/test).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.harness import SMOKE_HELP, emit, shipwise, site, timed_command

TARGET_CASES_PER_S = 20_000.0
TARGET_RSS_MB = 300.0


def write_cases(path: Path, count: int) -> None:
    """`count` realistic cases: an object input, a string answer, 1 in 5 held out, two tags."""
    with path.open("w") as out:
        for i in range(count):
            case = {
                "datasetItemId": f"item-{i:07d}",
                "input": {
                    "question": f"What is {i} plus {i % 97}? Answer with the number only.",
                    "context": f"arithmetic drill {i % 13}",
                },
                "expected": str(i + i % 97),
                "split": "HOLDOUT" if i % 5 == 0 else "DEV",
                "tags": ["arithmetic", f"bucket-{i % 10}"],
            }
            out.write(json.dumps(case) + "\n")


def run_import(
    env: dict[str, str], path: Path, server_pid: int, chunk_size: int, in_flight: int
) -> dict[str, float]:
    command = shipwise(
        "dataset", "import", str(path), "--name", "bench",
        "--chunk-size", str(chunk_size), "--in-flight", str(in_flight),
    )  # fmt: skip
    timed = timed_command(command, env, server_pid)
    emit(timed.lines[0])
    return {"seconds": timed.seconds, "client_mb": timed.client_mb, "server_mb": timed.server_mb}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=100_000)
    parser.add_argument("--chunk-size", type=int, default=5_000)
    parser.add_argument("--in-flight", type=int, default=3, help="Chunks sent at once.")
    parser.add_argument(
        "--profile", help="Profile the server with py-spy into this file (.txt, .svg or .json)."
    )
    parser.add_argument("--smoke", action="store_true", help=SMOKE_HELP)
    args = parser.parse_args()
    if args.smoke:
        args.cases, args.chunk_size = 2_000, 500

    with site() as bench:
        path = bench.workdir / "cases.jsonl"
        write_cases(path, args.cases)
        emit(f"{args.cases:,} cases, {path.stat().st_size / 1e6:.1f} MB of JSONL")
        server = bench.serve(args.profile)
        figures = run_import(bench.env, path, server.pid, args.chunk_size, args.in_flight)

    rate = args.cases / figures["seconds"]
    peak = max(figures["client_mb"], figures["server_mb"])
    emit(f"wall time        {figures['seconds']:.2f} s (the whole `shipwise dataset import`)")
    ratio = rate / TARGET_CASES_PER_S
    emit(f"throughput       {rate:,.0f} cases/s  ({ratio:.2f}× the 20,000 target)")
    for who in ("client", "server"):
        mb = figures[f"{who}_mb"]
        emit(f"{who} peak RSS  {mb:.0f} MB  ({mb / TARGET_RSS_MB:.2f} of the 300 MB limit)")
    emit(
        json.dumps(
            {
                "cases_per_s": round(rate),
                "peak_rss_mb": round(peak, 1),
                "client_peak_rss_mb": round(figures["client_mb"], 1),
                "server_peak_rss_mb": round(figures["server_mb"], 1),
                "smoke": args.smoke,
            }
        )
    )


if __name__ == "__main__":
    main()
