"""Reading results JSONL and pairing two runs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from server.cli.commands.compare import parse_duration
from server.offline_compare.pairing import match
from server.offline_compare.results import LoadError, load_run, parse_item


@pytest.mark.parametrize(
    ("value", "reason"),
    [
        ([], "an item must be a JSON object"),
        ({"position": True, "input": "x", "trials": [{}]}, "`position` must be a whole number"),
        ({"position": -1, "input": "x", "trials": [{}]}, "`position` must be a whole number"),
        ({"position": 0, "trials": [{}]}, "`input` is required"),
        ({"position": 0, "input": "x"}, "`trials` must be a list of 1 to 100 trials"),
        ({"position": 0, "input": "x", "trials": []}, "`trials` must be a list of 1 to 100"),
        ({"position": 0, "input": "x", "datasetItemId": 3, "trials": [{}]}, "`datasetItemId`"),
        ({"position": 0, "input": "x", "trials": [3]}, "`trials[0]`: a trial must be"),
        ({"position": 0, "input": "x", "trials": [{"passed": "yes"}]}, "`trials[0].passed`"),
        (
            {"position": 0, "input": "x", "trials": [{"metrics": {"tokens": "9"}}]},
            "metric `tokens` must be a non-negative number",
        ),
        (
            {"position": 0, "input": "x", "trials": [{"evaluators": {"f1": float("nan")}}]},
            "evaluator 'f1' must score a finite number",
        ),
        ({"position": 0, "input": "x", "extra": 1, "trials": [{}]}, "unknown field `extra`"),
    ],
)
def test_malformed_items_name_the_problem(value: object, reason: str) -> None:
    """The messages are `shipwise run import`'s: one check of the format (issue 34 h)."""
    with pytest.raises(ValueError, match=reason.replace("[", r"\[").replace("]", r"\]")):
        parse_item(value, 0)


def test_an_item_without_a_position_takes_its_place_in_the_run(tmp_path: Path) -> None:
    lines = [
        {"input": "x", "trials": [{"passed": True, "metrics": {"tokens": 5}}]},
        {"position": 7, "input": "y", "trials": [{"passed": False}]},
        {"input": "z", "trials": [{}]},
    ]
    (tmp_path / "a.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines[:2]))
    (tmp_path / "b.jsonl").write_text("\n" + json.dumps(lines[2]) + "\n")
    run = load_run(tmp_path)
    assert [item.position for item in run.items] == [0, 7, 2]
    assert run.items[0].trials[0].metrics == {"tokens": 5.0}
    assert [item.trials[0].passed for item in run.items] == [True, False, None]


def test_a_repeated_item_id_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    line = '{"datasetItemId": "a", "position": 0, "input": "x", "trials": [{}]}\n'
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
