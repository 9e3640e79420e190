"""promptfoo `-o results.json` (results version 3): one run per prompt × provider pair.

`results.prompts[promptIdx]` is one pair (a prompt with its provider); a result row is
one test of one pair, and `--repeat N` adds rows with the same test and a new `testIdx`,
so an item is a test (its `metadata.id`, `vars.id`, else a hash of its vars) and its
trials the pair's rows for it in `testIdx` order. The file is read whole (json).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from server.result_formats.reading import (
    Located,
    Options,
    Refused,
    RunToImport,
    as_object,
    metrics,
    need,
    number,
    obj,
)
from server.runs.items import MAX_OUTPUT_CHARS

VERSION = 3
ERROR = 2
"""`failureReason` 2: the provider or the test errored (1 is a failed assertion)."""


def is_promptfoo(document: dict[str, Any]) -> bool:
    results = document.get("results")
    return isinstance(results, dict) and "prompts" in results and "results" in results


def read(path: Path, document: dict[str, Any], options: Options) -> list[RunToImport]:
    """The runs of a decoded results.json: the `--variant` pair, else every pair."""
    results = as_object(document.get("results"), path.name, "`results`")
    version = results.get("version")
    if version != VERSION:
        raise Refused(
            path.name, f"results version {version!r}; only version {VERSION} is read",
            "results.version",
        )  # fmt: skip
    prompts = need(results, "prompts", path.name)
    rows = need(results, "results", path.name)
    if not isinstance(prompts, list) or not isinstance(rows, list):
        raise Refused(path.name, "must be lists", "results.prompts")
    grouped = _group(rows, len(prompts))
    pairs = [
        _label(as_object(p, f"results.prompts[{n}]"), n, _row_provider(grouped[n]))
        for n, p in enumerate(prompts)
    ]
    chosen = _choose(pairs, options.variant, path.name)
    meta = obj(document, "metadata")
    config = obj(document, "config")
    readings = []
    for index in chosen:
        prompt = prompts[index]
        source = {
            "tool": "promptfoo",
            "version": meta.get("promptfooVersion"),
            "model": _row_provider(grouped[index]).get("id") or prompt.get("provider"),
            "task": config.get("description") or document.get("evalId"),
            "evalId": document.get("evalId"),
            "prompt": prompt.get("label") or prompt.get("raw"),
            "variant": pairs[index][0],
            "file": path.name,
        }
        readings.append(
            RunToImport(
                source, _items(grouped[index]), label=pairs[index][0], id_field="metadata.id"
            )
        )
    return readings


def _row_provider(rows: list[tuple[str, dict[str, Any]]]) -> dict[str, Any]:
    """The provider `{id, label}` of a pair's first row (`prompts[]` names only its label)."""
    provider = rows[0][1].get("provider") if rows else None
    return provider if isinstance(provider, dict) else {}


def _label(prompt: dict[str, Any], index: int, provider: dict[str, Any]) -> tuple[str, set[str]]:
    """The pair's label `PROMPT / PROVIDER` and every name `--variant` may give it."""
    label = str(prompt.get("label") or prompt.get("raw") or f"prompt {index}")
    names = {label}
    names |= {str(v) for v in (provider.get("id"), provider.get("label")) if v}
    shown = provider.get("label") or provider.get("id") or prompt.get("provider")
    if isinstance(prompt.get("provider"), str):
        names.add(prompt["provider"])
    full = f"{label} / {shown}" if shown else label
    names.add(full)
    return full, names


def _choose(pairs: list[tuple[str, set[str]]], variant: str | None, where: str) -> list[int]:
    if not pairs:
        raise Refused(where, "no prompt × provider pairs", "results.prompts")
    if variant is None:
        return list(range(len(pairs)))
    matches = [n for n, (_, names) in enumerate(pairs) if variant in names]
    if len(matches) != 1:
        listed = "; ".join(label for label, _ in pairs)
        how = "matches no pair" if not matches else f"matches {len(matches)} pairs"
        raise Refused(where, f"--variant {variant!r} {how} (pairs: {listed})", "--variant")
    return matches


def _group(rows: list[Any], pair_count: int) -> list[list[tuple[str, dict[str, Any]]]]:
    """Each pair's rows, checked and in `testIdx` order."""
    grouped: list[list[tuple[int, str, dict[str, Any]]]] = [[] for _ in range(pair_count)]
    for n, raw in enumerate(rows):
        where = f"results.results[{n}]"
        row = as_object(raw, where, "a result")
        pair = need(row, "promptIdx", where)
        test = need(row, "testIdx", where)
        if type(pair) is not int or not 0 <= pair < pair_count:
            raise Refused(where, f"must be a prompt index below {pair_count}", "promptIdx")
        if type(test) is not int:
            raise Refused(where, "must be a whole number", "testIdx")
        grouped[pair].append((test, where, row))
    return [[(where, row) for _, where, row in sorted(g, key=lambda e: e[0])] for g in grouped]


def _test_id(row: dict[str, Any], where: str) -> str:
    case = obj(row, "testCase")
    metadata = obj(case, "metadata")
    variables = row.get("vars", case.get("vars"))
    if metadata.get("id") is not None:
        return str(metadata["id"])
    if isinstance(variables, dict) and variables.get("id") is not None:
        return str(variables["id"])
    if variables is None:
        raise Refused(where, "a test needs `metadata.id`, `vars.id` or vars", "vars")
    text = json.dumps(variables, sort_keys=True, ensure_ascii=False, default=str)
    return "vars:" + hashlib.sha256(text.encode()).hexdigest()[:16]


def _items(rows: list[tuple[str, dict[str, Any]]]) -> Iterator[Located]:
    tests: dict[str, tuple[str, dict[str, Any], list[dict[str, Any]]]] = {}
    for where, row in rows:
        test_id = _test_id(row, where)
        entry = tests.setdefault(test_id, (where, row, []))
        entry[2].append(_trial(row, where))
    for position, (test_id, (where, row, trials)) in enumerate(tests.items()):
        yield (
            where,
            {
                "datasetItemId": test_id,
                "position": position,
                "input": row.get("vars", {}),
                "trials": trials,
            },
        )


def _trial(row: dict[str, Any], where: str) -> dict[str, Any]:
    success = row.get("success")
    if not isinstance(success, bool):
        raise Refused(where, "must be true or false", "success")
    usage = obj(row, "tokenUsage")
    errored = row.get("failureReason") == ERROR
    evaluators: dict[str, float] = {}
    score = row.get("score")
    if score is not None:
        if number(score) is None:
            raise Refused(where, "a score of an unknown shape (not a number)", "score")
        evaluators["score"] = float(score)
    named = row.get("namedScores") or {}
    if not isinstance(named, dict):
        raise Refused(where, "must be an object {name: number}", "namedScores")
    for name, value in named.items():
        if number(value) is None:
            raise Refused(
                where, "a score of an unknown shape (not a number)", f"namedScores.{name}"
            )
        evaluators[str(name)] = float(value)
    trial: dict[str, Any] = {
        "passed": False if errored else success,
        "evaluators": evaluators,
        "metrics": metrics(
            tokens=usage.get("total"), wallMs=row.get("latencyMs"), errors=1 if errored else 0
        ),
    }
    response = obj(row, "response")
    output = response.get("output")
    if output is not None:
        trial["output"] = (output if isinstance(output, str) else json.dumps(output))[
            :MAX_OUTPUT_CHARS
        ]
    return trial
