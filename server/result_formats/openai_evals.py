"""OpenAI Evals API output items (`GET /evals/{id}/runs/{id}/output_items`), one per line.

An item is a `datasource_item_id` with one trial, passed when every grader in `results`
passed (or `--scorer`'s grader); each grader's `score` is an evaluator; the output text
and usage come from `sample`, whose `error` makes a failed trial.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from server.result_formats import jsonl
from server.result_formats.reading import (
    Located,
    Options,
    Refused,
    RunToImport,
    metrics,
    need,
    number,
    obj,
)
from server.runs.items import MAX_OUTPUT_CHARS

OBJECT = "eval.run.output_item"


def is_openai_evals(record: dict[str, Any]) -> bool:
    return record.get("object") == OBJECT or (
        "datasource_item_id" in record and "results" in record
    )


def read(path: Path, options: Options) -> list[RunToImport]:
    first = jsonl.first_record(path) or {}
    sample = obj(first, "sample")
    source = {
        "tool": "openai-evals",
        "version": None,
        "model": sample.get("model"),
        "task": first.get("eval_id"),
        "runId": first.get("run_id"),
        "file": path.name,
    }
    return [RunToImport(source, _items(path, options), id_field="datasource_item_id")]


def _items(path: Path, options: Options) -> Iterator[Located]:
    for position, (where, record) in enumerate(jsonl.records(path)):
        if not is_openai_evals(record):
            raise Refused(where, "an output item needs `datasource_item_id`", "datasource_item_id")
        yield where, _item(record, where, position, options)


def _item(record: dict[str, Any], where: str, position: int, options: Options) -> dict[str, Any]:
    item_id = need(record, "datasource_item_id", where)
    if isinstance(item_id, bool) or not isinstance(item_id, int | str):
        raise Refused(where, "must be a whole number or a string", "datasource_item_id")
    results = need(record, "results", where)
    if not isinstance(results, list):
        raise Refused(where, "must be a list of grader results", "results")
    evaluators: dict[str, float] = {}
    passes: dict[str, bool] = {}
    for index, result in enumerate(results):
        field = f"results[{index}]"
        if not isinstance(result, dict) or not isinstance(result.get("name"), str):
            raise Refused(where, "a grader result needs a `name`", field)
        name = result["name"]
        if not isinstance(result.get("passed"), bool):
            raise Refused(where, "must be true or false", f"{field}.passed")
        passes[name] = result["passed"]
        score = result.get("score")
        if score is not None:
            if number(score) is None:
                raise Refused(where, "a score of an unknown shape (not a number)", f"{field}.score")
            evaluators[name] = float(score)
    if options.scorer is not None and options.scorer not in passes:
        raise Refused(
            where, f"no grader {options.scorer!r} (graders: {', '.join(passes)})", "results"
        )
    sample = obj(record, "sample")
    error = sample.get("error")
    errored = isinstance(error, dict) and bool(error.get("code") or error.get("message"))
    passed = passes[options.scorer] if options.scorer else all(passes.values())
    usage = obj(sample, "usage")
    trial: dict[str, Any] = {
        "passed": False if errored else (passed if passes else None),
        "evaluators": evaluators,
        "metrics": metrics(tokens=usage.get("total_tokens"), errors=1 if errored else 0),
    }
    text = _output_text(sample)
    if text is not None:
        trial["output"] = text[:MAX_OUTPUT_CHARS]
    return {
        "datasetItemId": str(item_id),
        "position": position,
        "input": record.get("datasource_item"),
        "trials": [{k: v for k, v in trial.items() if v is not None}],
    }


def _output_text(sample: dict[str, Any]) -> str | None:
    output = sample.get("output")
    if not isinstance(output, list):
        return None
    parts = [m.get("content") for m in output if isinstance(m, dict)]
    texts = [p for p in parts if isinstance(p, str)]
    return "".join(texts) if texts else None
