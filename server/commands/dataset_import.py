"""Streaming a JSONL file of cases into a new dataset version, chunk by chunk.

The file is read line by line; a few chunks are in flight at once, each sent with its
position, so reading, the server's checks and the database's writes overlap while the
version keeps the file's order. Memory holds only the chunks in flight.
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from server.client import ApiClient, ApiError
from server.datasets.cases import MAX_CASES_PER_CHUNK, CaseError, check_case

MAX_CHUNK_BYTES = 1_500_000
"""Stay well under the server's 2 MiB request limit however large the cases are."""
DEFAULT_IN_FLIGHT = 3
"""Chunks on the wire at once: the server checks one while the database writes another."""

CREATE = "mutation($input: CreateDatasetInput!) { createDataset(input: $input) { id } }"
OPEN = "mutation($id: ID!) { openDatasetVersion(datasetId: $id) { id number } }"
APPEND = (
    "mutation($id: ID!, $cases: JSON!, $position: Int) "
    "{ appendDatasetCases(versionId: $id, cases: $cases, position: $position) { caseCount } }"
)
SEAL = (
    "mutation($id: ID!) { sealDatasetVersion(versionId: $id) "
    "{ id datasetId number caseCount caseCounts { dev holdout } contentHash } }"
)
LATEST = "query($id: ID!) { dataset(id: $id) { id latestVersion { id } } }"
DISCARD = "mutation($id: ID!) { discardDatasetVersion(versionId: $id) { state } }"


class BadLine(Exception):
    """A line of the file that is not a valid case."""

    def __init__(self, line: int, reason: str) -> None:
        super().__init__(f"line {line}: {reason}")
        self.line = line
        self.reason = reason


class EmptyFile(Exception):
    """A file with no cases (only blank lines, or none)."""


@dataclass
class Chunk:
    """Cases to append in one call, with the file line of each."""

    cases: list[Any] = field(default_factory=list)
    lines: list[int] = field(default_factory=list)
    size: int = 0


@dataclass(frozen=True)
class Imported:
    """The sealed version, as the server reported it."""

    dataset_id: str
    version_id: str
    number: int
    case_count: int
    dev_case_count: int
    holdout_case_count: int
    content_hash: str


def read_chunks(
    path: Path, *, chunk_size: int, max_bytes: int = MAX_CHUNK_BYTES
) -> Iterator[Chunk]:
    """Checked cases in chunks of at most `chunk_size` cases and about `max_bytes` of JSON.

    Repeated `datasetItemId`s are caught here, naming both lines: with chunks in flight
    side by side, the server could otherwise report either occurrence.
    """
    chunk = Chunk()
    first_line: dict[str, int] = {}
    with path.open("rb") as lines:
        for number, raw in enumerate(lines, start=1):
            if not raw.strip():
                continue
            case = parse_line(number, raw)
            item_id = case["datasetItemId"]
            seen = first_line.setdefault(item_id, number)
            if seen != number:
                raise BadLine(number, f"`datasetItemId` {item_id!r} repeats line {seen}")
            chunk.cases.append(case)
            chunk.lines.append(number)
            chunk.size += len(raw)
            if len(chunk.cases) >= chunk_size or chunk.size >= max_bytes:
                yield chunk
                chunk = Chunk()
    if chunk.cases:
        yield chunk


def parse_line(number: int, raw: bytes) -> Any:
    """The case on line `number`, or BadLine saying why it is not one.

    Checked here as the server will check it, so a bad line is reported before it is sent
    (and NaN or an unpaired surrogate never reaches the JSON encoder of the request).
    """
    try:
        case = json.loads(raw.decode())
    except UnicodeDecodeError:
        raise BadLine(number, "not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        raise BadLine(number, f"not valid JSON ({exc.msg} at column {exc.colno})") from None
    try:
        check_case(case)
    except CaseError as exc:
        raise BadLine(number, exc.reason) from None
    return case


def import_file(
    client: ApiClient,
    path: Path,
    *,
    name: str | None,
    dataset_id: str | None,
    description: str | None = None,
    chunk_size: int = MAX_CASES_PER_CHUNK,
    in_flight: int = DEFAULT_IN_FLIGHT,
) -> Imported:
    """Create the dataset if needed, open a version, append every chunk and seal it.

    On any failure after the version is opened, the version is discarded before the error
    propagates, so no half-written version is left OPEN.
    """
    if dataset_id is None:
        dataset_id = create_or_resume(client, name=name or "", description=description)
    version_id = client.execute(OPEN, {"id": dataset_id})["openDatasetVersion"]["id"]
    try:
        chunks = read_chunks(path, chunk_size=chunk_size)
        if append_all(client, version_id, chunks, in_flight) == 0:
            raise EmptyFile(f"{path} holds no cases")
        sealed = client.execute(SEAL, {"id": version_id})["sealDatasetVersion"]
    except BaseException as exc:
        problem = discard(client, version_id)
        if problem is not None:
            exc.add_note(f"version {version_id} is still OPEN; discarding it failed: {problem}")
        raise
    return Imported(
        dataset_id=sealed["datasetId"],
        version_id=sealed["id"],
        number=sealed["number"],
        case_count=sealed["caseCount"],
        dev_case_count=sealed["caseCounts"]["dev"],
        holdout_case_count=sealed["caseCounts"]["holdout"],
        content_hash=sealed["contentHash"],
    )


def create_or_resume(client: ApiClient, *, name: str, description: str | None) -> str:
    """A new dataset named `name`, or the one an earlier failed import left without versions.

    A dataset with a sealed version is not touched: the CONFLICT says how to add a version.
    """
    try:
        created = client.execute(CREATE, {"input": {"name": name, "description": description}})
    except ApiError as exc:
        existing = exc.extensions.get("datasetId")
        if exc.code != "CONFLICT" or not isinstance(existing, str):
            raise
        found = client.execute(LATEST, {"id": existing})["dataset"]
        if found["latestVersion"] is None:
            return existing  # left empty by a failed import: go on with it
        raise ApiError(
            "CONFLICT",
            f"a dataset named {name!r} already exists ({existing}); "
            f"to add a version to it, run again with --dataset-id {existing}",
            exc.extensions,
        ) from None
    dataset_id: str = created["createDataset"]["id"]
    return dataset_id


def append_all(client: ApiClient, version_id: str, chunks: Iterator[Chunk], in_flight: int) -> int:
    """Send the chunks, up to `in_flight` at a time, each with its position; the cases sent.

    The next chunk is read while earlier ones are on the wire; errors surface in file order.
    """
    pending: deque[Future[None]] = deque()
    position = 0
    with ThreadPoolExecutor(max_workers=in_flight, thread_name_prefix="append") as pool:
        try:
            for chunk in chunks:
                if len(pending) >= in_flight:
                    pending.popleft().result()
                pending.append(pool.submit(_append, client, version_id, chunk, position))
                position += len(chunk.cases)
            while pending:
                pending.popleft().result()
        finally:
            for future in pending:
                future.cancel()
    return position


def _append(client: ApiClient, version_id: str, chunk: Chunk, position: int) -> None:
    variables = {"id": version_id, "cases": chunk.cases, "position": position}
    try:
        client.execute(APPEND, variables)
    except ApiError as exc:
        index = exc.extensions.get("index")
        if exc.code == "VALIDATION_FAILED" and isinstance(index, int):
            if 0 <= index < len(chunk.lines):
                reason = str(exc.extensions.get("reason") or exc.message)
                raise BadLine(chunk.lines[index], reason) from None
        if exc.code == "VALIDATION_FAILED":
            lines = f"{chunk.lines[0]}-{chunk.lines[-1]}"
            raise BadLine(chunk.lines[0], f"(chunk of lines {lines}) {exc.message}") from None
        raise


def discard(client: ApiClient, version_id: str) -> ApiError | None:
    """Discard the open version; the error, if that failed too."""
    try:
        client.execute(DISCARD, {"id": version_id})
    except ApiError as exc:
        return exc
    return None
