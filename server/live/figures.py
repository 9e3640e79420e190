"""What a live comparison shows, from its grade rows: each arm's figures, the decision (the
ship policy over `stats.live`'s sequences, docs/live.md) and the first baseline's quality
sequence. Pure: rows in, documents out (camelCase, as GraphQL shows them)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import numpy as np

from server.decisions import live as live_decision
from stats.decision.live import LiveArm
from stats.live.means import DifferenceSequence, thin

SEQUENCE_POINTS = 500
MICROS_PER_CENT = 10_000


@dataclass(frozen=True, slots=True)
class Grade:
    """One graded trace, in arrival order."""

    release: str
    passed: float | None
    failed_or_missing: bool
    cost_micros: int
    output_tokens: int
    duration_ms: float
    graded_at: datetime


@dataclass(frozen=True, slots=True)
class Figures:
    arms: list[dict[str, Any]]
    decision: dict[str, Any]
    sequence: list[dict[str, Any]]


def _arm(release: str, grades: Sequence[Grade]) -> LiveArm:
    mine = [g for g in grades if g.release == release]
    return LiveArm(
        release=release,
        quality=np.array([g.passed for g in mine if g.passed is not None], dtype=np.float64),
        errors=np.array([1.0 if g.failed_or_missing else 0.0 for g in mine]),
        costs=np.array([g.cost_micros / MICROS_PER_CENT for g in mine], dtype=np.float64),
        output_tokens=np.array([float(g.output_tokens) for g in mine], dtype=np.float64),
        latencies=np.array([g.duration_ms for g in mine], dtype=np.float64),
    )


def _arm_document(arm: LiveArm, traces: int) -> dict[str, Any]:
    graded = arm.traces
    return {
        "release": arm.release,
        "traces": max(traces, graded),
        "graded": graded,
        "passRate": float(arm.quality.mean()) if arm.quality.size else None,
        "costPerTrace": float(arm.costs.mean()) if graded else None,
        "latencyP95Ms": float(np.quantile(arm.latencies, 0.95)) if graded else None,
        "errorRate": float(arm.errors.mean()) if graded else None,
    }


def _sequence(seq: DifferenceSequence, times: Sequence[datetime]) -> list[dict[str, Any]]:
    points = []
    for index in thin(seq.pairs, SEQUENCE_POINTS):
        low, high = float(seq.low[index]), float(seq.high[index])
        points.append(
            {
                "at": times[index].isoformat() if index < len(times) else None,
                "traces": index + 1,
                # The running mean may sit just outside the sequence (the sequence is
                # intersected over time and weights the traces by their bets): drawn at
                # the nearer end.
                "estimate": min(max(float(seq.estimate[index]), low), high) * 100.0,
                "low": low * 100.0,
                "high": high * 100.0,
            }
        )
    return points


def compute(
    *,
    candidate: str,
    baselines: Sequence[str],
    policy_document: dict[str, Any],
    grades: Sequence[Grade],
    traces: dict[str, int],
) -> Figures:
    """The arms, the decision document and the sequence from every grade so far."""
    cand = _arm(candidate, grades)
    bases = [_arm(b, grades) for b in baselines]
    document, sequences = live_decision.decide(
        candidate=cand, baselines=bases, policy_document=policy_document
    )
    arms = [_arm_document(arm, traces.get(arm.release, 0)) for arm in (cand, *bases)]
    # The pair count t is reached when the later of the two arms' t-th quality value is in.
    cand_times = [g.graded_at for g in grades if g.release == candidate and g.passed is not None]
    base_times = [
        g.graded_at
        for g in grades
        if baselines and g.release == baselines[0] and g.passed is not None
    ]
    times = [max(a, b) for a, b in zip(cand_times, base_times, strict=False)]
    sequence = _sequence(sequences[0], times) if sequences else []
    return Figures(arms, document, sequence)
