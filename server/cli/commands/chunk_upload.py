"""Sending a JSONL file to the API in chunks: the part dataset and run imports share.

The file is read line by line into chunks that remember each case's file line; a few
chunks are in flight at once, each sent with its position, so reading, the server's checks
and the database's writes overlap while errors still surface in file order. A refusal
that names a case by its index in the chunk is turned back into that file line.
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from server.cli.client import ApiClient, ApiError

MAX_CHUNK_BYTES = 1_500_000
"""Stay well under the server's 2 MiB request limit however large the cases are."""
DEFAULT_IN_FLIGHT = 3
"""Chunks on the wire at once: the server checks one while the database writes another."""


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


def nonblank_lines(path: Path) -> Iterator[tuple[int, bytes]]:
    """(line number, raw line) of every line that is not blank."""
    with path.open("rb") as lines:
        for number, raw in enumerate(lines, start=1):
            if raw.strip():
                yield number, raw


def chunked(
    cases: Iterable[tuple[int, Any, int]], *, chunk_size: int, max_bytes: int = MAX_CHUNK_BYTES
) -> Iterator[Chunk]:
    """(line, case, size) triples in chunks of at most `chunk_size` cases and about `max_bytes`."""
    chunk = Chunk()
    for number, case, size in cases:
        chunk.cases.append(case)
        chunk.lines.append(number)
        chunk.size += size
        if len(chunk.cases) >= chunk_size or chunk.size >= max_bytes:
            yield chunk
            chunk = Chunk()
    if chunk.cases:
        yield chunk


def decode_line(number: int, raw: bytes) -> Any:
    """The JSON value on line `number`, or BadLine saying why it is not JSON text."""
    try:
        return json.loads(raw.decode())
    except UnicodeDecodeError:
        raise BadLine(number, "not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        raise BadLine(number, f"not valid JSON ({exc.msg} at column {exc.colno})") from None


def send_all(chunks: Iterator[Chunk], send: Callable[[Chunk, int], None], in_flight: int) -> int:
    """`send(chunk, position)` for every chunk, up to `in_flight` at a time; the cases sent.

    The next chunk is read while earlier ones are on the wire; errors surface in file order.
    """
    pending: deque[Future[None]] = deque()
    position = 0
    with ThreadPoolExecutor(max_workers=in_flight, thread_name_prefix="append") as pool:
        try:
            for chunk in chunks:
                if len(pending) >= in_flight:
                    pending.popleft().result()
                pending.append(pool.submit(send, chunk, position))
                position += len(chunk.cases)
            while pending:
                pending.popleft().result()
        finally:
            for future in pending:
                future.cancel()
    return position


def refused_line(exc: ApiError, chunk: Chunk) -> BadLine | None:
    """The file line of a VALIDATION_FAILED that names a case of `chunk` by its index."""
    index = exc.extensions.get("index")
    if exc.code != "VALIDATION_FAILED" or not isinstance(index, int):
        return None
    if not 0 <= index < len(chunk.lines):
        return None
    reason = str(exc.extensions.get("reason") or exc.message)
    _, _, name = str(exc.extensions.get("field", "")).partition(".")
    where = f"`{name}`: " if name.startswith("trials[") else ""
    return BadLine(chunk.lines[index], where + reason)


def undo(client: ApiClient, document: str, variables: dict[str, Any]) -> ApiError | None:
    """Run a clean-up mutation after a failed import; the error, if that failed too."""
    try:
        client.execute(document, variables)
    except ApiError as exc:
        return exc
    return None
