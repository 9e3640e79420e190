"""A CLI call starts without the numerical libraries: `stats` brings numpy and scipy (about a
third of a second, and thread pools that would start before `shipwise worker` lowers its
priority); the commands that need them import them when they run."""

from __future__ import annotations

import subprocess
import sys


def test_importing_the_cli_loads_neither_numpy_nor_scipy() -> None:
    probe = (
        "import sys, server.cli.app; "
        "print(','.join(m for m in ('numpy', 'scipy', 'stats') if m in sys.modules))"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60
    )
    assert done.stdout.strip() == "", done.stdout
