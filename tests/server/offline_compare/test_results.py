"""Reading results JSONL and pairing two runs."""

from __future__ import annotations

from pathlib import Path

import pytest

from server.cli.commands.compare import parse_duration
from server.offline_compare.pairing import match
from server.offline_compare.results import LoadError, load_run, parse_item


@pytest.mark.parametrize(
    ("value", "reason"),
    [
        ([], "an item must be a JSON object"),
        ({"input": "x", "trials": []}, "`position` must be a whole number"),
        ({"position": True, "input": "x", "trials": []}, "`position` must be a whole number"),
        ({"position": 0, "trials": []}, "`input` is required"),
        ({"position": 0, "input": "x"}, "`trials` must be a list"),
        ({"position": 0, "input": "x", "datasetItemId": 3, "trials": []}, "`datasetItemId`"),
        ({"position": 0, "input": "x", "trials": [3]}, "trials[0]: a trial must be"),
        ({"position": 0, "input": "x", "trials": [{"passed": "yes"}]}, "trials[0]: `passed`"),
        (
            {"position": 0, "input": "x", "trials": [{"metrics": {"tokens": "9"}}]},
            "`metrics.tokens` must be a number",
        ),
        (
            {"position": 0, "input": "x", "trials": [{"evaluators": {"f1": float("nan")}}]},
            "`evaluators.f1` must be finite",
        ),
    ],
)
def test_malformed_items_name_the_problem(value: object, reason: str) -> None:
    with pytest.raises(ValueError, match=reason.replace("[", r"\[").replace("]", r"\]")):
        parse_item(value)


def test_unknown_keys_are_ignored_and_metrics_kept() -> None:
    parsed = parse_item(
        {
            "position": 2,
            "input": "x",
            "extra": 1,
            "trials": [
                {"passed": True, "trialIndex": 0, "metrics": {"tokens": 5, "costMicros": 9}}
            ],
        }
    )
    assert parsed.trials[0].metrics == {"tokens": 5.0}
    assert parsed.trials[0].passed is True


def test_a_repeated_item_id_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    line = '{"datasetItemId": "a", "position": 0, "input": "x", "trials": []}\n'
    path.write_text(line + line.replace('"position": 0', '"position": 1'))
    run = load_run(path)
    with pytest.raises(LoadError, match="datasetItemId 'a' appears twice"):
        match(run, run)


def test_an_empty_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / "run.jsonl").write_text("\n\n")
    with pytest.raises(LoadError, match="no items"):
        load_run(tmp_path / "run.jsonl")


@pytest.mark.parametrize(
    ("text", "seconds"),
    [("2m", 120.0), ("90s", 90.0), ("1m30s", 90.0), ("500ms", 0.5), ("1.5", 1.5), ("1h", 3600.0)],
)
def test_durations(text: str, seconds: float) -> None:
    assert parse_duration(text) == seconds


@pytest.mark.parametrize("text", ["", "soon", "2x", "-1", "0", "1m 30s", "inf", "nan"])
def test_bad_durations(text: str) -> None:
    with pytest.raises(ValueError):
        parse_duration(text)
