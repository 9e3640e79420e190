"""PostgreSQL: a hosted run's items and evaluator scores built by the database itself.

`INSERT … SELECT` from the trial rows makes the same items `records.hosted_runs` makes in
Python (the shape `server/runs/models.py` documents), so no output or JSON document crosses
into the worker; `server.verdicts.hosted_runs` runs it once the verdict is committed.
SQLite uses the Python path.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from server.verdicts import bulk

_COMPLETED = "t.state = 'COMPLETED'"
_IN_SLICE = (
    "t.case_ordinal BETWEEN (SELECT min(o) FROM unnest($2::int[]) AS o)"
    " AND (SELECT max(o) FROM unnest($2::int[]) AS o)"
)
"""The slice's ordinals as a range too, so each slice's statement reads its cases by the
trial key's index (`= ANY` alone left a scan of the comparison's rows per slice)."""


def _score(index: int) -> str:
    return f"(t.check_results->{index}->>'score')::float8"


def _items_sql(names: Sequence[str]) -> str:
    """Names are bound as parameters $3, $4…; check indices are trusted integers.

    Each item's trials are built as `json` (text) and cast to `jsonb` once per item: the
    same documents as building `jsonb` per trial, in about 60% of the time (measured with
    bench/finalize.py's 45,000 trials: 0.75 s against 1.1–1.3 s on the loaded machine).
    The trials are grouped first and the case input joined to the 15,000 groups after, so
    the sort carries no inputs (it spilled 16 MB to disk before): 0.65–0.85 s against
    0.9–1.3 s measured back to back.
    """
    pairs = ", ".join(f"${3 + j}::text, {_score(j)}" for j in range(len(names)))
    evaluators = f"json_strip_nulls(json_build_object({pairs}))" if names else "'{}'::json"
    return f"""
INSERT INTO run_item (run_id, position, dataset_item_id, input, trials, trial_count,
                      graded_count, passed_count)
SELECT g.run_id, g.position, dc.dataset_item_id, dc.input, g.trials, g.trial_count,
       g.graded_count, g.passed_count
FROM (
SELECT r.id AS run_id, t.case_ordinal AS position,
       json_agg(json_build_object(
         'trialIndex', t.trial_index,
         'passed', CASE WHEN {_COMPLETED} THEN t.passed END,
         'evaluators', CASE WHEN {_COMPLETED} THEN {evaluators} ELSE '{{}}'::json END,
         'output', t.output,
         'metrics', json_build_object(
           'tokens', t.input_tokens + t.output_tokens,
           'turns', 1,
           'toolCalls', CASE WHEN jsonb_typeof(t.tool_calls) = 'array'
                             THEN jsonb_array_length(t.tool_calls) ELSE 0 END,
           'wallMs', t.latency_ms,
           'errors', CASE WHEN {_COMPLETED} THEN 0 ELSE 1 END,
           'costUsd', t.cost_micros / 1000000.0,
           'outputTokens', t.output_tokens),
         'errorCode', t.error_code,
         'latencyMs', t.latency_ms,
         'inputTokens', t.input_tokens,
         'outputTokens', t.output_tokens,
         'costMicros', t.cost_micros
       ) ORDER BY t.trial_index)::jsonb AS trials,
       count(*) AS trial_count,
       count(*) FILTER (WHERE {_COMPLETED}) AS graded_count,
       count(*) FILTER (WHERE {_COMPLETED} AND t.passed) AS passed_count
FROM trial t
JOIN run r ON r.comparison_id = t.comparison_id AND r.cohort_index = t.cohort_index
WHERE t.comparison_id = $1 AND t.case_ordinal = ANY($2::int[]) AND {_IN_SLICE}
GROUP BY r.id, t.case_ordinal
) g
JOIN comparison_case cc ON cc.comparison_id = $1 AND cc.ordinal = g.position
JOIN dataset_case dc ON dc.id = cc.dataset_case_id
"""


def _scores_sql(names: Sequence[str]) -> str:
    """Every evaluator's mean score per item in one pass over the trial rows (names bound
    as $3, $4…, as in `_items_sql`); an item without a score for it gets no row."""
    pairs = ", ".join(f"(${3 + j}::text, {_score(j)})" for j in range(len(names)))
    return f"""
INSERT INTO run_item_score (run_id, position, evaluator, mean, count)
SELECT r.id, t.case_ordinal, e.name, avg(e.score), count(e.score)
FROM trial t
JOIN run r ON r.comparison_id = t.comparison_id AND r.cohort_index = t.cohort_index
CROSS JOIN LATERAL (VALUES {pairs}) AS e(name, score)
WHERE t.comparison_id = $1 AND t.case_ordinal = ANY($2::int[]) AND {_IN_SLICE} AND {_COMPLETED}
GROUP BY r.id, t.case_ordinal, e.name
HAVING count(e.score) > 0
"""


async def insert_items(
    driver: Any, *, comparison_id: str, ran: Sequence[int], names: Sequence[str]
) -> None:
    """Items and scores for the hosted runs of `comparison_id` (which hold none yet), on
    `driver` (the session's asyncpg connection, inside its transaction)."""
    await driver.execute(_items_sql(names), comparison_id, list(ran), *names)
    if names:
        await driver.execute(_scores_sql(names), comparison_id, list(ran), *names)


async def write(
    session: AsyncSession, *, comparison_id: str, ran: Sequence[int], names: Sequence[str]
) -> None:
    """`insert_items` on the session's connection."""
    await insert_items(
        await bulk.driver(session), comparison_id=comparison_id, ran=ran, names=names
    )
