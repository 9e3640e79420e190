"""What the pairwise judge is given of one matched pair: the task, each side's output and,
when a trial carries one, its trajectory with its metrics as evidence (`server.judges.
pair_evidence`; docs/domain.md, "Trajectories in runs")."""

from __future__ import annotations

from server.judges.pair import PairInput
from server.judges.pair_evidence import render_trajectory
from server.offline_compare.pairing import Pair


def pair_input(pair: Pair) -> PairInput:
    return PairInput(
        pair.case_input,
        pair.baseline.output,
        pair.treatment.output,
        baseline_trajectory=render_trajectory(pair.baseline.trajectory, pair.baseline.metrics),
        treatment_trajectory=render_trajectory(pair.treatment.trajectory, pair.treatment.metrics),
    )
