"""PostgreSQL: per-run item vectors (`RunVector`), and a diff that zips two of them.

A completed run's items never change, so its counts and evaluator means are laid out once
as parallel arrays in pairing-key order (at `completeRun`, else at its first diff). Two
runs over the same items then pair element by element: the diff reads two rows and
computes each evaluator's per-item differences with one `unnest` of both sides' arrays,
still in SQL. Runs whose keys differ take the joins of `server.runs.diff_queries`.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import Any

import numpy as np
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession

_BUILD = """
INSERT INTO run_vector (run_id, keyed_by, keys, positions, passed, graded, evaluators, means)
WITH kind AS (
  SELECT CASE WHEN EXISTS (
    SELECT 1 FROM run_item WHERE run_id = :run AND dataset_item_id IS NULL
  ) THEN 'POSITIONAL' ELSE 'DATASET_ITEM_ID' END AS keyed_by
),
items AS MATERIALIZED (
  SELECT i.position, i.dataset_item_id, i.passed_count, i.graded_count,
         row_number() OVER (
           ORDER BY CASE WHEN k.keyed_by = 'DATASET_ITEM_ID' THEN i.dataset_item_id END
                    COLLATE "C", i.position
         ) AS k
  FROM run_item AS i, kind AS k
  WHERE i.run_id = :run
),
names AS (SELECT DISTINCT evaluator FROM run_item_score WHERE run_id = :run),
columns AS (
  SELECT n.evaluator, array_agg(s.mean ORDER BY i.k) AS means
  FROM names AS n CROSS JOIN items AS i
  LEFT JOIN run_item_score AS s
    ON s.run_id = :run AND s.position = i.position AND s.evaluator = n.evaluator
  GROUP BY n.evaluator
)
SELECT :run, kind.keyed_by,
       CASE WHEN kind.keyed_by = 'DATASET_ITEM_ID' THEN
         coalesce((SELECT array_agg(dataset_item_id::text ORDER BY k) FROM items), '{}')
       END,
       coalesce((SELECT array_agg(position ORDER BY k) FROM items), '{}'),
       coalesce((SELECT array_agg(passed_count ORDER BY k) FROM items), '{}'),
       coalesce((SELECT array_agg(graded_count ORDER BY k) FROM items), '{}'),
       coalesce((SELECT array_agg(evaluator::text ORDER BY evaluator) FROM columns), '{}'),
       (SELECT array_agg(means ORDER BY evaluator) FROM columns)
FROM kind
WHERE NOT EXISTS (SELECT 1 FROM run_vector WHERE run_id = :run)
ON CONFLICT (run_id) DO NOTHING
"""

_ZIPPABLE = """
SELECT 1 FROM run_vector AS c, run_vector AS b
WHERE c.run_id = :candidate AND b.run_id = :baseline
  AND c.keyed_by = :pairing AND b.keyed_by = :pairing
  AND CASE WHEN :pairing = 'DATASET_ITEM_ID' THEN c.keys = b.keys
           ELSE c.positions = b.positions END
"""

_ZIPPED = """
SELECT NULL::text, array_send(c.positions), array_send(c.passed), array_send(c.graded),
       array_send(b.passed), array_send(b.graded), NULL::bytea, NULL::float8, NULL::float8
FROM run_vector AS c, run_vector AS b
WHERE c.run_id = :candidate AND b.run_id = :baseline
UNION ALL
SELECT ce.name, array_send(z.positions), NULL, NULL, NULL, NULL, array_send(z.d), z.cm, z.bm
FROM run_vector AS c
JOIN run_vector AS b ON b.run_id = :baseline
CROSS JOIN LATERAL unnest(c.evaluators) WITH ORDINALITY AS ce(name, ci)
JOIN LATERAL unnest(b.evaluators) WITH ORDINALITY AS be(name, bi) ON be.name = ce.name
CROSS JOIN LATERAL (
  SELECT array_agg(x.p) AS positions, array_agg(x.cm - x.bm) AS d,
         avg(x.cm) AS cm, avg(x.bm) AS bm
  FROM (
    -- set-returning functions in the select list stream in lockstep (no tuplestore):
    -- about twice as fast here as `FROM unnest(a, b, c)`
    SELECT unnest(c.positions) AS p, unnest(c.means[ce.ci:ce.ci]) AS cm,
           unnest(b.means[be.bi:be.bi]) AS bm
  ) AS x
  WHERE x.cm IS NOT NULL AND x.bm IS NOT NULL
) AS z
WHERE c.run_id = :candidate AND z.positions IS NOT NULL
"""


async def build(session: AsyncSession, run_ids: Sequence[str]) -> None:
    """Lay out these completed runs' vectors, unless they are already (PostgreSQL only)."""
    # Sorting 100,000 keys and the evaluator columns in memory, not in temporary files.
    await session.execute(text("SELECT set_config('work_mem', '64MB', true)"))
    for run_id in run_ids:
        await session.execute(text(_BUILD), {"run": run_id})


async def zipped(
    session: AsyncSession, candidate: str, baseline: str, pairing: str
) -> list[Any] | None:
    """The diff's rows (as `diff_queries.vectors` reads them) when both runs' vectors hold
    the same keys in the same order; None otherwise. Arrays travel in binary form."""
    params = {"candidate": candidate, "baseline": baseline, "pairing": pairing}
    if await session.scalar(text(_ZIPPABLE), params) is None:
        return None
    rows = (await session.execute(text(_ZIPPED), params)).all()
    return [
        (row[0], *(None if blob is None else from_array_send(blob) for blob in row[1:7]), *row[7:])
        for row in rows
    ]


_ELEMENTS = {23: np.dtype([("length", ">i4"), ("value", ">i4")]),  # int4
             701: np.dtype([("length", ">i4"), ("value", ">f8")])}  # float8  # fmt: skip


def from_array_send(blob: bytes) -> np.ndarray[Any, Any]:
    """A one-dimensional int4 or float8 array without NULLs from PostgreSQL's binary form
    (`array_send`): a header, then a length and a big-endian value per element. Read with
    numpy in microseconds, where decoding 100,000 elements into Python numbers takes ms."""
    ndim, _, oid = struct.unpack_from(">iii", blob)
    if ndim == 0:
        return np.empty(0, dtype=np.float64 if oid == 701 else np.int64)
    if ndim != 1:
        raise ValueError("a one-dimensional array was expected")
    (count,) = struct.unpack_from(">i", blob, 12)
    elements = np.frombuffer(blob, dtype=_ELEMENTS[oid], count=count, offset=20)
    if count and elements["length"].min() < 0:
        raise ValueError("an array without NULLs was expected")
    return elements["value"].astype(np.float64 if oid == 701 else np.int64)
