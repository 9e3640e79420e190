"""Checks graded by the server on imported runs: `startRunImport(checks: …)` names them, and
each appended trial's output is graded with the code hosted comparisons use
(`server.checks.run_checks`), before the item is stored.

A graded trial gets `checks` (each result as a comparison's trial stores it), `passed` (all
checks passed) and one evaluator score per check, named as hosted runs name them
(`CONTAINS`, `JSON_SCHEMA#2`…); a trial without an output is left ungraded (failed or
missing, as a hosted trial without an answer). A structured output is graded as its JSON
text. Grading is deterministic, so a retried chunk grades to the same item and stays a
no-op (`append_items` compares stored items).
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from server.checks.evaluate import run_checks
from server.checks.spec import CheckKind, validate_check_specs
from server.errors import ValidationFailed
from server.runs.items import ItemRow


def validate_import_checks(checks: Any) -> list[dict[str, Any]] | None:
    """The checks an import names (None: the client grades), validated as a comparison's;
    JUDGE_RUBRIC is refused here: judge calls are not yet made for imports."""
    if checks is None:
        return None
    specs = validate_check_specs(checks)
    for index, spec in enumerate(specs):
        if spec["kind"] == CheckKind.JUDGE_RUBRIC:
            raise ValidationFailed(
                "JUDGE_RUBRIC checks are graded in hosted comparisons only, not yet on imports",
                field=f"checks[{index}].kind",
            )
    return specs


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


def grade_trial(
    trial: dict[str, Any], checks: list[dict[str, Any]], names: list[str], expected: Any
) -> dict[str, Any]:
    """The trial with the server's grade (unchanged when it has no output)."""
    output = trial.get("output")
    if output is None:
        return {**trial, "passed": None}
    calls = trial.get("toolCalls") if isinstance(trial.get("toolCalls"), list) else []
    passed, _score, results = run_checks(checks, _text(output), calls, expected)
    evaluators = dict(trial.get("evaluators") or {})
    evaluators.update({name: r.score for name, r in zip(names, results, strict=True)})
    return {
        **trial,
        "passed": passed,
        "evaluators": evaluators,
        "checks": [r.as_json() for r in results],
    }


def grade_row(row: ItemRow, checks: list[dict[str, Any]]) -> ItemRow:
    """The item with every trial graded and its counts and evaluator means recomputed."""
    names = evaluator_names(checks)
    trials = [grade_trial(t, checks, names, row["expected"]) for t in row["trials"]]
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
