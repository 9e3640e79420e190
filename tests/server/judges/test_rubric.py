"""The judge's prompt and the parsing of its structured grade."""

from __future__ import annotations

import pytest

from server.judges.rubric import PASS_FAIL, SCORE_0_1, Grade, judge_messages, parse_grade


@pytest.mark.parametrize(
    ("reply", "grade"),
    [
        ('{"grade": "PASS"}', Grade(True, 1.0)),
        ('{"grade": "fail"}', Grade(False, 0.0)),
        ('Sure!\n```json\n{"grade": "PASS"}\n```', Grade(True, 1.0)),
        ('{"grade": "MAYBE"}', None),
        ("PASS", None),
        ('{"score": 0.9}', None),
        ("", None),
        (None, None),
    ],
)
def test_pass_fail_grades(reply: str | None, grade: Grade | None) -> None:
    assert parse_grade(PASS_FAIL, reply) == grade


@pytest.mark.parametrize(
    ("reply", "grade"),
    [
        ('{"score": 0.75}', Grade(True, 0.75)),
        ('{"score": 0}', Grade(False, 0.0)),
        ('{"score": 0.5}', Grade(True, 0.5)),
        ('{"score": 1.5}', None),
        ('{"score": -0.1}', None),
        ('{"score": "high"}', None),
        ('{"score": true}', None),
        ('{"score": NaN}', None),
        ('{"grade": "PASS"}', None),
    ],
)
def test_score_grades(reply: str, grade: Grade | None) -> None:
    assert parse_grade(SCORE_0_1, reply) == grade


def test_the_judge_sees_the_rubric_the_case_and_only_this_output() -> None:
    messages = judge_messages(
        rubric="Names the right city.",
        scale=PASS_FAIL,
        case_input={"country": "France"},
        expected="Paris",
        output="Lyon",
    )
    text = "\n".join(m["content"] for m in messages)
    assert "Names the right city." in text and '"country": "France"' in text
    assert "Paris" in text and "Lyon" in text
    assert '{"grade": "PASS"}' in messages[0]["content"]
    without_expected = judge_messages(
        rubric="r", scale=SCORE_0_1, case_input="q", expected=None, output="a"
    )
    assert "Reference answer" not in without_expected[1]["content"]
    assert '{"score"' in without_expected[0]["content"]
