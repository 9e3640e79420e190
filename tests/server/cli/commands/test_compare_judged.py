"""`shipwise compare` with a pairwise judge: a real fake judge server on 127.0.0.1."""

from __future__ import annotations

import json
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tests.fakes.judge_server import FakeJudge, responses
from tests.server.cli.commands.compare_helpers import (
    METRIC_NAMES,
    case_outcomes,
    combined,
    exact_sign_flip_p,
    expected_metric,
    item,
    mcnemar_mid_p,
    orders,
    read_records,
    shipwise_compare,
    t_interval,
    trial,
    write_results,
)

JUDGE_KEY = "sk-judge-0123456789"
CONVERSATION = [
    {"role": "user", "content": "My name is Ada and I like tea."},
    {"role": "assistant", "content": "Nice to meet you, Ada."},
    {"role": "user", "content": "What do I like to drink?"},
]
# (case, [(baseline quality, treatment quality, baseline passed, treatment passed), …])
DESIGN: list[tuple[str, list[tuple[int, int, bool, bool]]]] = [
    ("q0", [(3, 3, True, True)]),  # equal: the biased judge's orders disagree, a tie
    ("q1", [(2, 4, False, True)]),  # much better in both orders
    ("q2", [(3, 2, True, False)]),
    ("q3", [(1, 2, False, False), (2, 2, True, True)]),
    ("q4", [(2, 3, False, True)]),
    ("q5", [(4, 1, True, False)]),
    ("q6", [(2, 4, False, True), (1, 2, False, True)]),
    ("q7", [(3, 3, True, True)]),
    ("q8", [(1, 3, False, True)]),
    ("q9", [(2, 3, True, True)]),
]


@pytest.fixture(scope="module")
def judge() -> Iterator[FakeJudge]:
    with FakeJudge(api_key=JUDGE_KEY, prefer_a=True, slow_seconds=1.0) as fake:
        yield fake


@pytest.fixture(autouse=True)
def _clean(judge: FakeJudge) -> None:
    judge.reset()


def _metrics(rng: np.random.Generator) -> dict[str, float]:
    return {
        "tokens": int(rng.integers(50, 200)),
        "turns": int(rng.integers(1, 4)),
        "toolCalls": int(rng.integers(0, 3)),
        "wallMs": int(rng.integers(100, 900)),
        "errors": int(rng.integers(0, 2)),
    }


def _design_files(
    tmp_path: Path, notes: dict[tuple[str, int], str] | None = None
) -> tuple[Path, Path, list[dict[str, Any]]]:
    """main.jsonl and branch.jsonl from DESIGN; also the rows the expectations use."""
    rng = np.random.default_rng(42)
    base_items, treat_items, rows = [], [], []
    for position, (case, trials) in enumerate(DESIGN):
        task = CONVERSATION if case == "q3" else None
        base_trials, treat_trials = [], []
        for index, (qb, qt, pb, pt) in enumerate(trials):
            mb, mt = _metrics(rng), _metrics(rng)
            note = (notes or {}).get((case, index), "")
            base_trials.append({**trial(qb, pb), "metrics": mb})
            treat_trials.append({**trial(qt, pt, note=note), "metrics": mt})
            rows.append({"case": case, "qb": qb, "qt": qt, "pb": pb, "pt": pt, "mb": mb, "mt": mt})
        base_items.append(item(case, position, base_trials, task))
        treat_items.append(item(case, position, treat_trials, task))
    return (
        write_results(tmp_path / "main.jsonl", base_items),
        write_results(tmp_path / "branch.jsonl", treat_items),
        rows,
    )


def _expected(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The pairwise, McNemar and metric records for the (judged) rows, computed here."""
    scores, disagreements = [], 0
    per_case: dict[str, list[float]] = {}
    for row in rows:
        forward, reverse = orders(row["qb"], row["qt"], prefer_a=True)
        score = combined(forward, reverse)
        disagreements += np.sign(forward) != np.sign(reverse)
        scores.append(score)
        per_case.setdefault(row["case"], []).append(score)
    case_scores = [
        Fraction(sum(Fraction(s).limit_denominator(5) for s in v), len(v))
        for v in per_case.values()
    ]
    values = np.array([float(c) for c in case_scores])
    low, high = t_interval(values, bounds=(-1.0, 1.0))
    wins = sum(s > 0 for s in scores)
    losses = sum(s < 0 for s in scores)
    judged = len(scores)
    outcomes = case_outcomes([(r["case"], r["pb"], r["pt"]) for r in rows])
    improved = sum(1 for b, t in outcomes.values() if t and not b)
    regressed = sum(1 for b, t in outcomes.values() if b and not t)
    mid, exact = mcnemar_mid_p(improved, regressed)
    return {
        "pairwise": {
            "winRate": wins / judged,
            "tieRate": (judged - wins - losses) / judged,
            "lossRate": losses / judged,
            "wins": wins,
            "ties": judged - wins - losses,
            "losses": losses,
            "meanScore": float(values.mean()),
            "low": low,
            "high": high,
            "pValue": exact_sign_flip_p(case_scores),
            "orderDisagreementRate": disagreements / judged,
            "judgedPairs": judged,
            "cases": len(values),
            "regression": bool(values.mean() < 0 and high < 0),
        },
        "mcnemar": {
            "n": len(outcomes),
            "improved": improved,
            "regressed": regressed,
            "delta": (improved - regressed) / len(outcomes),
            "pValue": mid,
            "exactPValue": exact,
        },
        "metricDeltas": [
            expected_metric([(r["case"], r["mb"][m], r["mt"][m]) for r in rows], name=m)
            for m in METRIC_NAMES
        ],
    }


def _assert_statistics(record: dict[str, Any], expected: dict[str, Any]) -> None:
    for key, value in expected["pairwise"].items():
        assert record["pairwise"][key] == pytest.approx(value, rel=1e-9, abs=1e-12), key
    assert record["mcnemar"] == pytest.approx(expected["mcnemar"], rel=1e-9)
    assert len(record["metricDeltas"]) == len(expected["metricDeltas"])
    for got, want in zip(record["metricDeltas"], expected["metricDeltas"], strict=True):
        assert got["name"] == want["name"]
        for key, value in want.items():
            if key != "name":
                assert got[key] == pytest.approx(value, rel=1e-9, abs=1e-12), (want["name"], key)


def _judge_args(judge: FakeJudge, *extra: str) -> list[str]:
    return ["--judge-connection-url", judge.base_url, "--judge-model", "judge-1", *extra]


def test_every_pair_judged_in_both_orders_gives_the_statistics(
    judge: FakeJudge, tmp_path: Path
) -> None:
    main, branch, rows = _design_files(tmp_path)
    rubric = tmp_path / "rubric.txt"
    rubric.write_text("Prefer the answer that remembers what the user said.\n")
    out = tmp_path / "comparison.jsonl"
    done = shipwise_compare(
        "--baseline", str(main), "--treatment", str(branch), "--output", str(out),
        "--rubric", str(rubric), *_judge_args(judge), env={"SHIPWISE_JUDGE_API_KEY": JUDGE_KEY},
    )  # fmt: skip
    assert done.code == 0, done.stderr
    (record,) = read_records(out)
    expected = _expected(rows)
    _assert_statistics(record, expected)
    assert (record["status"], record["matchedPairs"], record["judgedPairs"]) == ("COMPLETE", 12, 12)
    assert (record["baseline"], record["treatment"]) == ("main", "branch")
    pairwise = expected["pairwise"]
    assert (
        f"{100 * pairwise['winRate']:.1f}% wins · {100 * pairwise['tieRate']:.1f}% ties · "
        f"{100 * pairwise['lossRate']:.1f}% losses"
    ) in done.stdout
    assert (
        f"Mean score          {pairwise['meanScore']:+.3f}  95% CI [{pairwise['low']:+.3f}, "
        in done.stdout
    )
    assert "Judged" not in done.stdout and "Verdict: no significant difference" in done.stdout

    # Position bias: equal outputs disagree across orders and tie; better ones win in both.
    pairs = {(p["datasetItemId"], p["trialIndex"]): p for p in record["pairs"]}
    assert (pairs["q0", 0]["forward"], pairs["q0", 0]["reverse"]) == (-0.4, 0.4)
    assert (pairs["q0", 0]["score"], pairs["q0", 0]["orderDisagreement"]) == (0.0, True)
    assert (pairs["q1", 0]["forward"], pairs["q1", 0]["reverse"], pairs["q1", 0]["score"]) == (
        1.0,
        1.0,
        1.0,
    )
    assert (pairs["q5", 0]["forward"], pairs["q5", 0]["reverse"], pairs["q5", 0]["score"]) == (
        -1.0,
        -1.0,
        -1.0,
    )
    assert all("failure" not in p and p["errored"] is False for p in record["pairs"])

    # Twice per pair, swapped, under neutral names, with the key, the rubric, every turn.
    requests = judge.requests
    assert len(requests) == 2 * 12
    assert {r.headers["authorization"] for r in requests} == {f"Bearer {JUDGE_KEY}"}
    shown = sorted(responses(r.body) for r in requests)
    assert sorted((b, a) for a, b in shown) == shown  # each (A, B) also appears swapped
    for request in requests:
        text = json.dumps(request.body)
        assert "main" not in text and "branch" not in text and "baseline" not in text.lower()
        assert "remembers what the user said" in request.body["messages"][0]["content"]
        assert request.body["model"] == "judge-1"
    multi_turn = [
        r for r in requests if "What do I like to drink?" in r.body["messages"][1]["content"]
    ]
    assert len(multi_turn) == 4  # q3's two pairs, both orders
    for request in multi_turn:
        assert all(
            turn["content"] in request.body["messages"][1]["content"] for turn in CONVERSATION
        )


def test_a_significant_regression_fails_only_with_the_flag(
    judge: FakeJudge, tmp_path: Path
) -> None:
    qualities = [(3, 1), (3, 2), (4, 1), (3, 2), (2, 1), (4, 2), (3, 1), (3, 2)]
    base = [item(f"r{i}", i, [trial(qb)]) for i, (qb, _) in enumerate(qualities)]
    treat = [item(f"r{i}", i, [trial(qt)]) for i, (_, qt) in enumerate(qualities)]
    main = write_results(tmp_path / "main.jsonl", base)
    branch = write_results(tmp_path / "branch.jsonl", treat)
    out = tmp_path / "out.jsonl"
    args = [
        "--baseline",
        str(main),
        "--treatment",
        str(branch),
        "--output",
        str(out),
        *_judge_args(judge),
    ]
    env = {"SHIPWISE_JUDGE_API_KEY": JUDGE_KEY}

    gated = shipwise_compare(*args, "--fail-on-regression", env=env)
    assert gated.code == 1, gated.stdout
    assert "significant regression" in gated.stderr
    (record,) = read_records(out)
    scores = np.array([combined(*orders(qb, qt, prefer_a=True)) for qb, qt in qualities])
    low, high = t_interval(scores, bounds=(-1.0, 1.0))
    assert (
        record["pairwise"]["meanScore"],
        record["pairwise"]["low"],
        record["pairwise"]["high"],
    ) == pytest.approx((scores.mean(), low, high))
    assert high < 0 and record["regression"] is True and record["pairwise"]["regression"] is True
    assert "Verdict: significant regression" in gated.stdout

    plain = shipwise_compare(*args, env=env)
    assert plain.code == 0, plain.stderr
