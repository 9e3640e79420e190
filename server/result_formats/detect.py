"""Which tool wrote a file, decided by its content (never its name), and its runs.

A zip is an Inspect `.eval`; a JSON Lines file is ours, lm-eval's or OpenAI Evals' by the
keys of its first record; a single JSON document is an Inspect `.json` log or a promptfoo
results.json by its top-level keys. What is none of these but blank or starts with `{` is
taken for a shipwise JSONL, whose reader then names the bad line as it always has.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import orjson

from server.result_formats import inspect_log, jsonl, lm_eval, openai_evals, promptfoo
from server.result_formats.reading import FORMATS, Options, Refused, RunToImport

ZIP_SIGNATURES = (b"PK\x03\x04", b"PK\x05\x06")
NO_FORMAT = (
    "matches no format (expected an Inspect .eval or .json log, a promptfoo results.json, "
    "lm-eval samples JSONL, OpenAI Evals output items or shipwise results JSONL)"
)


def detect(path: Path) -> str:
    """The format's name (one of FORMATS); Refused when the content matches none."""
    with path.open("rb") as source:
        head = source.read(4)
    if head in ZIP_SIGNATURES:
        return "inspect"
    first = jsonl.first_record(path)
    if first is not None:
        kind = _record_kind(first)
        if kind is not None:
            return kind
    document = _document(path)
    if document is not None:
        if _is_inspect_log(document):
            return "inspect"
        if promptfoo.is_promptfoo(document):
            return "promptfoo"
    if _first_byte(path) in (b"", b"{"):  # empty, or JSON Lines ours reports line by line
        return "shipwise"
    raise Refused(path.name, NO_FORMAT)


def read(path: Path, fmt: str, options: Options) -> list[RunToImport]:
    """The runs in a file of a tool's format (not `shipwise`, which has its own reader)."""
    if fmt not in FORMATS or fmt == "shipwise":
        raise ValueError(fmt)
    if fmt == "lm-eval":
        return lm_eval.read(path, options)
    if fmt == "openai-evals":
        return openai_evals.read(path, options)
    if fmt == "inspect" and _is_zip(path):
        return inspect_log.read_eval(path, options)
    document = _document(path)
    if document is None:
        raise Refused(path.name, "not a JSON document")
    if fmt == "inspect":
        if not _is_inspect_log(document):
            raise Refused(path.name, "not an Inspect log (no `eval`)", "eval")
        return inspect_log.read_json(path, document, options)
    if not promptfoo.is_promptfoo(document):
        raise Refused(path.name, "not a promptfoo results file", "results")
    return promptfoo.read(path, document, options)


def _record_kind(record: dict[str, Any]) -> str | None:
    if lm_eval.is_lm_eval(record):
        return "lm-eval"
    if openai_evals.is_openai_evals(record):
        return "openai-evals"
    if _is_inspect_log(record):
        return "inspect"
    if promptfoo.is_promptfoo(record):
        return "promptfoo"
    if "trials" in record or "input" in record:
        return "shipwise"
    return None


def _first_byte(path: Path) -> bytes:
    """The first byte that is not white space (b"" for a blank file), from the first 64 KiB."""
    with path.open("rb") as source:
        return source.read(65536).lstrip()[:1]


def _is_inspect_log(document: dict[str, Any]) -> bool:
    return isinstance(document.get("eval"), dict) and "version" in document


def _is_zip(path: Path) -> bool:
    with path.open("rb") as source:
        return source.read(4) in ZIP_SIGNATURES


def _document(path: Path) -> dict[str, Any] | None:
    """The file as one JSON object, or None (not JSON, or not an object).

    Detecting and then reading a file parses it once: the last document is kept.
    """
    stat = path.stat()
    return _parsed(str(path.resolve()), stat.st_mtime_ns, stat.st_size)


@functools.lru_cache(maxsize=1)
def _parsed(path: str, _mtime_ns: int, _size: int) -> dict[str, Any] | None:
    try:
        value = orjson.loads(Path(path).read_bytes())
    except orjson.JSONDecodeError:
        return None
    return value if isinstance(value, dict) else None
