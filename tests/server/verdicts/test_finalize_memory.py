"""Finalization's memory is bounded by design: the trial rows stream through a slice of cases
at a time, so the peak grows with the cases by at most `PER_CASE_COHORT` bytes per case
per cohort (the count matrices, three numbers per completed trial, the statistics'
per-case arrays), never by the trials themselves.

Each size runs in its own process (tracemalloc from just before `finalize`), with slices of
250 cases so that both sizes span several. Holding every trial row (the code before the
streaming) grew by about 2,300 bytes per case per cohort here.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest

from bench.kit.databases import create_migrated_sqlite

ROOT = Path(__file__).resolve().parents[3]
SMALL, LARGE, CHUNK = 500, 2000, 250
COHORTS = 3
PER_CASE_COHORT = 1024
"""Bytes of peak memory one more case may add per cohort (measured: about 800 on data drawn
as the benches draw it: the sign-flip tests' shared sign bytes, R/8 bytes a case, are the
largest part; the resampling blocks are of fixed size whatever the cases)."""


UNUSABLE_CASES, UNUSABLE_EXTRA = 5, 4 * 1024 * 1024
"""A run a killed worker left with cases lacking a trial in one cohort: the decision then
resamples the cases that ran, in blocks of fixed small size (stats/bootstrap.py). In blocks of
2²² elements its peak was ~139 MB at 1,000 cases against ~7 MB with every case usable, and
several such finalizations at once in one worker were the soak's RSS peaks."""


async def _peaks(database_url: str, cases: int, unusable: int = 0) -> dict[str, Any]:
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "tests.server.verdicts.finalize_memory",
        database_url,
        str(cases),
        str(CHUNK),
        str(unusable),
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(process.communicate(), timeout=240)
    assert process.returncode == 0, err.decode()[-2000:]
    line: dict[str, Any] = json.loads(out.decode().strip().splitlines()[-1])
    assert (line["finalized"], line["completed"]) == ("finalized", "completed")
    return line


@pytest.fixture(params=["postgres", "sqlite"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "postgres":
        url: str = request.getfixturevalue("postgres_database")
        return url
    url = f"sqlite+aiosqlite:///{tmp_path / 'memory.db'}"
    create_migrated_sqlite(url)
    return url


async def test_finalization_peak_grows_by_a_constant_per_case_and_cohort(
    database_url: str,
) -> None:
    small = await _peaks(database_url, SMALL)
    large = await _peaks(database_url, LARGE)
    cells = (LARGE - SMALL) * COHORTS
    for step in ("finalize_peak", "hosted_runs_peak"):
        per_cell = (large[step] - small[step]) / cells
        assert per_cell <= PER_CASE_COHORT, (step, small[step], large[step], per_cell)


async def test_cases_left_without_a_trial_cost_finalization_no_more_memory(
    database_url: str,
) -> None:
    whole = await _peaks(database_url, SMALL * 2)
    left = await _peaks(database_url, SMALL * 2, unusable=UNUSABLE_CASES)
    assert left["finalize_peak"] <= whole["finalize_peak"] + UNUSABLE_EXTRA, (whole, left)
