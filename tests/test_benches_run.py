"""Every benchmark still runs: each `bench/*.py` with a main, at its `--smoke` size, on the
suite's PostgreSQL and Redis, ends with a JSON line naming its figures.

One test per benchmark, so xdist spreads them. A benchmark that needs a tool the README
names (`wrk`, Chromium and the built portal, `redis-server`) is skipped without it, and the
skip says which; a missing PostgreSQL or Redis skips as the rest of the suite does (and fails
under CI=true). The figures of a smoke run measure nothing: only that they are there.
"""

from __future__ import annotations

import ast
import json
import os
import shutil
import signal
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bench.kit import services
from bench.kit.browser import chromium_path
from server.portal.files import DEFAULT_DIR as PORTAL_DIR
from tests.conftest import require_services

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT / "bench"
SMOKE_BOUND_SECONDS = 600
"""A smoke run's bound: a guard against a hang, not a measure. At load 25 a smoke run that
starts worker processes (dispatch, scale, soak) took 4–6 min; idle, well under one."""


@dataclass(frozen=True)
class Bench:
    figures: tuple[str, ...]
    """Figures the JSON line must give as numbers."""
    services: tuple[str, ...] = ("postgres",)
    tools: tuple[str, ...] = ()
    """What the README says it needs besides the services: wrk, chromium, redis-server."""
    absent: tuple[str, ...] = ()
    """Figures a smoke run names but leaves null (a phase or baseline it skips)."""


BENCHES: dict[str, Bench] = {
    "api_read": Bench(
        (
            "me_rps",
            "list_rps",
            "list_p99_ms",
            "scorecard_p99_ms",
            "running_list_rps",
            "running_list_p99_ms",
            "running_page_p99_ms",
            "finalized_page_p99_ms",
            "floor_rps",
        ),
        services=("postgres", "redis"),
        tools=("wrk",),
    ),  # fmt: skip
    "dataset_from_traces": Bench(("create_seconds", "preview_seconds", "matched", "taken")),
    "dataset_import": Bench(("cases_per_s", "peak_rss_mb")),
    "diff": Bench(("import_items_per_s", "first_page_ms", "cached_page_ms", "peak_rss_mb")),
    "dispatch": Bench(
        (
            "calls_per_s",
            "floor_calls_per_s",
            "provider_cpu_ms_per_call",
            "ratio_to_floor",
            "ratio_to_ideal",
            "subscriber_p99_ms",
        ),
        services=("postgres", "redis"),
        absent=("calls_per_s_two_workers",),  # smoke runs the bars' phases: flat, paced
    ),  # fmt: skip
    "export": Bench(("csv_seconds", "jsonl_seconds", "peak_rss_mb", "rss_growth_mb")),
    "finalize": Bench(("finalize_s", "hosted_runs_s", "worker_cpu_s")),
    "import_formats": Bench(("inspect_items_per_s", "promptfoo_items_per_s", "client_peak_rss_mb")),
    "live": Bench(
        ("read_p99_ms", "decision_visible_ms", "traces_per_s", "api_cpu_us_per_trace"),
        services=(),
        # under a minute: no growth after the first minute; SQLite: no worker process
        absent=("rss_growth_mb", "worker_cpu_us_per_graded"),
    ),
    "portal": Bench(("verdict_visible_ms", "js_gzip_kb", "max_rows"), tools=("chromium",)),
    "read_cpu": Bench(
        tuple(
            f"{name}_{kind}"
            for name in ("floor", "d_list", "e_running", "f_page", "f_scorecard", "f_cases")
            for kind in ("cpu_ms", "wall_ms")
        ),
        services=("postgres", "redis"),
    ),
    "reports": Bench(("generate_first_s", "resolve_1000_s", "page_s", "sign_off_s")),
    "scale": Bench(
        ("calls_per_s", "finalize_s", "max_rss_mb", "case_page_p99_ms", "verdict_visible_ms"),
        services=("postgres", "redis"),
        tools=("wrk", "chromium"),
    ),
    "sequential": Bench(
        ("null_error_rate", "median_fraction_used", "service_calls_fraction"), services=()
    ),
    "soak": Bench(
        ("read_p99_ms", "reads", "comparisons", "calls", "calls_per_s"),
        tools=("redis-server",),  # its RSS growth is null unless a process outlives a minute
    ),
    "stats_kernels": Bench(
        ("paired_exact_ms",),
        services=(),
        absent=("speedup_vs_scipy",),  # no scipy baseline
    ),
    "trace_ingest": Bench(
        (
            "spans_per_s_stored",
            "api_rss_growth_mb",
            "api_cpu_us_per_span",
            "list_p99_ms",
            "trace_p99_ms",
            "list_text_p99_ms",
            "list_api_cpu_ms_per_request",
        ),
        absent=("phoenix_spans_per_s_stored", "ratio_to_phoenix"),  # no Phoenix at smoke size
    ),
}
"""The benchmarks, by their file under bench/."""

LONGEST_FIRST = (
    "soak", "dispatch", "scale", "diff", "live", "import_formats", "trace_ingest", "read_cpu",
    "portal", "dataset_import", "api_read", "sequential", "dataset_from_traces", "export",
    "finalize", "reports", "stats_kernels",
)  # fmt: skip
"""The order their smoke runs are collected in: longest first (2026-12-07, two xdist workers,
load ~14: soak 98 s, dispatch 74 s, … reports 18 s, stats_kernels 12 s; api_read and scale
44 s and 60 s in a full run). They sit together near the end of the suite's collection, so
under `--dist worksteal` one xdist worker runs them one after another, and the idle ones steal
the last in its queue only at the end of the run: alphabetically, the soak's ~100 s was among
those last, a tail with one worker busy and three idle."""

HELPERS = {
    "fake_provider": "the 0 ms provider bench/dispatch.py, scale.py and soak.py start",
    "soak_load": "bench/soak.py's readers and subscribers, in processes of their own",
}
"""Files under bench/ with a main that are parts of a benchmark, run by the ones above."""


def has_main(path: Path) -> bool:
    """Whether the module has an `if __name__ == "__main__":` block."""
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.If) and "__main__" in ast.unparse(node.test):
            return True
    return False


def missing_tool(tool: str) -> str | None:
    """Why `tool` is not there (None: it is), in the README's words."""
    if tool == "chromium":
        if chromium_path() is None:
            return "Chromium (make install installs Debian's chromium as root)"
        if not (PORTAL_DIR / "index.html").is_file():
            return "the built portal (make install, or make portal: needs npm)"
        return None
    if shutil.which(tool) is None:
        return f"{tool} (apt-get install {tool})"
    return None


def test_every_bench_with_a_main_is_run_here() -> None:
    with_main = {path.stem for path in BENCH.glob("*.py") if has_main(path)}
    assert with_main == set(BENCHES) | set(HELPERS), (
        "a bench/*.py with a main is neither run here nor a helper: "
        f"{sorted(with_main - set(BENCHES) - set(HELPERS))}; listed but gone or without a main: "
        f"{sorted(set(BENCHES) | set(HELPERS) - with_main)}"
    )


def test_every_bench_is_ordered_once() -> None:
    assert sorted(LONGEST_FIRST) == sorted(BENCHES)


def test_every_bench_documents_its_smoke_size() -> None:
    """`--smoke` is in each benchmark's --help (argparse), as docs/benchmarks.md says."""
    lacking = [name for name in BENCHES if '"--smoke"' not in (BENCH / f"{name}.py").read_text()]
    assert lacking == []


def run_smoke(name: str) -> dict[str, Any]:
    """`bench/<name>.py --smoke` to its exit; its last line's JSON."""
    env = {
        **os.environ,
        "SHIPWISE_BENCH_DATABASE_URL": services.postgres_url(),
        "SHIPWISE_BENCH_REDIS_URL": services.redis_url(),
    }
    process = subprocess.Popen(
        [sys.executable, str(BENCH / f"{name}.py"), "--smoke"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own process group: at the bound, its servers end too
    )
    try:
        stdout, stderr = process.communicate(timeout=SMOKE_BOUND_SECONDS)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        stdout, stderr = process.communicate()
    output = f"stdout:\n{stdout[-3000:]}\nstderr:\n{stderr[-3000:]}"
    assert process.returncode == 0, (
        f"bench/{name}.py --smoke exited {process.returncode} (-9: past the "
        f"{SMOKE_BOUND_SECONDS} s bound)\n{output}"
    )
    lines = stdout.strip().splitlines()
    assert lines, f"bench/{name}.py --smoke printed nothing\n{output}"
    try:
        figures = json.loads(lines[-1])
    except json.JSONDecodeError:
        raise AssertionError(f"bench/{name}.py's last line is not JSON\n{output}") from None
    assert isinstance(figures, dict), lines[-1]
    return figures


@pytest.mark.timeout(SMOKE_BOUND_SECONDS + 60)
@pytest.mark.parametrize("name", LONGEST_FIRST)
def test_the_bench_runs_at_smoke_size_and_names_its_figures(name: str) -> None:
    bench = BENCHES[name]
    require_services(*bench.services)
    missing = [why for why in map(missing_tool, bench.tools) if why is not None]
    if missing:
        pytest.skip(f"bench/{name}.py needs {' and '.join(missing)}, which is missing here")
    figures = run_smoke(name)
    assert figures.get("smoke") is True, figures
    not_numbers = {
        key: figures.get(key, "<missing>")
        for key in bench.figures
        if not isinstance(figures.get(key), int | float) or isinstance(figures.get(key), bool)
    }
    assert not_numbers == {}, f"figures missing or not numbers: {not_numbers} in {figures}"
    named = {key: figures.get(key, "<missing>") for key in bench.absent}
    assert named == dict.fromkeys(bench.absent), f"skipped figures not named as null: {figures}"
    if name == "stats_kernels":
        assert figures["scipy_baseline"] == "skipped", figures
    if name == "live":
        assert figures["graded_once"] is True, figures  # correctness holds even at smoke size
    if name == "soak":
        assert figures["failures"] == 0, figures  # correctness holds even at smoke size
