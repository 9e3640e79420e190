"""What a live comparison shows, from its grades: each arm's figures, the decision (the ship
policy over `stats.live`'s sequences, docs/live.md) and the first baseline's quality
sequence, thinned to at most 500 drawn points. Pure: columns in (`server/live/history.py`),
documents out (camelCase, as GraphQL shows them)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import numpy as np

from server.decisions import live as live_decision
from server.live.history import Grade, History
from stats._arrays import FloatArray
from stats.decision.live import LiveArm
from stats.live.means import DifferenceSequence, thin

SEQUENCE_POINTS = 500

__all__ = ["Figures", "Grade", "History", "compute"]


@dataclass(frozen=True, slots=True)
class Figures:
    arms: list[dict[str, Any]]
    decision: dict[str, Any]
    sequence: list[dict[str, Any]]


def _arm(index: int, history: History) -> LiveArm:
    mine = history.arm == index
    passed = history.passed[mine]
    return LiveArm(
        release=history.releases[index],
        quality=passed[~np.isnan(passed)],
        errors=history.failed[mine],
        costs=history.cost_cents[mine],
        output_tokens=history.output_tokens[mine],
        latencies=history.duration_ms[mine],
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


def _quality_times(history: History, index: int) -> FloatArray:
    """When each quality value of an arm was graded (epoch seconds), in arrival order."""
    times: FloatArray = history.graded_at[(history.arm == index) & ~np.isnan(history.passed)]
    return times


def _sequence(seq: DifferenceSequence, times: FloatArray) -> list[dict[str, Any]]:
    points = []
    for index in thin(seq.pairs, SEQUENCE_POINTS):
        low, high = float(seq.low[index]), float(seq.high[index])
        at = datetime.fromtimestamp(float(times[index]), UTC) if index < times.size else None
        points.append(
            {
                "at": at.isoformat() if at is not None else None,
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
    history: History,
    traces: dict[str, int],
) -> Figures:
    """The arms, the decision document and the sequence from every grade so far (the
    history's arms are (candidate, *baselines), in that order)."""
    if history.releases != (candidate, *baselines):
        raise ValueError("the history's arms are not the comparison's")
    cand = _arm(0, history)
    bases = [_arm(n + 1, history) for n in range(len(baselines))]
    document, sequences = live_decision.decide(
        candidate=cand, baselines=bases, policy_document=policy_document
    )
    arms = [_arm_document(arm, traces.get(arm.release, 0)) for arm in (cand, *bases)]
    # The pair count t is reached when the later of the two arms' t-th quality value is in.
    sequence: list[dict[str, Any]] = []
    if sequences:
        cand_times, base_times = _quality_times(history, 0), _quality_times(history, 1)
        pairs = min(cand_times.size, base_times.size)
        times = np.maximum(cand_times[:pairs], base_times[:pairs])
        sequence = _sequence(sequences[0], times)
    return Figures(arms, document, sequence)
