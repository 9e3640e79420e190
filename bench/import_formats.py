"""Benchmark: `shipwise run import` of an Inspect `.eval` and a promptfoo results.json.

Synthesizes, from the real fixtures' shapes (tests/fixtures/imports), a `.eval` of
100,000 samples × 1 epoch with Zstandard members (as Inspect 0.3.285 writes them: each
sample a copy of a real one, events and all, with its own id, answer and score) and a
promptfoo results.json of 20,000 rows (1 prompt × 1 provider); serves a fresh PostgreSQL
database and times each import end to end (the whole CLI command), sampling the client's
and the server's peak RSS. The last line printed is one JSON object.

    .venv/bin/python bench/import_formats.py [--samples 100000] [--rows 20000] [--profile F]

`--profile F` records the *client* of the Inspect import with py-spy (.svg or .json).
"""

from __future__ import annotations

import argparse
import copy
import gzip
import json
import sys
import zipfile
from pathlib import Path
from typing import Any

import zstandard

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.harness import SMOKE_HELP, emit, shipwise, site, spied, timed_command
from bench.kit.tool_records import INSPECT, PROMPTFOO_GZ, inspect_samples

TARGET_ITEMS_PER_S = 10_000.0
TARGET_RSS_MB = 300.0
ZSTD = 93


def _zstd_zipfile() -> None:
    """Let `zipfile` write method 93 members with `zstandard`, as Inspect's own patch does."""
    original_check, original_compressor = zipfile._check_compression, zipfile._get_compressor  # type: ignore[attr-defined]

    def check(method: int) -> None:
        if method != ZSTD:
            original_check(method)

    def compressor(method: int, level: int | None = None) -> Any:
        if method == ZSTD:
            return zstandard.ZstdCompressor(level=3).compressobj()
        return original_compressor(method, level)

    zipfile._check_compression = check  # type: ignore[attr-defined]
    zipfile._get_compressor = compressor  # type: ignore[attr-defined]


def write_eval(path: Path, count: int) -> None:
    header, samples = inspect_samples(INSPECT / "sums-fake-good.eval")
    template = next(s for s in samples if s["epoch"] == 1)
    header = copy.deepcopy(header)
    header["eval"]["config"]["epochs"] = 1
    header["eval"]["dataset"]["samples"] = count
    header["eval"]["dataset"]["sample_ids"] = [f"s-{i:06d}" for i in range(count)]
    body = json.dumps(template)
    old_id, old_input = json.dumps(template["id"]), json.dumps(template["input"])
    _zstd_zipfile()
    with zipfile.ZipFile(path, "w", compression=ZSTD) as archive:
        for i in range(count):
            right = i % 4 != 0
            text = (
                body.replace(old_id, json.dumps(f"s-{i:06d}"))
                .replace(
                    old_input, json.dumps(f"What is {i} + {i + 3}? Answer with the number only.")
                )
                .replace('"value": "C"', '"value": "C"' if right else '"value": "I"')
            )
            archive.writestr(f"samples/s-{i:06d}_epoch_1.json", text)
        archive.writestr("header.json", json.dumps(header))


def write_promptfoo(path: Path, rows: int) -> None:
    document = json.loads(gzip.decompress(PROMPTFOO_GZ.read_bytes()))
    results = document["results"]
    template = next(r for r in results["results"] if r["promptIdx"] == 0)
    results["prompts"] = results["prompts"][:1]
    out = []
    for i in range(rows):
        row = copy.deepcopy(template)
        row["testIdx"] = i
        row["vars"] = {"a": i, "b": i + 3, "sum": str(2 * i + 3)}
        row["testCase"]["vars"] = row["vars"]
        row["testCase"]["metadata"] = {"id": f"t-{i:06d}"}
        row["success"] = i % 4 != 0
        row["score"] = 1 if row["success"] else 0
        out.append(row)
    results["results"] = out
    path.write_text(json.dumps(document, indent=2))


def read_alone(path: Path, jsonl: Path) -> float:
    """Items/s of the reader alone (no server): the `.eval` read, converted and written out as
    shipwise JSONL (that file is then the server's ceiling on this machine, imported as is)."""
    import time

    import orjson

    from server.result_formats.checks import streamed
    from server.result_formats.detect import read
    from server.result_formats.reading import Options

    started = time.perf_counter()
    count = 0
    with jsonl.open("wb") as out:
        for reading in read(path, "inspect", Options()):
            for _, item in streamed(reading):
                out.write(orjson.dumps(item) + b"\n")
                count += 1
    return count / (time.perf_counter() - started)


def timed_import(
    env: dict[str, str], path: Path, server_pid: int, profile: str | None = None
) -> dict[str, float]:
    command = spied(shipwise("run", "import", str(path), "--experiment", path.stem), profile)
    timed = timed_command(command, env, server_pid)
    emit(timed.lines[0])
    return {"seconds": timed.seconds, "client_mb": timed.client_mb, "server_mb": timed.server_mb}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=100_000)
    parser.add_argument("--rows", type=int, default=20_000)
    parser.add_argument("--profile", help="py-spy the Inspect import's client into this file.")
    parser.add_argument("--smoke", action="store_true", help=SMOKE_HELP)
    args = parser.parse_args()
    if args.smoke:
        args.samples, args.rows = 1_000, 200

    with site() as bench:
        eval_path = bench.workdir / "large.eval"
        write_eval(eval_path, args.samples)
        emit(f"{args.samples:,} samples, {eval_path.stat().st_size / 1e6:.1f} MB .eval (Zstandard)")
        results_path = bench.workdir / "results.json"
        write_promptfoo(results_path, args.rows)
        emit(
            f"{args.rows:,} promptfoo rows, {results_path.stat().st_size / 1e6:.1f} MB results.json"
        )
        jsonl_path = bench.workdir / "same-items.jsonl"
        reader_rate = read_alone(eval_path, jsonl_path)
        emit(f"reader alone      {reader_rate:,.0f} items/s (the .eval to JSONL, no server)")
        server = bench.serve()
        inspect = timed_import(bench.env, eval_path, server.pid, args.profile)
        promptfoo = timed_import(bench.env, results_path, server.pid)
        ceiling = timed_import(bench.env, jsonl_path, server.pid)
        emit(
            f"shipwise JSONL    {args.samples / ceiling['seconds']:,.0f} items/s end to end: the "
            f"same items, this server and machine now (client {ceiling['client_mb']:.0f} MB)"
        )

    inspect_rate = args.samples / inspect["seconds"]
    promptfoo_rate = args.rows / promptfoo["seconds"]
    emit(
        f"inspect .eval     {inspect['seconds']:.2f} s, {inspect_rate:,.0f} items/s "
        f"({inspect_rate / TARGET_ITEMS_PER_S:.2f}× the 10,000 target); client peak RSS "
        f"{inspect['client_mb']:.0f} MB (limit 300), server {inspect['server_mb']:.0f} MB"
    )
    emit(
        f"promptfoo json    {promptfoo['seconds']:.2f} s, {promptfoo_rate:,.0f} items/s; client "
        f"peak RSS {promptfoo['client_mb']:.0f} MB (read whole), "
        f"server {promptfoo['server_mb']:.0f} MB"
    )
    emit(
        json.dumps(
            {
                "inspect_items_per_s": round(inspect_rate),
                "promptfoo_items_per_s": round(promptfoo_rate),
                "client_peak_rss_mb": round(inspect["client_mb"], 1),
                "smoke": args.smoke,
            }
        )
    )


if __name__ == "__main__":
    main()
