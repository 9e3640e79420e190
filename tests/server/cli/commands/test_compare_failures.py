"""`shipwise compare` when judging fails: retries, partial results, diagnostics, exit codes."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tests.fakes.judge_server import FakeJudge
from tests.server.cli.commands.compare_helpers import (
    case_outcomes,
    closed_port,
    combined,
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

TIMEOUT_MESSAGE = "Timeout after 300ms waiting for the judge"
NOT_FOUND_MESSAGE = 'HTTP 404 from the judge (is model "judge-1" available?)'


@pytest.fixture(scope="module")
def judge() -> Iterator[FakeJudge]:
    with FakeJudge(slow_seconds=1.0) as fake:
        yield fake


@pytest.fixture(autouse=True)
def _clean(judge: FakeJudge) -> None:
    judge.reset()


def _args(judge: FakeJudge, main: Path, branch: Path, out: Path, *extra: str) -> list[str]:
    return [
        "--baseline", str(main), "--treatment", str(branch), "--output", str(out),
        "--judge-connection-url", judge.base_url, "--judge-model", "judge-1",
        "--judge-timeout", "300ms", *extra,
    ]  # fmt: skip


# (baseline quality, treatment quality, baseline passed, treatment passed, tokens b/t,
#  baseline note, treatment note)
PARTIAL = [
    (2, 3, True, True, 100, 90, "", "[judge:404]"),  # terminal in both orders
    (2, 4, False, True, 120, 80, "", "[judge:429]"),  # retryable, exhausted
    (3, 1, True, False, 80, 95, "[judge:slow-as-A]", "[judge:404-as-A]"),  # differing errors
    (1, 3, False, True, 150, 110, "", ""),
    (3, 3, True, False, 90, 70, "", ""),
    (2, 3, False, True, 60, 75, "", ""),
    (3, 2, True, True, 130, 100, "", ""),
    (1, 2, False, False, 70, 65, "", ""),
]


def _partial_files(tmp_path: Path) -> tuple[Path, Path]:
    base, treat = [], []
    for i, (qb, qt, pb, pt, tb, tt, nb, nt) in enumerate(PARTIAL):
        base.append(item(f"c{i}", i, [trial(qb, pb, note=nb, tokens=tb)]))
        treat.append(item(f"c{i}", i, [trial(qt, pt, note=nt, tokens=tt)]))
    return (
        write_results(tmp_path / "main.jsonl", base),
        write_results(tmp_path / "branch.jsonl", treat),
    )


def test_a_partial_comparison_covers_judged_pairs_only_and_exits_one(
    judge: FakeJudge, tmp_path: Path
) -> None:
    main, branch = _partial_files(tmp_path)
    out = tmp_path / "out.jsonl"
    done = shipwise_compare(*_args(judge, main, branch, out, "--fail-on-regression"))
    assert done.code == 1
    assert "judged 5 of 8 matched pairs" in done.stderr
    assert (
        "⚠ Judged 5 of 8 matched pairs — 3 failed during judging.\n"
        "    All statistics below — score, CI, grader pass/fail, and metric deltas —\n"
        "    cover only the 5 judged pairs.\n"
    ) in done.stdout
    (record,) = read_records(out)
    assert (record["status"], record["judgedPairs"], record["failedPairs"]) == ("PARTIAL", 5, 3)

    judged = PARTIAL[3:]
    scores = np.array([combined(*orders(r[0], r[1], prefer_a=False)) for r in judged])
    low, high = t_interval(scores, bounds=(-1.0, 1.0))
    pairwise = record["pairwise"]
    assert (pairwise["judgedPairs"], pairwise["totalPairs"]) == (5, 8)
    assert pairwise["meanScore"] == pytest.approx(scores.mean())
    assert (pairwise["low"], pairwise["high"]) == pytest.approx((low, high))
    assert pairwise["winRate"] == pytest.approx(np.mean(scores > 0))
    assert pairwise["lossRate"] == pytest.approx(np.mean(scores < 0))
    outcomes = case_outcomes([(f"c{i}", r[2], r[3]) for i, r in enumerate(judged)])
    improved = sum(t and not b for b, t in outcomes.values())
    regressed = sum(b and not t for b, t in outcomes.values())
    mid, exact = mcnemar_mid_p(improved, regressed)
    assert record["mcnemar"]["n"] == 5
    assert (record["mcnemar"]["improved"], record["mcnemar"]["regressed"]) == (improved, regressed)
    assert (record["mcnemar"]["pValue"], record["mcnemar"]["exactPValue"]) == pytest.approx(
        (mid, exact)
    )
    (tokens,) = record["metricDeltas"]
    want = expected_metric([(f"c{i}", r[4], r[5]) for i, r in enumerate(judged)], name="tokens")
    assert {k: tokens[k] for k in want if k != "name"} == pytest.approx(
        {k: v for k, v in want.items() if k != "name"}
    )

    failures = {p["datasetItemId"]: p["failure"] for p in record["pairs"] if p["errored"]}
    assert failures == {
        "c0": {
            "errorClass": "http_error",
            "retryable": False,
            "attempts": 1,
            "message": NOT_FOUND_MESSAGE,
            "model": "judge-1",
        },
        "c1": {
            "errorClass": "rate_limited",
            "retryable": True,
            "attempts": 3,
            "message": "HTTP 429 from the judge (rate limited)",
            "model": "judge-1",
        },
        "c2": {
            "errorClass": "timeout",
            "retryable": False,  # only when every failed direction is retryable
            "attempts": 3,
            "message": TIMEOUT_MESSAGE,
            "model": "judge-1",
            "otherMessages": [NOT_FOUND_MESSAGE],
        },
    }
    # 3 attempts for each retryable direction, 1 for each terminal one.
    assert len(judge.prompts_with("[judge:429]")) == 6
    assert len(judge.prompts_with("[judge:404]")) == 2
    assert len(judge.prompts_with("[judge:slow-as-A]")) == 3 + 1
    assert "c2 trial 0: timeout (terminal, 3 attempts)" in done.stdout
    assert f"other direction: {NOT_FOUND_MESSAGE}" in done.stdout


def test_a_pair_recovered_on_retry_is_byte_identical_to_a_clean_one(
    judge: FakeJudge, tmp_path: Path
) -> None:
    outputs: list[tuple[str, bytes]] = []
    for name, notes in (
        ("retried", ("[judge:429-once]", "[judge:slow-once]")),
        ("clean", ("", "")),
    ):
        folder = tmp_path / name
        folder.mkdir()
        base = [item(f"c{i}", i, [trial(2, True, tokens=10 + i)]) for i in range(4)]
        treat = [item(f"c{i}", i, [trial(3 - i % 2, i < 3, tokens=12)]) for i in range(4)]
        treat[1]["trials"][0]["output"] += " " + notes[0]
        treat[2]["trials"][0]["output"] += " " + notes[1]
        main = write_results(folder / "main.jsonl", base)
        branch = write_results(folder / "branch.jsonl", treat)
        done = shipwise_compare(*_args(judge, main, branch, folder / "out.jsonl", "--verbose"))
        assert done.code == 0, done.stdout + done.stderr
        outputs.append((done.stdout, (folder / "out.jsonl").read_bytes()))
    assert len(judge.prompts_with("[judge:429-once]")) == 4  # each order: one 429, one answer
    assert outputs[0] == outputs[1]


def test_every_pair_failing_gives_no_statistics_and_exits_one(tmp_path: Path) -> None:
    base = [item(f"c{i}", i, [trial(2, True, tokens=5)]) for i in range(2)]
    treat = [item(f"c{i}", i, [trial(3, False, tokens=7)]) for i in range(2)]
    main = write_results(tmp_path / "main.jsonl", base)
    branch = write_results(tmp_path / "branch.jsonl", treat)
    out = tmp_path / "out.jsonl"
    url = f"http://127.0.0.1:{closed_port()}/v1"
    done = shipwise_compare(
        "--baseline", str(main), "--treatment", str(branch), "--output", str(out),
        "--judge-connection-url", url, "--judge-model", "judge-1",
    )  # fmt: skip
    assert done.code == 1
    assert "No statistics available — every matched pair failed" in done.stdout
    assert "Win rate" not in done.stdout and "0.0%" not in done.stdout
    (record,) = read_records(out)
    assert record["status"] == "NO_SIGNAL"
    assert (record["pairwise"], record["mcnemar"], record["metricDeltas"]) == (None, None, [])
    assert (record["judgedPairs"], record["failedPairs"]) == (0, 2)
    for pair in record["pairs"]:
        failure: dict[str, Any] = pair["failure"]
        assert (failure["errorClass"], failure["retryable"], failure["attempts"]) == (
            "connection",
            True,
            3,
        )
        assert failure["message"].startswith("cannot connect to the judge at 127.0.0.1:")


def test_a_refused_key_is_a_terminal_failure(tmp_path: Path) -> None:
    base = [item("c0", 0, [trial(2)])]
    treat = [item("c0", 0, [trial(3)])]
    main = write_results(tmp_path / "main.jsonl", base)
    branch = write_results(tmp_path / "branch.jsonl", treat)
    out = tmp_path / "out.jsonl"
    with FakeJudge(api_key="sk-right") as keyed:
        done = shipwise_compare(
            *_args(keyed, main, branch, out), env={"SHIPWISE_JUDGE_API_KEY": "sk-wrong"}
        )
        assert len(keyed.requests) == 2
    assert done.code == 1
    (record,) = read_records(out)
    assert record["pairs"][0]["failure"]["message"] == (
        "HTTP 401 from the judge (check SHIPWISE_JUDGE_API_KEY)"
    )
    assert record["pairs"][0]["failure"]["attempts"] == 1
