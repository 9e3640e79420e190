"""`shipwise compare`: offline, no server — a treatment's results against a baseline's.

Exit codes (seed 004): 0 when every treatment was compared over every matched pair (and,
with --fail-on-regression, none regressed); 1 otherwise, usage errors included. The
statistics stack is imported when the command runs, so other commands start quickly.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import os
import re
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer

# typer 0.29 vendors click; its parser raises the vendored UsageError.
from typer._click.core import Context
from typer._click.exceptions import UsageError
from typer.core import TyperCommand

from server.cli.commands.format_options import FilterOption, ScorerOption, ThresholdOption
from server.result_formats.reading import Options

if TYPE_CHECKING:
    from server.offline_compare.results import Run
    from server.offline_compare.summary import Summary

FAILURE = 1
API_KEY_VARIABLE = "SHIPWISE_JUDGE_API_KEY"
_DURATION = re.compile(r"(\d+(?:\.\d+)?)(ms|s|m|h)")
_UNIT_SECONDS = {"ms": 0.001, "s": 1.0, "m": 60.0, "h": 3600.0}


class _UsageError(UsageError):
    exit_code = FAILURE


class ExitOneOnUsageError(TyperCommand):
    """Usage errors exit 1, like every other failure of the command (seed 004)."""

    def make_context(
        self,
        info_name: str | None,
        args: list[str],
        parent: Context | None = None,
        **extra: Any,
    ) -> Context:
        try:
            return super().make_context(info_name, args, parent, **extra)
        except UsageError as exc:
            raise _UsageError(exc.message, exc.ctx) from None


def parse_duration(text: str) -> float:
    """Seconds in `2m`, `90s`, `1m30s`, `500ms` or a bare number of seconds; ValueError else."""
    value = text.strip().lower()
    try:
        seconds = float(value)
    except ValueError:
        parts = _DURATION.findall(value)
        if not parts or "".join(n + u for n, u in parts) != value:
            raise ValueError(f"{text!r} is not a duration (e.g. 2m, 90s, 500ms)") from None
        seconds = sum(float(n) * _UNIT_SECONDS[u] for n, u in parts)
    if not 0.0 < seconds < float("inf"):
        raise ValueError(f"{text!r} is not a positive duration")
    return seconds


def _usage(message: str) -> NoReturn:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(FAILURE)


def compare_command(
    experiment_dir: Annotated[
        Path | None,
        typer.Argument(
            help="Experiment directory: <variant>.jsonl per variant, optional experiment.json."
        ),
    ] = None,
    baseline: Annotated[
        Path | None, typer.Option("--baseline", help="Baseline results: a JSONL file or directory.")
    ] = None,
    treatment: Annotated[
        Path | None,
        typer.Option("--treatment", help="Treatment results: a JSONL file or directory."),
    ] = None,
    baseline_variant: Annotated[
        str | None,
        typer.Option("--baseline-variant", help="Experiment mode: the baseline variant's name."),
    ] = None,
    fail_on_regression: Annotated[
        bool,
        typer.Option(
            "--fail-on-regression", help="Exit 1 when a treatment significantly regresses."
        ),
    ] = False,
    output: Annotated[
        Path | None,
        typer.Option("--output", help="Write one JSON record per treatment to this JSONL file."),
    ] = None,
    judge_connection_url: Annotated[
        str | None,
        typer.Option(
            "--judge-connection-url",
            help=f"OpenAI-compatible base URL of a pairwise judge (key: ${API_KEY_VARIABLE}).",
        ),
    ] = None,
    judge_model: Annotated[
        str | None, typer.Option("--judge-model", help="The judge's model.")
    ] = None,
    rubric: Annotated[
        Path | None, typer.Option("--rubric", help="A text file with the judge's rubric.")
    ] = None,
    judge_timeout: Annotated[
        str, typer.Option("--judge-timeout", help="Timeout of each judge call (e.g. 2m, 30s).")
    ] = "2m",
    verbose: Annotated[
        bool, typer.Option("--verbose", help="Show every pair and every failure.")
    ] = False,
    scorer: ScorerOption = None,
    pass_threshold: ThresholdOption = 1.0,
    variant: Annotated[
        list[str] | None,
        typer.Option(
            "--variant",
            help="promptfoo: the prompt × provider pair; twice: the baseline's, the treatment's.",
        ),
    ] = None,
    filter_name: FilterOption = None,
) -> None:
    """Compare treatment results with a baseline's, offline: pairwise judge, grades, metrics.

    Give an experiment directory, or --baseline and --treatment. With a judge each matched
    pair is judged in both orders; without one, grades (McNemar) and metrics are compared.
    """
    options = _options(scorer, pass_threshold, variant or [], filter_name)
    runs = _load(experiment_dir, baseline, treatment, baseline_variant, options)
    judge = _judge(judge_connection_url, judge_model, rubric, judge_timeout)
    from server.offline_compare.report import render
    from server.offline_compare.runner import gate

    summaries = asyncio.run(_compare(runs, judge))
    for index, summary in enumerate(summaries):
        if index:
            typer.echo("")
        typer.echo("\n".join(render(summary, verbose=verbose)))
    if output is not None:
        _write(output, summaries)
    code, reasons = gate(summaries, fail_on_regression=fail_on_regression)
    for reason in reasons:
        typer.echo(f"error: {reason}", err=True)
    raise typer.Exit(code)


def _load(
    experiment_dir: Path | None,
    baseline: Path | None,
    treatment: Path | None,
    baseline_variant: str | None,
    options: tuple[Options, Options] | None = None,
) -> tuple[Run, list[Run]]:
    from server.offline_compare.imported import load_any
    from server.offline_compare.results import LoadError, load_experiment

    if experiment_dir is not None and (baseline is not None or treatment is not None):
        _usage("give an experiment directory or --baseline and --treatment, not both")
    try:
        if experiment_dir is not None:
            return load_experiment(experiment_dir, baseline_variant=baseline_variant)
        if baseline is None or treatment is None:
            _usage("give an experiment directory, or both --baseline and --treatment")
        if baseline_variant is not None:
            _usage("--baseline-variant applies to an experiment directory only")
        base_options, treatment_options = options or (Options(), Options())
        base_run = load_any(baseline, base_options)
        treatment_run = load_any(treatment, treatment_options)
        if base_run.name == treatment_run.name:  # e.g. main/results.jsonl and pr/results.jsonl
            base_run = dataclasses.replace(base_run, name=str(baseline))
            treatment_run = dataclasses.replace(treatment_run, name=str(treatment))
        return base_run, [treatment_run]
    except LoadError as exc:
        _usage(str(exc))


def _options(
    scorer: str | None, threshold: float, variants: list[str], filter_name: str | None
) -> tuple[Options, Options]:
    """The reading options of the baseline and of the treatment (`--variant` may differ)."""
    if len(variants) > 2:
        _usage("--variant: give it once (both files) or twice (baseline, then treatment)")
    first = variants[0] if variants else None
    second = variants[-1] if variants else None
    return (
        Options(scorer, threshold, first, filter_name),
        Options(scorer, threshold, second, filter_name),
    )


def _judge(
    url: str | None, model: str | None, rubric: Path | None, timeout: str
) -> tuple[str, str, str, float] | None:
    """(url, model, rubric text, timeout seconds), or None without a judge."""
    from server.judges.pair_prompt import DEFAULT_RUBRIC

    if url is None:
        if model is not None or rubric is not None:
            _usage("--judge-model and --rubric need --judge-connection-url")
        return None
    if not url.startswith(("http://", "https://")):
        _usage("--judge-connection-url must be an http(s) URL")
    if not model:
        _usage("--judge-connection-url needs --judge-model")
    try:
        seconds = parse_duration(timeout)
    except ValueError as exc:
        _usage(f"--judge-timeout: {exc}")
    text = DEFAULT_RUBRIC
    if rubric is not None:
        try:
            text = rubric.read_text(encoding="utf-8").strip()
        except (OSError, UnicodeDecodeError) as exc:
            _usage(f"--rubric: cannot read {rubric} ({exc})")
        if not text:
            _usage(f"--rubric: {rubric} is empty")
    return url, model, text, seconds


async def _compare(
    runs: tuple[Run, list[Run]], judge: tuple[str, str, str, float] | None
) -> list[Summary]:
    from server.judges.client import JudgeClient
    from server.judges.pair import PairJudge
    from server.offline_compare.runner import compare_runs

    baseline, treatments = runs
    if judge is None:
        return await compare_runs(baseline=baseline, treatments=treatments)
    url, model, rubric, seconds = judge
    client = JudgeClient(
        base_url=url,
        model=model,
        api_key=os.environ.get(API_KEY_VARIABLE) or None,
        timeout_seconds=seconds,
    )
    try:
        pair_judge = PairJudge(complete=client.complete, model=model, rubric=rubric)
        return await compare_runs(baseline=baseline, treatments=treatments, judge=pair_judge)
    finally:
        await client.aclose()


def _write(path: Path, summaries: Sequence[Summary]) -> None:
    from server.offline_compare.report import record

    lines = [json.dumps(record(s), ensure_ascii=False, allow_nan=False) for s in summaries]
    try:
        path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    except OSError as exc:
        _usage(f"--output: cannot write {path} ({exc.strerror or exc})")
