"""Inspect AI logs: `.eval` (a zip of `header.json` and `samples/*.json`) and `.json`.

An item is a sample `id`, a trial its `epoch`. The `.eval` reader streams: it lists the
members, groups `samples/<id>_epoch_<n>.json` by id, and reads one sample's epochs at a
time, so memory holds one item. A `.json` log is one JSON document and is read whole.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import orjson

from server.result_formats.reading import (
    Located,
    Options,
    Refused,
    RunToImport,
    as_object,
    metrics,
    obj,
)
from server.result_formats.scores import score_number, score_passed
from server.result_formats.zip_members import MemberError, ZipMembers
from server.runs.items import MAX_OUTPUT_CHARS

HEADER = "header.json"
_SAMPLE = re.compile(r"^samples/(.+)_epoch_(\d+)\.json$")


def read_eval(path: Path, options: Options) -> list[RunToImport]:
    """The run in an `.eval` log; Refused names the member and field of a problem."""
    archive = _open(path)
    try:
        header = _member_json(archive, HEADER)
        groups = _sample_groups(archive.names(), _dataset_order(header))
    except BaseException:
        archive.close()
        raise
    source = _source(header, path)
    scorer = _scorer(header, options)

    def samples() -> Iterator[list[tuple[str, dict[str, Any]]]]:
        with archive:
            for names in groups:
                yield [(f"zip member {n}", _member_json(archive, n)) for n in names]

    return [RunToImport(source, _items(samples(), scorer, options), id_field="id")]


def read_json(path: Path, log: dict[str, Any], options: Options) -> list[RunToImport]:
    """The run in a `.json` log already decoded (`log`)."""
    samples = log.get("samples")
    if not isinstance(samples, list):
        raise Refused(str(path.name), "must be a list of samples", "samples")
    groups: dict[str, list[tuple[str, dict[str, Any]]]] = {}
    for index, sample in enumerate(samples):
        where = f"samples[{index}]"
        record = as_object(sample, where, "a sample")
        groups.setdefault(_id(record, where), []).append((where, record))
    return [
        RunToImport(
            _source(log, path), _items(iter(groups.values()), _scorer(log, options), options)
        )
    ]


def _open(path: Path) -> ZipMembers:
    try:
        return ZipMembers(path)
    except MemberError as exc:
        raise Refused(path.name, str(exc)) from None


def _member_json(archive: ZipMembers, name: str) -> dict[str, Any]:
    where = f"zip member {name}"
    try:
        data = archive.read(name)
    except MemberError as exc:
        raise Refused(where, str(exc)) from None
    try:
        value = orjson.loads(data)  # a sample is mostly its events: orjson parses it 3× faster
    except orjson.JSONDecodeError as exc:
        raise Refused(where, f"not valid JSON ({exc})") from None
    return as_object(value, where, "the member")


def _dataset_order(header: dict[str, Any]) -> dict[str, int]:
    """Each sample id's place in the dataset, as the header lists them (empty if it does not)."""
    spec = header.get("eval")
    dataset = spec.get("dataset") if isinstance(spec, dict) else None
    ids = dataset.get("sample_ids") if isinstance(dataset, dict) else None
    return {str(i): n for n, i in enumerate(ids)} if isinstance(ids, list) else {}


def _sample_groups(names: Iterable[str], order: dict[str, int]) -> list[list[str]]:
    """Sample member names grouped by sample, each group in epoch order; samples in dataset
    order where the header gives it, else as written."""
    groups: dict[str, list[tuple[int, str]]] = {}
    for name in names:
        found = _SAMPLE.match(name)
        if found is not None:
            groups.setdefault(found[1], []).append((int(found[2]), name))
    ranked = sorted(groups.items(), key=lambda entry: order.get(entry[0], len(order)))
    return [[name for _, name in sorted(group)] for _, group in ranked]


def _source(log: dict[str, Any], path: Path) -> dict[str, Any]:
    spec = obj(log, "eval")
    packages = obj(spec, "packages")
    return {
        "tool": "inspect",
        "version": packages.get("inspect_ai"),
        "logVersion": log.get("version"),
        "model": spec.get("model"),
        "task": spec.get("task"),
        "status": log.get("status"),
        "file": path.name,
    }


def _scorer(log: dict[str, Any], options: Options) -> str | None:
    """The scorer that decides `passed`: `--scorer`, else the log's first, else the first seen."""
    if options.scorer is not None:
        return options.scorer
    results = log.get("results")
    scores = results.get("scores") if isinstance(results, dict) else None
    if isinstance(scores, list) and scores and isinstance(scores[0], dict):
        name = scores[0].get("name")
        if isinstance(name, str):
            return name
    return None


def _items(
    groups: Iterator[list[tuple[str, dict[str, Any]]]], scorer: str | None, options: Options
) -> Iterator[Located]:
    for position, group in enumerate(groups):
        trials = []
        first_where = group[0][0]
        item_id = None
        for where, sample in group:
            item_id = item_id or _id(sample, where)
            if scorer is None:
                scorer = next(iter(sample.get("scores") or {}), None)
            trials.append(_trial(sample, where, scorer, options))
        first = group[0][1]
        yield (
            first_where,
            {
                "datasetItemId": item_id,
                "position": position,
                "input": first.get("input"),
                "trials": trials,
            },
        )


def _id(sample: dict[str, Any], where: str) -> str:
    value = sample.get("id")
    if isinstance(value, bool) or not isinstance(value, str | int) or value == "":
        raise Refused(where, "a sample needs an id (a string or a whole number)", "id")
    return str(value)


def _trial(
    sample: dict[str, Any], where: str, scorer: str | None, options: Options
) -> dict[str, Any]:
    output = obj(sample, "output")
    usage = obj(output, "usage")
    total_time = sample.get("total_time")
    errored = sample.get("error") is not None
    trial: dict[str, Any] = {
        "metrics": metrics(
            tokens=usage.get("total_tokens"),
            wallMs=total_time * 1000 if isinstance(total_time, int | float) else None,
            errors=1 if errored else 0,
        )
    }
    text = _completion(output)
    if text is not None:
        trial["output"] = text[:MAX_OUTPUT_CHARS]
    scores = sample.get("scores") or {}
    if not isinstance(scores, dict):
        raise Refused(where, "must be an object {scorer: score}", "scores")
    evaluators = {}
    for name, score in scores.items():
        field = f"scores.{name}.value"
        if not isinstance(score, dict) or "value" not in score:
            raise Refused(where, "a score must be an object with a `value`", f"scores.{name}")
        evaluators[name] = score_number(score["value"], where, field)
    trial["evaluators"] = evaluators
    if errored:
        trial["passed"] = False
    elif scorer is not None and scorer in scores:
        trial["passed"] = score_passed(scores[scorer]["value"], options.pass_threshold)
    elif scorer is not None and options.scorer is not None and scores:
        raise Refused(where, f"no scorer {scorer!r} (scorers: {', '.join(scores)})", "scores")
    return trial


def _completion(output: dict[str, Any]) -> str | None:
    text = output.get("completion")
    if isinstance(text, str):
        return text
    choices = output.get("choices")
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        return None
    message = choices[0].get("message")
    content = message.get("content") if isinstance(message, dict) else None
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(str(part.get("text", "")) for part in content if isinstance(part, dict))
    return None
