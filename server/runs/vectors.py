"""PostgreSQL: per-run item vectors (`RunVector`), and a diff that zips two of them.

A completed run's items never change, so its counts and evaluator means are laid out once
as parallel arrays in pairing-key order (at `completeRun`, else at its first diff). Two
runs over the same items then pair element by element: the diff reads two rows and
computes each evaluator's per-item differences with one `unnest` of both sides' arrays,
still in SQL. Runs whose keys differ take the joins of `server.runs.diff_queries`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

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
SELECT NULL::text, c.positions, c.passed, c.graded, b.passed, b.graded,
       NULL::float8[], NULL::float8, NULL::float8
FROM run_vector AS c, run_vector AS b
WHERE c.run_id = :candidate AND b.run_id = :baseline
UNION ALL
SELECT ce.name, z.positions, NULL, NULL, NULL, NULL, z.d, z.cm, z.bm
FROM run_vector AS c
JOIN run_vector AS b ON b.run_id = :baseline
CROSS JOIN LATERAL unnest(c.evaluators) WITH ORDINALITY AS ce(name, ci)
JOIN LATERAL unnest(b.evaluators) WITH ORDINALITY AS be(name, bi) ON be.name = ce.name
CROSS JOIN LATERAL (
  SELECT array_agg(x.p) AS positions, array_agg(x.cm - x.bm) AS d,
         avg(x.cm) AS cm, avg(x.bm) AS bm
  FROM unnest(c.positions, c.means[ce.ci:ce.ci], b.means[be.bi:be.bi]) AS x(p, cm, bm)
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
    the same keys in the same order; None otherwise."""
    params = {"candidate": candidate, "baseline": baseline, "pairing": pairing}
    if await session.scalar(text(_ZIPPABLE), params) is None:
        return None
    return list((await session.execute(text(_ZIPPED), params)).all())
