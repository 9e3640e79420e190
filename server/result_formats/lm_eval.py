"""lm-evaluation-harness `--log_samples` files: `samples_<task>_<time>.jsonl`.

A line is one document under one filter: `doc_id`, `doc`, `target`, `arguments`, `resps`,
`filtered_resps`, `filter`, `metrics` (the names) and each metric's value. One filter is
read (`--filter`, default the first seen); an item is a `doc_id` with one trial, passed
when the metric (`--scorer`, default the first of `metrics`) reaches the threshold.
The harness's version and model come from the `results_<time>.json` beside the file,
when it is there.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from server.result_formats import jsonl
from server.result_formats.reading import Located, Options, Refused, RunToImport, need, number, obj
from server.runs.items import MAX_OUTPUT_CHARS

_NAME = re.compile(r"^samples_(.+)_(\d{4}-\d{2}-\d{2}T[\d\-.:]+)\.jsonl$")


def is_lm_eval(record: dict[str, Any]) -> bool:
    return "doc_id" in record and ("filtered_resps" in record or "resps" in record)


def read(path: Path, options: Options) -> list[RunToImport]:
    return [RunToImport(_source(path), _items(path, options), id_field="doc_id")]


def _source(path: Path) -> dict[str, Any]:
    found = _NAME.match(path.name)
    source: dict[str, Any] = {
        "tool": "lm-eval",
        "version": None,
        "model": None,
        "task": found[1] if found else None,
        "file": path.name,
    }
    if found is not None:
        for results in sorted(path.parent.glob(f"results_{found[2]}*.json"))[:1]:
            try:
                summary = json.loads(results.read_text(encoding="utf-8"))
            except (OSError, UnicodeDecodeError, ValueError):
                break
            if isinstance(summary, dict):
                config = obj(summary, "config")
                source["version"] = summary.get("lm_eval_version")
                source["model"] = summary.get("model_name") or config.get("model_args")
    return source


def _items(path: Path, options: Options) -> Iterator[Located]:
    chosen = options.filter
    position = 0
    for where, record in jsonl.records(path):
        if not is_lm_eval(record):
            raise Refused(where, "an lm-eval sample needs `doc_id` and `filtered_resps`", "doc_id")
        name = record.get("filter")
        if chosen is None:
            chosen = name
        if name != chosen:
            continue
        yield where, _item(record, where, position, options)
        position += 1


def _item(record: dict[str, Any], where: str, position: int, options: Options) -> dict[str, Any]:
    doc_id = need(record, "doc_id", where)
    if isinstance(doc_id, bool) or not isinstance(doc_id, int | str):
        raise Refused(where, "must be a whole number or a string", "doc_id")
    names = record.get("metrics")
    if not isinstance(names, list) or not names:
        names = [k for k in record if k not in _BOOKKEEPING and number(record[k]) is not None]
    scorer = options.scorer or (str(names[0]) if names else None)
    if scorer is None or scorer not in record:
        raise Refused(where, f"no metric {scorer!r} in the sample", scorer or "metrics")
    decisive = record[scorer]
    value = 1.0 if decisive is True else 0.0 if decisive is False else number(decisive)
    if value is None:
        raise Refused(where, "a score of an unknown shape (not a number or boolean)", scorer)
    evaluators = {scorer: value}
    for name in names:
        found = record.get(str(name))
        if isinstance(found, bool):
            evaluators[str(name)] = float(found)
        elif (n := number(found)) is not None:
            evaluators[str(name)] = n
    trial: dict[str, Any] = {"passed": value >= options.pass_threshold, "evaluators": evaluators}
    responses = record.get("filtered_resps")
    if isinstance(responses, list) and responses:
        first = responses[0]
        text = first if isinstance(first, str) else json.dumps(first)
        trial["output"] = text[:MAX_OUTPUT_CHARS]
    return {
        "datasetItemId": str(doc_id),
        "position": position,
        "input": {"doc": record.get("doc"), "expected": record.get("target")},
        "trials": [trial],
    }


_BOOKKEEPING = frozenset(
    {"doc_id", "doc", "target", "arguments", "resps", "filtered_resps", "filter", "metrics",
     "doc_hash", "prompt_hash", "target_hash"}
)  # fmt: skip
