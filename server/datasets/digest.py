"""A dataset version's content hash and per-split counts, streamed from its case rows.

The hash is sha256 over one line per case in position order: the JSON text of the array
`[datasetItemId, input, expected, split, tags]` as PostgreSQL writes `jsonb` (object keys
ordered by byte length then bytes, `", "` and `": "` between items, numbers in plain
decimal), then a newline. On PostgreSQL the database writes the lines itself, so sealing
100,000 cases only hashes bytes; elsewhere `json_text` writes the same text. It does not
depend on key order in the source file, and `case_line` recomputes it from the cases.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from sqlalchemy import Select, Text, cast, func, select
from sqlalchemy.ext.asyncio import AsyncConnection

from server.datasets.models import DatasetCase, Split
from server.errors import ValidationFailed

BATCH_ROWS = 5000


@dataclass(frozen=True, slots=True)
class Digest:
    """What sealing records: the counts per split and the content hash."""

    case_count: int
    holdout_case_count: int
    content_hash: str

    @property
    def dev_case_count(self) -> int:
        return self.case_count - self.holdout_case_count


def case_line(
    dataset_item_id: str, input: Any, expected: Any, split: str, tags: list[str]
) -> bytes:
    """One case's line of the hashed text."""
    return (json_text([dataset_item_id, input, expected, str(split), tags]) + "\n").encode()


def json_text(value: Any) -> str:
    """`value` as PostgreSQL's `jsonb` output writes it (what `jsonb::text` returns)."""
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)  # escapes exactly what PostgreSQL does
    if value is None or isinstance(value, bool | int):
        return json.dumps(value)
    if isinstance(value, float):
        return _numeric_text(value)
    if isinstance(value, dict):
        keys = sorted(value, key=lambda key: (len(key.encode()), key.encode()))
        items = (f"{json_text(key)}: {json_text(value[key])}" for key in keys)
        return "{" + ", ".join(items) + "}"
    return "[" + ", ".join(json_text(item) for item in value) + "]"


def _numeric_text(number: float) -> str:
    """A float as PostgreSQL prints it: the shortest decimal that reads back as it, unexponented."""
    text = repr(number)
    if "e" in text:
        text = format(Decimal(text), "f")
    return text.lstrip("-") if number == 0 else text  # numeric has no negative zero


def _lines_stmt(dialect: str, version_id: str) -> Select[Any]:
    """(ordinal, split, case…) rows in order: PostgreSQL writes each case's line itself;
    elsewhere the JSON columns come back decoded for `json_text` (SQLite may hold a bare
    number as REAL, whose text form would round it)."""
    c = DatasetCase
    columns: Sequence[Any]
    if dialect == "postgresql":
        built = func.jsonb_build_array(c.dataset_item_id, c.input, c.expected, c.split, c.tags)
        columns = [cast(built, Text)]
    else:
        columns = [c.dataset_item_id, c.input, c.expected, c.tags]
    return (
        select(c.ordinal, c.split, *columns)
        .where(c.dataset_version_id == version_id)
        .order_by(c.ordinal)
        .execution_options(yield_per=BATCH_ROWS)
    )


def _line(native: bool, split: str, row: Sequence[Any]) -> str:
    if native:
        return str(row[0])
    item_id, input_, expected, tags = row
    return json_text([item_id, input_, expected, split, tags])


async def digest_cases(connection: AsyncConnection, version_id: str) -> Digest:
    """Stream the version's cases in position order (Core rows, not ORM objects).

    VALIDATION_FAILED for a version without cases or with a gap in its positions.
    """
    native = connection.dialect.name == "postgresql"
    digest = hashlib.sha256()
    total = holdout = 0
    result = await connection.stream(_lines_stmt(connection.dialect.name, version_id))
    async for partition in result.partitions():
        for ordinal, split, *row in partition:
            if ordinal != total:
                raise ValidationFailed(
                    f"no case at position {total}: a chunk is missing", field="position"
                )
            digest.update(_line(native, split.value, row).encode())
            digest.update(b"\n")
            holdout += split == Split.HOLDOUT
            total += 1
    if total == 0:
        raise ValidationFailed("an empty version cannot be sealed: append cases first")
    return Digest(case_count=total, holdout_case_count=holdout, content_hash=digest.hexdigest())
