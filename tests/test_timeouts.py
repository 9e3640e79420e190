"""The suite's per-test bound ends a test whose event loop is busy in callbacks.

pytest-timeout's SIGALRM raises `Failed` wherever the main thread is; inside an asyncio
callback (`Handle._run`) the loop catches it as any `BaseException` and logs it, so the test
waited on forever. On 2026-12-04 the keyboard demo flow, slowed past its bound on a machine
at load 17, hung a whole run that way: the alarm landed in Playwright's connection callback
and every later Playwright call waited for an answer that could no longer come. With
`timeout_method = "thread"` (pyproject.toml) the bound ends the process instead: a plain run
fails, and under xdist the worker is reported crashed on that test and replaced.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

BUSY = """
import asyncio


async def test_a_loop_busy_in_callbacks_past_the_bound() -> None:
    loop = asyncio.get_running_loop()

    def busy() -> None:
        sum(range(500_000))  # CPU work: the loop is always inside a callback
        loop.call_soon(busy)

    loop.call_soon(busy)
    await loop.create_future()  # never done
"""


def test_a_test_whose_loop_is_busy_in_callbacks_is_ended_at_its_bound(tmp_path: Path) -> None:
    (tmp_path / "test_busy.py").write_text(BUSY)
    try:
        ended = subprocess.run(
            [sys.executable, "-m", "pytest", "-c", str(ROOT / "pyproject.toml"), "-q",
             "-p", "no:cacheprovider", "-o", "timeout=2", str(tmp_path / "test_busy.py")],
            capture_output=True, text=True, timeout=60, cwd=tmp_path,
        )  # fmt: skip
    except subprocess.TimeoutExpired:
        raise AssertionError("the per-test bound never ended a loop busy in callbacks") from None
    assert ended.returncode != 0
    assert "Timeout" in ended.stdout + ended.stderr
