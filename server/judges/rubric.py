"""JUDGE_RUBRIC: the judge's prompt and the structured grade it must answer with.

The judge sees the rubric, the case (input and expected answer) and this one trial's
output — never another cohort's. A grade that does not parse is an error code, not a pass.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any

from server.checks.evaluate import parse_json_output

PASS_FAIL = "PASS_FAIL"
SCORE_0_1 = "SCORE_0_1"
PASS_SCORE = 0.5
"""On a 0–1 scale, a trial passes the rubric at this score or above."""

_ANSWER_SHAPE = {
    PASS_FAIL: '{"grade": "PASS"} or {"grade": "FAIL"}',
    SCORE_0_1: '{"score": <a number from 0 to 1>}',
}


@dataclass(frozen=True, slots=True)
class Grade:
    passed: bool
    score: float


def _as_text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def judge_messages(
    *, rubric: str, scale: str, case_input: Any, expected: Any, output: str
) -> list[dict[str, str]]:
    """The judge's chat messages for one trial's output."""
    instructions = (
        "You grade one answer against a rubric. Judge only the answer given; do not answer "
        f"the task yourself. Reply with JSON only: {_ANSWER_SHAPE[scale]}.\n\nRubric:\n{rubric}"
    )
    parts = [f"Task input:\n{_as_text(case_input)}"]
    if expected is not None:
        parts.append(f"Reference answer:\n{_as_text(expected)}")
    parts.append(f"Answer to grade:\n{output}")
    return [
        {"role": "system", "content": instructions},
        {"role": "user", "content": "\n\n".join(parts)},
    ]


def parse_grade(scale: str, reply: str | None) -> Grade | None:
    """The grade in the judge's reply, or None when it is not the structured answer asked."""
    if reply is None:
        return None
    ok, value = parse_json_output(reply)
    if not ok or not isinstance(value, dict):
        return None
    if scale == PASS_FAIL:
        grade = value.get("grade")
        if not isinstance(grade, str) or grade.strip().upper() not in ("PASS", "FAIL"):
            return None
        passed = grade.strip().upper() == "PASS"
        return Grade(passed=passed, score=1.0 if passed else 0.0)
    score = value.get("score")
    if isinstance(score, bool) or not isinstance(score, int | float):
        return None
    score = float(score)
    if not math.isfinite(score) or not 0.0 <= score <= 1.0:
        return None
    return Grade(passed=score >= PASS_SCORE, score=score)
