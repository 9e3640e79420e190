"""`shipwise run import --format inspect | promptfoo | lm-eval | openai-evals`.

A reader (`server.result_formats`) turns the tool's file into run items, sent in chunks as a
shipwise JSONL is (`run_import`); an item the server refuses is named by the tool's own
line or zip member, which each chunk remembers. A file with several runs (promptfoo's
prompt × provider pairs) is read and checked whole before any run starts, so a bad record
leaves no run at all; a single run streams, and a refusal midway leaves it FAILED.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from server.cli.client import ApiClient, ApiError
from server.cli.commands import chunk_upload, run_import
from server.cli.commands.chunk_upload import DEFAULT_IN_FLIGHT, MAX_CHUNK_BYTES, Chunk
from server.cli.commands.client_setup import OPERATIONAL_ERROR, fail
from server.cli.commands.client_setup import run_import as run_import_call
from server.result_formats.checks import checked, streamed
from server.result_formats.reading import Located, Options, Refused, RunToImport, describe
from server.runs.items import MAX_ITEMS_PER_CHUNK
from server.words import words


@dataclass
class LocatedChunk(Chunk):
    """A chunk that remembers where in the tool's file each item came from."""

    wheres: list[str] = field(default_factory=list)


def chunks(items: Iterable[Located], chunk_size: int) -> Iterator[LocatedChunk]:
    """The items as JSON, in chunks of at most `chunk_size` items and about MAX_CHUNK_BYTES."""
    chunk = LocatedChunk()
    for number, (where, item) in enumerate(items, start=1):
        try:
            body = orjson.dumps(item)
        except orjson.JSONEncodeError as exc:  # e.g. an integer beyond 64 bits in an input
            raise Refused(where, f"cannot be sent as JSON ({exc})") from None
        chunk.cases.append(body)
        chunk.lines.append(number)
        chunk.wheres.append(where)
        chunk.size += len(body)
        if len(chunk.cases) >= chunk_size or chunk.size >= MAX_CHUNK_BYTES:
            yield chunk
            chunk = LocatedChunk()
    if chunk.cases:
        yield chunk


@dataclass(frozen=True)
class ImportedRun:
    label: str | None
    imported: run_import.Imported


def import_readings(
    client: ApiClient,
    path: Path,
    readings: list[RunToImport],
    *,
    fmt: str,
    options: Options,
    experiment: str,
    idempotency_key: str | None = None,
    metadata: dict[str, Any] | None = None,
    chunk_size: int = MAX_ITEMS_PER_CHUNK,
    in_flight: int = DEFAULT_IN_FLIGHT,
    judge_evaluator: str | None = None,
) -> list[ImportedRun]:
    """Import each reading as its own run (COMPLETED), in order."""
    experiment_id = run_import.find_or_create_experiment(client, experiment)
    base_key = idempotency_key or (
        f"{run_import.default_key(path, experiment)}:{fmt}:{options.key()}"
    )
    several = len(readings) > 1
    prepared: list[tuple[RunToImport, Iterable[Located]]] = [
        (r, list(checked(r)) if several else streamed(r)) for r in readings
    ]
    done = []
    for reading, items in prepared:
        key = f"{base_key}#{reading.label}" if several else base_key
        meta = {**(metadata or {}), "source": reading.source}
        done.append(
            ImportedRun(
                reading.label,
                _import_one(
                    client,
                    experiment_id,
                    key,
                    meta,
                    items,
                    chunk_size,
                    in_flight,
                    judge_evaluator=judge_evaluator,
                ),  # fmt: skip
            )
        )
    return done


def _import_one(
    client: ApiClient,
    experiment_id: str,
    key: str,
    metadata: dict[str, Any],
    items: Iterable[Located],
    chunk_size: int,
    in_flight: int,
    *,
    judge_evaluator: str | None = None,
) -> run_import.Imported:
    variables = {"e": experiment_id, "k": key, "m": metadata, "j": judge_evaluator}
    started = client.execute(run_import.START, variables)
    run = started["startRunImport"]
    run_id = str(run["id"])
    if run["status"] == "COMPLETED":  # the same import again: a no-op
        return run_import.Imported(run_id, experiment_id, int(run["itemCount"]), "COMPLETED")
    try:
        sent = chunk_upload.send_all(
            chunks(items, chunk_size),
            lambda chunk, position: _append(client, run_id, chunk, position),
            in_flight,
        )
        completed = client.execute(run_import.COMPLETE, {"id": run_id, "n": sent})["completeRun"]
    except BaseException as exc:
        code = "bad_line" if isinstance(exc, Refused) else "import_aborted"
        problem = run_import.fail(client, run_id, code)
        if problem is not None:
            exc.add_note(f"run {run_id} may still be RUNNING; failing it failed: {problem}")
        raise
    return run_import.Imported(
        run_id, experiment_id, int(completed["itemCount"]), str(completed["status"])
    )


def _append(client: ApiClient, run_id: str, chunk: Chunk, position: int) -> None:
    """Send one chunk; a refused item becomes a refusal naming the tool's record."""
    head = json.dumps(
        {"query": run_import.APPEND, "variables": {"id": run_id, "position": position}}
    )
    body = b"".join((head[:-2].encode(), b', "items": [', b",".join(chunk.cases), b"]}}"))
    try:
        client.execute_body(body)
    except ApiError as exc:
        index = exc.extensions.get("index")
        if exc.code == "VALIDATION_FAILED" and isinstance(index, int):
            wheres = chunk.wheres if isinstance(chunk, LocatedChunk) else []
            if 0 <= index < len(wheres):
                _, _, field = str(exc.extensions.get("field", "")).partition(".")
                reason = str(exc.extensions.get("reason") or exc.message)
                raise Refused(wheres[index], reason, field or None) from None
        raise


def run_command(
    file: Path,
    *,
    url: str,
    token: str,
    fmt: str,
    options: Options,
    experiment: str,
    idempotency_key: str | None,
    metadata: dict[str, Any] | None,
    chunk_size: int,
    in_flight: int,
    judge_evaluator: str | None = None,
) -> None:
    """Import another tool's file and print as `run import` does; exit 2 on a refusal.

    One run: its id alone on the last line. Several (promptfoo pairs): `RUN_ID<TAB>label`
    per run, then the first run's id alone on the last line.
    """
    import typer

    from server.result_formats.detect import read

    def call(client: ApiClient) -> list[ImportedRun]:
        readings = read(file, fmt, options)
        return import_readings(
            client, file, readings, fmt=fmt, options=options, experiment=experiment,
            idempotency_key=idempotency_key, metadata=metadata, chunk_size=chunk_size,
            in_flight=in_flight, judge_evaluator=judge_evaluator,
        )  # fmt: skip

    try:
        runs = run_import_call(file, url=url, token=token, call=call)
    except Refused as exc:
        fail(describe(exc, file), OPERATIONAL_ERROR, getattr(exc, "__notes__", None))
    for run in runs:
        done = run.imported
        label = f" ({run.label})" if run.label else ""
        typer.echo(
            f"run {done.run_id}{label}: {done.item_count} items, {words(done.status).lower()}, "
            f"in experiment {experiment!r}"
        )
    if len(runs) > 1:
        for run in runs:
            typer.echo(f"{run.imported.run_id}\t{run.label}")
    typer.echo(runs[0].imported.run_id)
