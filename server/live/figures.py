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
from stats.decision.live import LiveArm
from stats.live.means import SequenceNow, thin

SEQUENCE_POINTS = 500

__all__ = ["Figures", "Grade", "History", "compute"]


@dataclass(frozen=True, slots=True)
class Figures:
    arms: list[dict[str, Any]]
    decision: dict[str, Any]
    sequence: list[dict[str, Any]]


def _arm(index: int, history: History) -> LiveArm:
    columns = history.arms[index]
    return LiveArm(
        release=history.releases[index],
        quality=columns.quality.floats,
        errors=columns.errors.floats,
        costs=columns.costs.floats,
        output_tokens=columns.output_tokens.floats,
        latencies=columns.latencies.floats,
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


def _sequence(seq: SequenceNow, history: History) -> list[dict[str, Any]]:
    """The first baseline's sequence at most SEQUENCE_POINTS points; pair t is reached
    when the later of the two arms' t-th quality value is in."""
    picks = np.array(thin(seq.pairs, SEQUENCE_POINTS), dtype=np.int64)
    if picks.size == 0:
        return []
    estimates, lows, highs = seq.at(picks)
    times = np.maximum(history.arms[0].quality_times(picks), history.arms[1].quality_times(picks))
    stamps: dict[float, str] = {}  # a batch's grades share one time: formatted once
    points = []
    for index, estimate, low, high, at in zip(
        picks.tolist(), estimates.tolist(), lows.tolist(), highs.tolist(), times.tolist(),
        strict=True,
    ):  # fmt: skip
        points.append(
            {
                "at": stamps.get(at)
                or stamps.setdefault(at, datetime.fromtimestamp(at, UTC).isoformat()),
                "traces": index + 1,
                # The running mean may sit just outside the sequence (the sequence is
                # intersected over time and weights the traces by their bets): drawn at
                # the nearer end.
                "estimate": min(max(estimate, low), high) * 100.0,
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
    running = None
    if history.alpha == 2.0 * live_decision.engine_policy(policy_document).alpha:
        running = [history.running(n) for n in range(len(baselines))]
    document, sequences = live_decision.decide(
        candidate=cand, baselines=bases, policy_document=policy_document, running=running
    )
    arms = [_arm_document(arm, traces.get(arm.release, 0)) for arm in (cand, *bases)]
    sequence = _sequence(sequences[0], history) if sequences else []
    return Figures(arms, document, sequence)
