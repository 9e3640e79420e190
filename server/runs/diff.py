"""Run diffs: the summary, cached per run pair and ε (the case list is `server.runs.cases`).

The database pairs the items and computes every per-item difference
(`server.runs.diff_queries`); only the pairs' pass counts and each evaluator's vector of
differences reach `stats/`, which decides significance as docs/statistics.md says.
"""

from __future__ import annotations

import asyncio
import hashlib
import math
from dataclasses import asdict, dataclass, field, replace
from typing import Any, Final

import numpy as np
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

import stats
from server.errors import Conflict, ValidationFailed
from server.runs import diff_queries as q
from server.runs import service as run_service
from server.runs import statuses as st
from server.runs import vectors as run_vectors
from server.runs.models import Run, RunDiffSummary, RunSource, RunStatus
from stats import reasons
from stats.movement import TOLERANCE

DEFAULT_EPSILON: Final = 0.01
ALPHA: Final = 0.05
MIN_PAIRED: Final = 20
SUMMARY_VERSION: Final = 4  # 2: changed pairs' positions; 3: pass flips; 4: no_change_count


@dataclass(frozen=True, slots=True)
class EvaluatorSummary:
    name: str
    paired_count: int
    baseline_mean: float
    candidate_mean: float
    delta: float
    low: float
    high: float
    p_value: float
    adjusted_p_value: float
    method: str
    significant: bool


@dataclass(frozen=True, slots=True)
class DiffSummary:
    """The whole-run movement; `significant` is the gate on the pass rate alone."""

    candidate_run_id: str
    baseline_run_id: str
    epsilon: float
    pairing: str
    paired_count: int
    graded_pair_count: int
    baseline_pass_rate: float | None
    candidate_pass_rate: float | None
    pass_rate_delta: float | None
    delta_low: float | None
    delta_high: float | None
    interval_method: str | None
    method: str
    p_value: float
    exact_p_value: float | None
    significant: bool
    significance_reason: str
    improved_count: int
    regressed_count: int
    no_change_count: int
    added_count: int
    removed_count: int
    pass_flips_to_fail: int = 0
    """Pairs graded on both sides whose majority outcome went pass → fail (McNemar's
    discordant pairs, as `shipwise compare` counts them); `pass_flips_to_pass` the reverse."""
    pass_flips_to_pass: int = 0
    evaluators: tuple[EvaluatorSummary, ...] = field(default_factory=tuple)
    # The candidate positions of the REGRESSED and the IMPROVED pairs, ascending: a filtered
    # page of cases reads its rows by position instead of deriving statuses again in SQL.
    regressed_positions: tuple[int, ...] = field(default_factory=tuple, repr=False)
    improved_positions: tuple[int, ...] = field(default_factory=tuple, repr=False)

    @property
    def regression(self) -> bool:
        """What `shipwise gate` and RUN_REGRESSED act on: significant and Δ < 0."""
        return self.significant and (self.pass_rate_delta or 0.0) < 0

    def to_json(self) -> dict[str, Any]:
        # `asdict` deep-copies every element: the positions (thousands) go in as lists.
        rest = asdict(replace(self, regressed_positions=(), improved_positions=()))
        rest["regressed_positions"] = list(self.regressed_positions)
        rest["improved_positions"] = list(self.improved_positions)
        return {"version": SUMMARY_VERSION, **rest}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> DiffSummary:
        fields = {k: v for k, v in data.items() if k != "version"}
        fields["evaluators"] = tuple(EvaluatorSummary(**e) for e in fields["evaluators"])
        for name in ("regressed_positions", "improved_positions"):
            fields[name] = tuple(fields.get(name, ()))
        return cls(**fields)


def check_epsilon(epsilon: float | None) -> float:
    value = DEFAULT_EPSILON if epsilon is None else float(epsilon)
    if not math.isfinite(value) or not 0.0 <= value < 1.0:
        raise ValidationFailed("`epsilon` must be at least 0 and below 1", field="epsilon")
    return value


def pair_seed(candidate_run_id: str, baseline_run_id: str) -> int:
    """The bootstrap and Monte Carlo seed of a run pair, so its numbers are reproducible."""
    digest = hashlib.sha256(f"{candidate_run_id}/{baseline_run_id}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


async def completed_pair(
    *, session: AsyncSession, workspace_id: str, candidate_run_id: str, baseline_run_id: str
) -> tuple[Run, Run]:
    """Both runs of the workspace, COMPLETED; CONFLICT (reason RUN_NOT_COMPLETED) otherwise."""
    candidate = await run_service.get(
        session=session, workspace_id=workspace_id, run_id=candidate_run_id, field="candidateRunId"
    )
    baseline = await run_service.get(
        session=session, workspace_id=workspace_id, run_id=baseline_run_id, field="baselineRunId"
    )
    for role, run in (("candidate", candidate), ("baseline", baseline)):
        if run.status != RunStatus.COMPLETED:
            raise Conflict(
                f"the {role} run is {run.status.value}: only COMPLETED runs are diffed",
                reason="RUN_NOT_COMPLETED",
                runId=run.id,
            )
    return candidate, baseline


async def diff_summary(
    *,
    session: AsyncSession,
    workspace_id: str,
    candidate_run_id: str,
    baseline_run_id: str,
    epsilon: float | None = DEFAULT_EPSILON,
) -> DiffSummary:
    """The diff's summary, read from the cache or computed and cached."""
    eps = check_epsilon(epsilon)
    candidate, baseline = await completed_pair(
        session=session,
        workspace_id=workspace_id,
        candidate_run_id=candidate_run_id,
        baseline_run_id=baseline_run_id,
    )
    key = repr(eps)
    cached = await session.scalar(
        select(RunDiffSummary.summary).where(
            RunDiffSummary.candidate_run_id == candidate.id,
            RunDiffSummary.baseline_run_id == baseline.id,
            RunDiffSummary.epsilon == key,
        )
    )
    if cached is not None and cached.get("version") == SUMMARY_VERSION:
        return DiffSummary.from_json(cached)
    summary = await _compute(session, candidate, baseline, eps)
    await _store(session, summary, key)
    return summary


async def diff_against_previous(
    *, session: AsyncSession, workspace_id: str, run_id: str, epsilon: float = DEFAULT_EPSILON
) -> DiffSummary | None:
    """An imported run's diff against the previous completed imported run of its experiment
    (what RUN_REGRESSED acts on: fire when `.regression`); None without such a run."""
    run = await run_service.get(session=session, workspace_id=workspace_id, run_id=run_id)
    if run.source != RunSource.IMPORTED:
        return None
    previous = await run_service.previous_completed_imported_run(
        session=session, workspace_id=workspace_id, run_id=run_id
    )
    if previous is None:
        return None
    return await diff_summary(
        session=session,
        workspace_id=workspace_id,
        candidate_run_id=run.id,
        baseline_run_id=previous.id,
        epsilon=epsilon,
    )


async def _store(session: AsyncSession, summary: DiffSummary, key: str) -> None:
    """Cache the summary; a concurrent request that stored it first wins (same numbers)."""
    row = RunDiffSummary(
        candidate_run_id=summary.candidate_run_id,
        baseline_run_id=summary.baseline_run_id,
        epsilon=key,
        summary=summary.to_json(),
    )
    try:
        async with session.begin_nested():
            session.add(row)
    except IntegrityError:
        return


async def _compute(
    session: AsyncSession, candidate: Run, baseline: Run, epsilon: float
) -> DiffSummary:
    if await q.is_postgres(session):
        await run_vectors.build(session, [candidate.id, baseline.id])  # kept: runs are final
    # In a savepoint rolled back afterwards, so the planner settings end with the reads
    # and a caller's own transaction (the alerting job's, say) goes on as it was.
    savepoint = await session.begin_nested()
    try:
        await q.pin_join_order(session)
        pairing = await q.pairing(session, candidate.id, baseline.id)
        sides = q.Sides(candidate.id, baseline.id, pairing)
        pairs, vectors = await q.vectors(session, sides)
    finally:
        await savepoint.rollback()
    counts = (candidate.item_count, baseline.item_count)
    seed = pair_seed(candidate.id, baseline.id)
    # The statistics are CPU work: keep the event loop serving meanwhile.
    return await asyncio.get_running_loop().run_in_executor(
        None, _summarize, sides, epsilon, pairs, vectors, counts, seed
    )


def _summarize(
    sides: q.Sides,
    epsilon: float,
    pairs: q.PairVectors,
    vectors: list[q.EvaluatorVector],
    item_counts: tuple[int, int],
    seed: int,
) -> DiffSummary:
    paired = len(pairs.positions)
    low = np.full(paired, np.inf)
    high = np.full(paired, -np.inf)
    for vector in vectors:
        index = np.searchsorted(pairs.positions, vector.positions)
        np.minimum.at(low, index, vector.differences)
        np.maximum.at(high, index, vector.differences)
    status = st.array_status(
        pairs.candidate_passed,
        pairs.candidate_graded,
        pairs.baseline_passed,
        pairs.baseline_graded,
        low,
        high,
        epsilon,
    )
    graded = (pairs.candidate_graded > 0) & (pairs.baseline_graded > 0)
    candidate_passes = 2 * pairs.candidate_passed > pairs.candidate_graded
    baseline_passes = 2 * pairs.baseline_passed > pairs.baseline_graded
    pass_rate = _pass_rate_test(
        pairs.candidate_passed[graded],
        pairs.candidate_graded[graded],
        pairs.baseline_passed[graded],
        pairs.baseline_graded[graded],
        epsilon,
        seed,
    )
    return DiffSummary(
        candidate_run_id=sides.candidate,
        baseline_run_id=sides.baseline,
        epsilon=epsilon,
        pairing=sides.pairing,
        paired_count=paired,
        improved_count=int(np.count_nonzero(status == st.IMPROVED)),
        regressed_count=int(np.count_nonzero(status == st.REGRESSED)),
        no_change_count=int(np.count_nonzero(status == st.NO_CHANGE)),
        added_count=item_counts[0] - paired,
        removed_count=item_counts[1] - paired,
        pass_flips_to_fail=int(np.count_nonzero(graded & baseline_passes & ~candidate_passes)),
        pass_flips_to_pass=int(np.count_nonzero(graded & candidate_passes & ~baseline_passes)),
        evaluators=_evaluators(vectors, epsilon, seed),
        regressed_positions=tuple(pairs.positions[status == st.REGRESSED].tolist()),
        improved_positions=tuple(pairs.positions[status == st.IMPROVED].tolist()),
        **pass_rate,
    )


def _pass_rate_test(
    cand_passed: np.ndarray[Any, Any],
    cand_graded: np.ndarray[Any, Any],
    base_passed: np.ndarray[Any, Any],
    base_graded: np.ndarray[Any, Any],
    epsilon: float,
    seed: int,
) -> dict[str, Any]:
    """Pass rates over the pairs graded on both sides, the paired test and the gate."""
    n = len(cand_passed)
    if n == 0:
        return {
            "graded_pair_count": 0,
            "baseline_pass_rate": None,
            "candidate_pass_rate": None,
            "pass_rate_delta": None,
            "delta_low": None,
            "delta_high": None,
            "interval_method": None,
            "method": reasons.NONE,
            "p_value": 1.0,
            "exact_p_value": None,
            "significant": False,
            "significance_reason": reasons.NO_CASES,
        }
    scheduled = int(max(cand_graded.max(), base_graded.max()))
    candidate = stats.CohortTrials.of(cand_passed, cand_graded, scheduled)
    baseline = stats.CohortTrials.of(base_passed, base_graded, scheduled)
    test = stats.paired_test(candidate, baseline, seed=seed)
    cand_rate = cand_passed / cand_graded
    base_rate = base_passed / base_graded
    differences = cand_rate - base_rate
    interval = stats.delta_interval(differences, seed=seed, bounds=(-1.0, 1.0))
    delta = float(differences.mean())
    beyond = abs(delta) > epsilon + TOLERANCE
    if n < MIN_PAIRED:
        significant, reason = False, reasons.INSUFFICIENT_CASES
    elif beyond and test.p_value < ALPHA:
        significant = True
        reason = reasons.SIGNIFICANT_REGRESSION if delta < 0 else reasons.SIGNIFICANT_IMPROVEMENT
    else:
        significant, reason = False, "WITHIN_EPSILON" if not beyond else "NOT_SIGNIFICANT"
    return {
        "graded_pair_count": n,
        "baseline_pass_rate": float(base_rate.mean()),
        "candidate_pass_rate": float(cand_rate.mean()),
        "pass_rate_delta": delta,
        "delta_low": interval.low,
        "delta_high": interval.high,
        "interval_method": interval.method,
        "method": test.method,
        "p_value": test.p_value,
        "exact_p_value": test.exact_p_value,
        "significant": significant,
        "significance_reason": reason,
    }


def _evaluators(
    vectors: list[q.EvaluatorVector], epsilon: float, seed: int
) -> tuple[EvaluatorSummary, ...]:
    """Per evaluator: sign-flip p, bootstrap interval, Holm across the evaluators."""
    tests = []
    for vector in vectors:
        differences = vector.differences
        test = stats.sign_flip_test(differences, seed=seed)
        interval = stats.delta_interval(differences, seed=seed)
        tests.append((vector, differences, test, interval))
    adjusted = stats.holm([test.p_value for _, _, test, _ in tests])
    rows = []
    for (vector, differences, test, interval), p_adjusted in zip(tests, adjusted, strict=True):
        delta = float(differences.mean())
        significant = (
            len(differences) >= MIN_PAIRED
            and abs(delta) > epsilon + TOLERANCE
            and p_adjusted < ALPHA
        )
        rows.append(
            EvaluatorSummary(
                name=vector.name,
                paired_count=len(differences),
                baseline_mean=vector.baseline_mean,
                candidate_mean=vector.candidate_mean,
                delta=delta,
                low=interval.low,
                high=interval.high,
                p_value=test.p_value,
                adjusted_p_value=p_adjusted,
                method=test.method,
                significant=significant,
            )
        )
    return tuple(rows)
