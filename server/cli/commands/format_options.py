"""The options `run import` and `compare` share for other tools' files (docs/domain.md, Imports)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from server.cli.commands.client_setup import OPERATIONAL_ERROR, fail
from server.result_formats.reading import FORMATS, Options, Refused, describe

FormatOption = Annotated[
    str,
    typer.Option(
        "--format", help="auto (by content), shipwise, inspect, promptfoo, lm-eval, openai-evals."
    ),
]
ScorerOption = Annotated[
    str | None, typer.Option("--scorer", help="The score that decides `passed` (default: first).")
]
ThresholdOption = Annotated[
    float, typer.Option("--pass-threshold", help="A numeric score passes at this value or more.")
]
VariantOption = Annotated[
    str | None,
    typer.Option("--variant", help="promptfoo: one prompt × provider pair (label, id, P / Q)."),
]
FilterOption = Annotated[
    str | None, typer.Option("--filter", help="lm-eval: which filter's rows (default: first).")
]


def detect_format(file: Path, requested: str) -> str:
    """The file's format: `requested`, or by content for `auto`; Refused when none matches."""
    from server.result_formats.detect import detect

    name = requested.strip().lower()
    if name not in ("auto", *FORMATS):
        raise Refused("--format", f"{requested!r} is not one of auto, {', '.join(FORMATS)}")
    return detect(file) if name == "auto" else name


def resolve_format(
    file: Path, requested: str, options: Options, code: int = OPERATIONAL_ERROR
) -> str:
    """`detect_format` for a command: a refusal or an unreadable file exits `code`."""
    if not file.is_file():
        fail(f"{file} is not a readable file", code)
    try:
        fmt = detect_format(file, requested)
    except Refused as exc:
        fail(describe(exc, file), code)
    except OSError as exc:
        fail(f"cannot read {file}: {exc.strerror or exc}", code)
    if fmt == "shipwise" and (options.scorer or options.variant or options.filter):
        fail(
            "--scorer, --variant and --filter apply to other tools' files, not shipwise JSONL", code
        )
    return fmt
