"""Streaming a results JSONL file into an imported run, chunk by chunk.

The file is read line by line and every line checked as the server will check it, so a
bad line is reported by its number; a few chunks are in flight at once, each sent with
its position, so reading, the server's checks and the database's writes overlap. On any
failure after the run started, the run is marked FAILED (so no diff ever sees it).
Memory holds only the chunks in flight.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from server.cli.client import ApiClient, ApiError
from server.cli.commands import chunk_upload
from server.cli.commands.chunk_upload import (
    DEFAULT_IN_FLIGHT,
    MAX_CHUNK_BYTES,
    BadLine,
    Chunk,
    EmptyFile,
)
from server.runs.items import MAX_ITEMS_PER_CHUNK, MAX_ITEMS_PER_RUN, CaseError, check_item

EXPERIMENTS = """query($after: String) {
  experiments(first: 100, after: $after) {
    edges { node { id name } } pageInfo { hasNextPage endCursor }
  }
}"""
CREATE_EXPERIMENT = "mutation($n: String!) { createExperiment(input: {name: $n}) { id } }"
START = """mutation($e: ID!, $k: String!, $m: JSON, $c: JSON) {
  startRunImport(experimentId: $e, idempotencyKey: $k, metadata: $m, checks: $c) {
    id status itemCount
  }
}"""
APPEND = """mutation($id: ID!, $items: JSON!, $position: Int) {
  appendRunItems(runId: $id, items: $items, position: $position) { appendedCount }
}"""
COMPLETE = (
    "mutation($id: ID!, $n: Int) { completeRun(runId: $id, itemCount: $n) { id status itemCount } }"
)
FAIL = "mutation($id: ID!, $code: String) { failRun(runId: $id, errorCode: $code) { status } }"


@dataclass(frozen=True)
class Imported:
    run_id: str
    experiment_id: str
    item_count: int
    status: str


def default_key(path: Path, experiment: str) -> str:
    """The file's content and the experiment: importing the same results twice is a no-op."""
    digest = hashlib.sha256(experiment.encode() + b"\x00")
    with path.open("rb") as source:
        for block in iter(lambda: source.read(1 << 20), b""):
            digest.update(block)
    return f"sha256:{digest.hexdigest()}"


def read_chunks(
    path: Path, *, chunk_size: int, max_bytes: int = MAX_CHUNK_BYTES
) -> Iterator[Chunk]:
    """Raw lines in chunks of at most `chunk_size` items and about `max_bytes`.

    Lines are not parsed here: they are spliced into the request as they are and the
    server checks them (the costly part of a client); a chunk the server refuses is
    then parsed line by line to name the bad one (`locate`).
    """
    return chunk_upload.chunked(_raw_cases(path), chunk_size=chunk_size, max_bytes=max_bytes)


def _raw_cases(path: Path) -> Iterator[tuple[int, bytes, int]]:
    for count, (number, raw) in enumerate(chunk_upload.nonblank_lines(path), start=1):
        if count > MAX_ITEMS_PER_RUN:
            raise BadLine(number, f"a run holds at most {MAX_ITEMS_PER_RUN:,} items")
        text = raw.strip()
        yield number, text, len(text)


def locate(chunk: Chunk, position: int) -> BadLine | None:
    """The first line of a refused chunk that is not a valid item, if any."""
    for offset, (number, text) in enumerate(zip(chunk.lines, chunk.cases, strict=True)):
        try:
            parse_line(number, text, position + offset)
        except BadLine as bad:
            return bad
    return None


def find_repeat(path: Path, item_id: str) -> BadLine | None:
    """The second line carrying `item_id`, naming the first (after the server refused it)."""
    first = None
    with path.open("rb") as lines:
        for number, raw in enumerate(lines, start=1):
            if item_id.encode() not in raw:
                continue
            try:
                value = json.loads(raw)
            except ValueError:
                continue
            if isinstance(value, dict) and value.get("datasetItemId") == item_id:
                if first is not None:
                    return BadLine(number, f"`datasetItemId` {item_id!r} repeats line {first}")
                first = number
    return None


def parse_line(number: int, raw: bytes, position: int) -> Any:
    """The item on line `number`, or BadLine saying why it is not one."""
    value = chunk_upload.decode_line(number, raw)
    try:
        check_item(value, position)
    except CaseError as exc:
        where = f"`{exc.field}`: " if exc.field.startswith("trials[") else ""
        raise BadLine(number, where + exc.reason) from None
    return value


def find_or_create_experiment(client: ApiClient, name: str) -> str:
    after = None
    while True:
        page = client.execute(EXPERIMENTS, {"after": after})["experiments"]
        for edge in page["edges"]:
            if edge["node"]["name"] == name.strip():
                return str(edge["node"]["id"])
        if not page["pageInfo"]["hasNextPage"]:
            break
        after = page["pageInfo"]["endCursor"]
    return str(client.execute(CREATE_EXPERIMENT, {"n": name})["createExperiment"]["id"])


def import_file(
    client: ApiClient,
    path: Path,
    *,
    experiment: str,
    idempotency_key: str | None = None,
    metadata: dict[str, Any] | None = None,
    chunk_size: int = MAX_ITEMS_PER_CHUNK,
    in_flight: int = DEFAULT_IN_FLIGHT,
    checks: list[Any] | None = None,
) -> Imported:
    """Start (or resume) the run, append every chunk and complete it; FAILED on any error.
    With `checks`, the server grades each trial's output."""
    experiment_id = find_or_create_experiment(client, experiment)
    key = idempotency_key or default_key(path, experiment)
    variables = {"e": experiment_id, "k": key, "m": metadata, "c": checks}
    run = client.execute(START, variables)["startRunImport"]
    run_id = str(run["id"])
    already_done = run["status"] == "COMPLETED"
    try:
        sent = append_all(client, run_id, read_chunks(path, chunk_size=chunk_size), in_flight)
        if sent == 0:
            raise EmptyFile(f"{path} holds no items")
        done = _complete(client, path, run_id, sent)
    except BaseException as exc:
        if already_done:  # a repeat of a finished import: it stays as it was
            raise
        code = "bad_line" if isinstance(exc, BadLine | EmptyFile) else "import_aborted"
        problem = fail(client, run_id, code)
        if problem is not None:
            exc.add_note(f"run {run_id} may still be RUNNING; failing it failed: {problem}")
        raise
    return Imported(run_id, experiment_id, int(done["itemCount"]), str(done["status"]))


def _complete(client: ApiClient, path: Path, run_id: str, sent: int) -> dict[str, Any]:
    try:
        done: dict[str, Any] = client.execute(COMPLETE, {"id": run_id, "n": sent})["completeRun"]
    except ApiError as exc:
        item_id = exc.extensions.get("datasetItemId")
        if exc.code == "VALIDATION_FAILED" and isinstance(item_id, str):
            repeat = find_repeat(path, item_id)
            if repeat is not None:
                raise repeat from None
        raise
    return done


def append_all(client: ApiClient, run_id: str, chunks: Iterator[Chunk], in_flight: int) -> int:
    """Send the chunks, up to `in_flight` at a time, each with its position; the items sent."""
    return chunk_upload.send_all(
        chunks, lambda chunk, position: _append(client, run_id, chunk, position), in_flight
    )


def _append(client: ApiClient, run_id: str, chunk: Chunk, position: int) -> None:
    head = json.dumps({"query": APPEND, "variables": {"id": run_id, "position": position}})
    body = b"".join((head[:-2].encode(), b', "items": [', b",".join(chunk.cases), b"]}}"))
    try:
        client.execute_body(body)
    except ApiError as exc:
        bad = chunk_upload.refused_line(exc, chunk)
        if bad is None and exc.code in ("VALIDATION_FAILED", "INTERNAL"):
            bad = locate(chunk, position)  # e.g. a line that is not JSON
        if bad is not None:
            raise bad from None
        raise


def fail(client: ApiClient, run_id: str, code: str) -> ApiError | None:
    """Mark the run FAILED; the error, if that failed too."""
    return chunk_upload.undo(client, FAIL, {"id": run_id, "code": code})
