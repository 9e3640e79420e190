"""Other tools' files as runs for the offline compare (docs/domain.md), through the same readers.

Each file is detected on its own; a promptfoo file with several prompt × provider pairs
needs `--variant` (given twice, the first names the baseline's pair, the second the
treatment's).
"""

from __future__ import annotations

from pathlib import Path

from server.offline_compare.results import Item, LoadError, Run, load_run, parse_item
from server.result_formats.checks import checked
from server.result_formats.detect import detect, read
from server.result_formats.reading import Options, Refused, describe


def load_any(path: Path, options: Options) -> Run:
    """The run in `path`: a directory or shipwise JSONL as ever, else another tool's file."""
    if path.is_dir() or not path.is_file():
        return load_run(path)
    try:
        fmt = detect(path)
        if fmt == "shipwise":
            if options.scorer or options.variant or options.filter:
                raise LoadError(
                    f"{path}: --scorer, --variant and --filter apply to other tools' files"
                )
            return load_run(path)
        readings = read(path, fmt, options)
        if len(readings) > 1:
            pairs = "; ".join(str(r.label) for r in readings)
            raise LoadError(f"{path}: several prompt × provider pairs: give --variant ({pairs})")
        (reading,) = readings
        items = [_item(where, item, index) for index, (where, item) in enumerate(checked(reading))]
    except Refused as exc:
        raise LoadError(describe(exc, path)) from None
    except OSError as exc:
        raise LoadError(f"{path}: cannot read ({exc.strerror or exc})") from None
    name = reading.label or path.stem
    return Run(name=name, source=path, items=tuple(items))


def _item(where: str, value: dict[str, object], position: int) -> Item:
    try:
        return parse_item(value, position)
    except ValueError as exc:
        raise Refused(where, str(exc)) from None
