"""A case's movement by its passed ÷ graded trials (docs/domain.md "Movement"), on literals."""

from __future__ import annotations

from stats.movement import CaseFilter, Movement, pass_movements, score_movement


def test_each_rule_in_its_order() -> None:
    # (candidate passed, graded, baseline passed, graded) → movement
    cases = [
        ((1, 2, 2, 2), "REGRESSED"),  # 0.5 vs 1.0: the majority flipped to fail
        ((2, 2, 0, 2), "IMPROVED"),  # flipped to pass
        ((0, 2, 1, 2), "REGRESSED"),  # both fail by majority; 0 < 0.5
        ((2, 3, 3, 3), "REGRESSED"),  # both pass; 2/3 < 1
        ((1, 2, 2, 4), "NO_CHANGE"),  # 0.5 = 0.5 on different trial counts
        ((0, 0, 1, 1), "NO_VERDICT"),  # the candidate has no grade
        ((1, 1, 0, 0), "NO_VERDICT"),  # the baseline has none
    ]
    cp, cg, bp, bg = ([counts[i] for counts, _ in cases] for i in range(4))
    found = pass_movements(cp, cg, bp, bg)
    assert found.tolist() == [expected for _, expected in cases]


def test_epsilon_keeps_small_moves_unchanged_but_not_a_flip() -> None:
    # 5/10 vs 6/10 moves 0.1 and flips the majority (6/10 passes, 5/10 does not).
    assert pass_movements([5], [10], [6], [10], epsilon=0.2).tolist() == ["REGRESSED"]
    # 1/10 vs 2/10: both fail, a move of 0.1 inside ε = 0.2 but beyond ε = 0.05.
    assert pass_movements([1], [10], [2], [10], epsilon=0.2).tolist() == ["NO_CHANGE"]
    assert pass_movements([1], [10], [2], [10], epsilon=0.05).tolist() == ["REGRESSED"]
    # Exactly ε (0.31 − 0.30 against 0.01) is not beyond it.
    assert pass_movements([31], [100], [30], [100], epsilon=0.01).tolist() == ["NO_CHANGE"]


def test_a_score_moves_beyond_epsilon_and_a_missing_one_gives_no_verdict() -> None:
    assert score_movement(-0.3, 0.1) is Movement.REGRESSED
    assert score_movement(0.3, 0.1) is Movement.IMPROVED
    assert score_movement(0.1, 0.1) is Movement.NO_CHANGE
    assert score_movement(None, 0.1) is Movement.NO_VERDICT


def test_filters_share_the_movement_names() -> None:
    assert CaseFilter.ALL.movements is None
    assert CaseFilter.CHANGED.movements == (Movement.REGRESSED, Movement.IMPROVED)
    shared = {f.value for f in CaseFilter} & {m.value for m in Movement}
    assert shared == {"REGRESSED", "IMPROVED"}
