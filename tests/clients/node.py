"""Node scripts of the portal's project (web/) run against a live server.

`make install` runs `npm ci` in web/; without its node_modules these tests skip loudly,
and fail under CI=true, as the page tests do without Chromium.
"""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path

import pytest

from bench.kit import services

WEB = Path(__file__).resolve().parents[2] / "web"
NODE_SECONDS = 100.0


def require_packages(*packages: str) -> str:
    """The path of `node`, once web/node_modules holds each of `packages`."""
    node = shutil.which("node")
    missing = [p for p in packages if not (WEB / "node_modules" / p / "package.json").is_file()]
    if node is not None and not missing:
        return node
    what = "node" if node is None else f"web/node_modules/{{{', '.join(missing)}}}"
    message = f"!!!!! needs {what}: run `make install` (npm ci in web/) !!!!!"
    if services.in_ci():
        pytest.fail(f"CI=true: {message}", pytrace=False)
    pytest.skip(message)


async def run(*command: str, cwd: Path = WEB, seconds: float = NODE_SECONDS) -> str:
    """Run `command` without blocking the event loop (the live server shares it); its stdout.
    A failure shows the command's stderr."""
    process = await asyncio.create_subprocess_exec(
        *command,
        cwd=cwd,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        async with asyncio.timeout(seconds):
            stdout, stderr = await process.communicate()
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
    assert process.returncode == 0, f"{' '.join(command)}: {stderr.decode()[-4000:]}"
    return stdout.decode()
