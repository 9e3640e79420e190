"""Checks graded by the server on imported runs: `startRunImport(checks: …)` names them, and
each appended trial's output is graded with the code hosted comparisons use
(`server.judges.rubric_grade`), before the item is stored: a JUDGE_RUBRIC check through a
judge call made before the write (`server.judged_imports`), the rest here.

A graded trial gets `checks` (each result as a comparison's trial stores it), `passed` (all
checks passed) and one evaluator score per check, named as hosted runs name them
(`CONTAINS`, `JSON_SCHEMA#2`…); the trajectory checks read the trial's `trajectory`, else
its `toolCalls` (`server.checks.trajectory`). A trial without an output is left ungraded (failed or
missing, as a hosted trial without an answer). A structured output is graded as its JSON
text. A retried chunk is compared with the stored items without what grading set
(`ungraded`), so it stays a no-op and no judge is called again.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from typing import Any

from server.checks.spec import CheckKind, validate_check_specs
from server.errors import Conflict
from server.judges.rubric_grade import Case, Graded, grade_output
from server.runs.items import ItemRow

GRADED_KEYS = frozenset({"passed", "checks", "errorCode"})
"""What grading sets on a trial with an output (with its checks' evaluator scores)."""
JUDGE_NOT_CALLED = "judge_not_called"


def validate_import_checks(checks: Any) -> list[dict[str, Any]] | None:
    """The checks an import names (None: the client grades), validated as a comparison's
    (a JUDGE_RUBRIC check's rubric and judge are resolved by `server.judged_imports`)."""
    if checks is None:
        return None
    return validate_check_specs(checks)


def has_judges(checks: list[dict[str, Any]] | None) -> bool:
    return any(spec.get("kind") == CheckKind.JUDGE_RUBRIC for spec in checks or [])


def ungraded(trials: list[dict[str, Any]], checks: list[dict[str, Any]] | None) -> str:
    """The trials without what the server's grading sets, canonical: a retried chunk (sent
    ungraded) is the same as the stored one (graded) when they match."""
    if not checks:
        return _canonical(trials)
    names = set(evaluator_names(checks))
    bare = []
    for trial in trials:
        if trial.get("output") is None:
            bare.append(trial)
            continue
        kept = {k: v for k, v in trial.items() if k not in GRADED_KEYS and k != "evaluators"}
        evaluators = {k: v for k, v in (trial.get("evaluators") or {}).items() if k not in names}
        if evaluators:
            kept["evaluators"] = evaluators
        bare.append(kept)
    return _canonical(bare)


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def evaluator_names(checks: list[dict[str, Any]]) -> list[str]:
    """Each check's evaluator name: its kind, a repeated kind `#2`, `#3`… (as hosted runs)."""
    names: list[str] = []
    seen: Counter[str] = Counter()
    for spec in checks:
        base = str(spec["kind"])
        seen[base] += 1
        names.append(base if seen[base] == 1 else f"{base}#{seen[base]}")
    return names


def _text(output: Any) -> str:
    return output if isinstance(output, str) else json.dumps(output, ensure_ascii=False)


def _graded_trial(trial: dict[str, Any], graded: Graded, names: list[str]) -> dict[str, Any]:
    """The trial with the server's grade; a judge's error code leaves it ungraded (failed
    or missing, as a hosted trial whose judge failed)."""
    kept = {k: v for k, v in trial.items() if k not in GRADED_KEYS}
    evaluators = {k: v for k, v in (trial.get("evaluators") or {}).items() if k not in names}
    if graded.results is None:
        code = graded.error.value if graded.error else JUDGE_NOT_CALLED
        return {**kept, "evaluators": evaluators, "passed": None, "errorCode": code}
    evaluators.update({name: r.score for name, r in zip(names, graded.results, strict=True)})
    return {
        **kept,
        "passed": graded.passed,
        "evaluators": evaluators,
        "checks": [r.as_json() for r in graded.results],
    }


async def grade_rows(
    rows: list[ItemRow],
    checks: list[dict[str, Any]],
    judged: Mapping[tuple[int, int], Graded] | None = None,
) -> list[ItemRow]:
    """Each item with every trial that has an output graded (with the code hosted trials
    are graded with) and its counts and evaluator means recomputed. JUDGE_RUBRIC results
    come from `judged` (by position and trial index: the judge calls were made before the
    write); a trial they are missing for is refused, to be sent again."""
    names = evaluator_names(checks)
    judging = has_judges(checks)
    graded_rows = []
    for row in rows:
        trials = []
        for index, trial in enumerate(row["trials"]):
            output = trial.get("output")
            if output is None:
                trials.append({**trial, "passed": None})
                continue
            key = (row["position"], index)
            if judging and (judged is None or key not in judged):
                raise Conflict(
                    "another chunk is writing these positions at the same time; retry this one",
                    reason="CONCURRENT_APPEND",
                )
            if judging and judged is not None:
                graded = judged[key]
            else:
                case = Case(row["input"], row["expected"], "", "", "")
                graded = await grade_output(
                    checks,
                    _text(output),
                    _calls(trial),
                    case,
                    trajectory=_trajectory(trial),
                    judges={},
                    call=_no_call,
                )
            trials.append(_graded_trial(trial, graded, names))
        graded_rows.append(_counted(row, trials))
    return graded_rows


def trial_output(
    trial: dict[str, Any],
) -> tuple[str, list[dict[str, Any]], list[dict[str, Any]] | None] | None:
    """(the text graded, the tool calls, the trajectory) of a trial the server grades; None
    without output."""
    output = trial.get("output")
    return None if output is None else (_text(output), _calls(trial), _trajectory(trial))


def _calls(trial: dict[str, Any]) -> list[dict[str, Any]]:
    calls = trial.get("toolCalls")
    return calls if isinstance(calls, list) else []


def _trajectory(trial: dict[str, Any]) -> list[dict[str, Any]] | None:
    steps = trial.get("trajectory")
    return steps if isinstance(steps, list) else None


async def _no_call(_connection: Any, _call: Any) -> Any:
    raise AssertionError("plain checks make no model call")


def _counted(row: ItemRow, trials: list[dict[str, Any]]) -> ItemRow:
    """The item with these trials and its counts and evaluator means recomputed."""
    graded = [t["passed"] for t in trials if t.get("passed") is not None]
    sums: dict[str, list[float]] = {}
    for trial in trials:
        for name, score in (trial.get("evaluators") or {}).items():
            entry = sums.setdefault(name, [0.0, 0])
            entry[0] += score
            entry[1] += 1
    return {
        **row,
        "trials": trials,
        "graded_count": len(graded),
        "passed_count": sum(1 for g in graded if g),
        "scores": [
            {"evaluator": name, "mean": total / count, "count": int(count)}
            for name, (total, count) in sums.items()
        ],
    }
