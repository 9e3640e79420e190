"""`shipwise compare` without a judge (grades and metrics), experiment directories, usage."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from scipy import stats as scipy_stats

from tests.fakes.judge_server import FakeJudge
from tests.server.cli.commands.compare_helpers import (
    item,
    mcnemar_mid_p,
    read_records,
    shipwise_compare,
    trial,
    write_results,
)


def _graded(
    tmp_path: Path, regressed: int, improved: int, cases: int = 24
) -> tuple[Path, Path, np.ndarray, np.ndarray]:
    """One trial per case; `regressed` cases flip pass → fail, `improved` fail → pass."""
    rng = np.random.default_rng(7)
    wall_base = rng.gamma(4.0, 100.0, size=cases)
    wall_treat = wall_base * rng.normal(0.9, 0.15, size=cases)
    base, treat = [], []
    for i in range(cases):
        passed = i >= improved  # the first `improved` cases fail on the baseline
        flipped = i < improved or improved <= i < improved + regressed
        base.append(item(f"c{i}", i, [trial(1, passed, wallMs=float(wall_base[i]))]))
        treat.append(item(f"c{i}", i, [trial(1, passed != flipped, wallMs=float(wall_treat[i]))]))
    return (
        write_results(tmp_path / "main.jsonl", base),
        write_results(tmp_path / "branch.jsonl", treat),
        wall_base,
        wall_treat,
    )


def test_without_a_judge_grades_and_metrics_are_compared(tmp_path: Path) -> None:
    main, branch, wall_base, wall_treat = _graded(tmp_path, regressed=7, improved=1)
    out = tmp_path / "out.jsonl"
    done = shipwise_compare(
        "--baseline", str(main), "--treatment", str(branch), "--output", str(out)
    )
    assert done.code == 0, done.stderr
    (record,) = read_records(out)
    assert (record["status"], record["pairwise"], record["judgedPairs"]) == ("COMPLETE", None, None)
    mid, exact = mcnemar_mid_p(1, 7)
    assert record["mcnemar"] == pytest.approx(
        {
            "n": 24,
            "improved": 1,
            "regressed": 7,
            "delta": -6 / 24,
            "pValue": mid,
            "exactPValue": exact,
        }
    )
    assert mid < 0.05 and record["regression"] is True
    assert "Grade test: significant regression" in done.stdout
    assert f"mid-p = {mid:.4f}" in done.stdout

    (wall,) = record["metricDeltas"]
    differences = wall_treat - wall_base
    assert wall["name"] == "wallMs" and wall["n"] == 24
    assert wall["delta"] == pytest.approx(differences.mean())
    assert wall["baselineMean"] == pytest.approx(wall_base.mean())
    assert wall["highVariance"] == bool(differences.std(ddof=1) > abs(wall_base.mean()))
    # 24 cases: a BCa case bootstrap and a Monte Carlo sign-flip p; both within resampling error.
    reference = scipy_stats.bootstrap(
        (differences,), np.mean, n_resamples=9_999, method="BCa", rng=np.random.default_rng(3)
    ).confidence_interval
    se = differences.std(ddof=1) / np.sqrt(24)
    assert abs(wall["low"] - reference.low) < 0.2 * se
    assert abs(wall["high"] - reference.high) < 0.2 * se
    permutation = scipy_stats.permutation_test(
        (differences,), np.mean, permutation_type="samples", n_resamples=9_999,
        rng=np.random.default_rng(4),
    ).pvalue  # fmt: skip
    assert (
        abs(wall["pValue"] - permutation)
        < 5 * np.sqrt(2 * permutation * (1 - permutation) / 9_999) + 1e-3
    )

    gated = shipwise_compare(
        "--baseline", str(main), "--treatment", str(branch), "--fail-on-regression"
    )
    assert gated.code == 1
    assert 'treatment "branch": significant regression' in gated.stderr


def test_the_grade_gate_passes_without_a_significant_regression(tmp_path: Path) -> None:
    main, branch, _, _ = _graded(tmp_path, regressed=3, improved=2)
    done = shipwise_compare(
        "--baseline", str(main), "--treatment", str(branch), "--fail-on-regression"
    )
    assert done.code == 0, done.stderr
    mid, _ = mcnemar_mid_p(2, 3)
    assert f"2 improved · 3 regressed of 24 cases  mid-p = {mid:.4f}" in done.stdout


def test_the_grade_gate_needs_grades(tmp_path: Path) -> None:
    main = write_results(tmp_path / "main.jsonl", [item("c0", 0, [trial(1, tokens=3)])])
    branch = write_results(tmp_path / "branch.jsonl", [item("c0", 0, [trial(1, tokens=4)])])
    plain = shipwise_compare("--baseline", str(main), "--treatment", str(branch))
    assert plain.code == 0, plain.stderr
    assert "McNemar             not available" in plain.stdout
    gated = shipwise_compare(
        "--baseline", str(main), "--treatment", str(branch), "--fail-on-regression"
    )
    assert gated.code == 1
    assert "no grades to gate on" in gated.stderr


def _experiment(tmp_path: Path, baseline: str | None) -> Path:
    folder = tmp_path / "experiment"
    folder.mkdir()
    for variant, quality in (("control", 2), ("bigger", 3), ("smaller", 1)):
        items = [item(f"c{i}", i, [trial(quality, quality >= 2)]) for i in range(3)]
        write_results(folder / f"{variant}.jsonl", items)
    if baseline is not None:
        (folder / "experiment.json").write_text(json.dumps({"baseline": baseline}))
    return folder


def test_an_experiment_compares_each_variant_with_the_declared_baseline(tmp_path: Path) -> None:
    folder = _experiment(tmp_path, "control")
    out = tmp_path / "out.jsonl"
    done = shipwise_compare(str(folder), "--output", str(out))
    assert done.code == 0, done.stderr
    records = read_records(out)
    assert [(r["baseline"], r["treatment"]) for r in records] == [
        ("control", "bigger"),
        ("control", "smaller"),
    ]
    assert [r["mcnemar"]["regressed"] for r in records] == [0, 3]

    override = shipwise_compare(str(folder), "--baseline-variant", "smaller", "--output", str(out))
    assert override.code == 0, override.stderr
    assert [(r["baseline"], r["treatment"]) for r in read_records(out)] == [
        ("smaller", "bigger"),
        ("smaller", "control"),
    ]


def test_one_partial_treatment_in_an_experiment_fails_the_command(tmp_path: Path) -> None:
    folder = _experiment(tmp_path, "control")
    broken = [
        item(f"c{i}", i, [trial(1, False, note="[judge:404]" if i == 0 else "")]) for i in range(3)
    ]
    write_results(folder / "smaller.jsonl", broken)
    out = tmp_path / "out.jsonl"
    with FakeJudge() as judge:
        done = shipwise_compare(
            str(folder), "--output", str(out),
            "--judge-connection-url", judge.base_url, "--judge-model", "judge-1",
        )  # fmt: skip
    assert done.code == 1
    assert [r["status"] for r in read_records(out)] == ["COMPLETE", "PARTIAL"]
    assert 'treatment "smaller": judged 2 of 3 matched pairs' in done.stderr
    assert 'treatment "bigger"' not in done.stderr


def test_results_directories_and_pairing_by_position(tmp_path: Path) -> None:
    shards = tmp_path / "main"
    shards.mkdir()
    write_results(shards / "part-1.jsonl", [item(None, 0, [trial(1, True), trial(1, True)])])
    write_results(
        shards / "part-2.jsonl", [item(None, 1, [trial(1, False)]), item(None, 2, [trial(1, True)])]
    )
    branch = write_results(
        tmp_path / "branch.jsonl",
        [item("x", 1, [trial(1, True)]), item("y", 0, [trial(1, False)]), item("z", 7, [trial(1)])],
    )
    out = tmp_path / "out.jsonl"
    done = shipwise_compare(
        "--baseline", str(shards), "--treatment", str(branch), "--output", str(out)
    )
    assert done.code == 0, done.stderr
    (record,) = read_records(out)
    assert record["pairedBy"] == "position"
    assert (record["items"], record["baselineOnlyItems"], record["treatmentOnlyItems"]) == (2, 1, 1)
    assert (record["matchedPairs"], record["unmatchedTrials"]) == (2, 1)
    assert [
        (p["position"], p["baselinePassed"], p["treatmentPassed"]) for p in record["pairs"]
    ] == [
        (0, True, False),
        (1, False, True),
    ]
    assert (
        "not compared: 1 items only in the baseline, 1 items only in the treatment" in done.stdout
    )


def test_no_matched_pairs_is_no_signal(tmp_path: Path) -> None:
    main = write_results(tmp_path / "main.jsonl", [item("a", 0, [trial(1, True)])])
    branch = write_results(tmp_path / "branch.jsonl", [item("b", 0, [trial(1, True)])])
    done = shipwise_compare("--baseline", str(main), "--treatment", str(branch))
    assert done.code == 1
    assert "No statistics available — no matched pairs" in done.stdout


BOTH = ["--baseline", "{main}", "--treatment", "{main}"]
JUDGE = [*BOTH, "--judge-connection-url", "http://127.0.0.1:9"]


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--bogus"], "No such option"),
        ([], "give an experiment directory, or both --baseline and --treatment"),
        (["{dir}", "--baseline", "{main}"], "not both"),
        (["--baseline", "{main}"], "both --baseline and --treatment"),
        ([*BOTH, "--baseline-variant", "x"], "experiment directory only"),
        (["--baseline", "{main}", "--treatment", "{missing}"], "no such file or directory"),
        (["--baseline", "{main}", "--treatment", "{bad}"], "line 2: not valid JSON"),
        (["--baseline", "{main}", "--treatment", "{bad_position}"], "line 1: `position` must"),
        ([*BOTH, "--judge-model", "m"], "need --judge-connection-url"),
        (JUDGE, "needs --judge-model"),
        ([*BOTH, "--judge-connection-url", "ftp://x", "--judge-model", "m"], "http(s) URL"),
        ([*JUDGE, "--judge-model", "m", "--judge-timeout", "soon"], "not a duration"),
        (["{dir}"], "no baseline: give --baseline-variant"),
        (["{dir}", "--baseline-variant", "nope"], "baseline variant 'nope' has no nope.jsonl"),
        (["{main}"], "not a directory"),
    ],
)
def test_usage_and_input_errors_exit_one(
    tmp_path: Path, arguments: list[str], message: str
) -> None:
    main = write_results(tmp_path / "main.jsonl", [item("a", 0, [trial(1, True)])])
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps(item("a", 0, [trial(1)])) + "\n{not json\n")
    bad_position = tmp_path / "bad_position.jsonl"
    bad_position.write_text(json.dumps({"position": -1, "input": "x", "trials": [{}]}) + "\n")
    folder = tmp_path / "dir"
    folder.mkdir()
    for variant in ("one", "two"):
        write_results(folder / f"{variant}.jsonl", [item("a", 0, [trial(1)])])
    paths = {
        "main": main,
        "bad": bad,
        "bad_position": bad_position,
        "dir": folder,
        "missing": tmp_path / "missing.jsonl",
    }
    done = shipwise_compare(*(a.format(**paths) for a in arguments))
    assert done.code == 1
    assert message in done.stderr
    assert "Traceback" not in done.stderr and done.stdout == ""
