"""A dataset version's content hash and per-split counts, streamed from its case rows.

The hash is sha256 over one line per case in position order: the canonical JSON (sorted
keys, no spaces, UTF-8; `server.assets.versioning.canonical_json`) of the array
`[datasetItemId, input, expected, split, tags]`, then a newline. Anyone can recompute it
from the cases; it does not depend on the database or on key order in the source file.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from sqlalchemy import ColumnElement, Text, cast, func, select
from sqlalchemy.ext.asyncio import AsyncConnection

from server.assets.versioning import canonical_json
from server.datasets.models import DatasetCase
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
    return canonical_json([dataset_item_id, input, expected, str(split), tags]) + b"\n"


def _case_array(dialect: str) -> ColumnElement[Any]:
    """Each case as one JSON array text built by the database: one decode per case."""
    c = DatasetCase
    if dialect == "postgresql":
        built = func.jsonb_build_array(c.dataset_item_id, c.input, c.expected, c.split, c.tags)
        return cast(built, Text)
    return func.json_array(
        c.dataset_item_id, func.json(c.input), func.json(c.expected), c.split, func.json(c.tags)
    )


async def digest_cases(connection: AsyncConnection, version_id: str) -> Digest:
    """Stream the version's cases in position order (Core rows, not ORM objects).

    VALIDATION_FAILED for a version without cases or with a gap in its positions.
    """
    stmt = (
        select(DatasetCase.ordinal, _case_array(connection.dialect.name))
        .where(DatasetCase.dataset_version_id == version_id)
        .order_by(DatasetCase.ordinal)
        .execution_options(yield_per=BATCH_ROWS)
    )
    digest = hashlib.sha256()
    total = holdout = 0
    result = await connection.stream(stmt)
    async for partition in result.partitions():
        for ordinal, text in partition:
            if ordinal != total:
                raise ValidationFailed(
                    f"no case at position {total}: a chunk is missing", field="position"
                )
            item_id, input_, expected, split, tags = json.loads(text)
            digest.update(case_line(item_id, input_, expected, split, tags))
            holdout += split == "HOLDOUT"
            total += 1
    if total == 0:
        raise ValidationFailed("an empty version cannot be sealed: append cases first")
    return Digest(case_count=total, holdout_case_count=holdout, content_hash=digest.hexdigest())
