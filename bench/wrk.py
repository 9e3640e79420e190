"""wrk as the read bench's load generator, and what the bench reads of the server process."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

CLIENTS = 50


LUA = """
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer {token}"
local bodies = {{{bodies}}}
local turn = 0
request = function()
  turn = turn % #bodies + 1
  return wrk.format(nil, nil, nil, bodies[turn])
end
"""


def write_lua(path: Path, bodies: Sequence[Mapping[str, Any]], token: str) -> Path:
    """A wrk script POSTing the GraphQL `bodies` in turn with the token."""
    path.write_text(
        LUA.format(bodies=", ".join(json.dumps(json.dumps(b)) for b in bodies), token=token)
    )
    return path


UNITS = {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60_000.0}


def ms(text: str) -> float:
    found = re.fullmatch(r"([\d.]+)(us|ms|s|m)", text)
    if found is None:
        raise SystemExit(f"wrk printed a latency this script cannot read: {text!r}")
    return float(found.group(1)) * UNITS[found.group(2)]


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def require_wrk() -> None:
    """Stop before a long run when wrk, the read load's generator, is missing."""
    if shutil.which("wrk") is None:
        raise SystemExit("this bench needs wrk: apt-get install wrk")


def run_wrk(url: str, lua: Path, seconds: int) -> tuple[float, float, float, int, int]:
    """(req/s, p50 ms, p99 ms, non-2xx + socket errors, requests) of one wrk run."""
    out = subprocess.run(
        ["wrk", "-t1", f"-c{CLIENTS}", f"-d{seconds}s", "--timeout", "10s", "--latency",
         "-s", str(lua), url],
        check=True, capture_output=True, text=True,
    ).stdout  # fmt: skip
    if "Requests/sec" not in out:
        raise SystemExit(f"wrk printed no figures:\n{out}")
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))  # type: ignore[union-attr]
    p50 = ms(re.search(r"^\s*50%\s+(\S+)", out, re.M).group(1))  # type: ignore[union-attr]
    p99 = ms(re.search(r"^\s*99%\s+(\S+)", out, re.M).group(1))  # type: ignore[union-attr]
    requests = int(re.search(r"(\d+) requests in", out).group(1))  # type: ignore[union-attr]
    if requests == 0:
        return 0.0, float("inf"), float("inf"), 0, 0
    errors = sum(int(n) for n in re.findall(r"Non-2xx or 3xx responses: (\d+)", out))
    socket_errors = re.search(r"Socket errors: (.*)", out)
    if socket_errors:
        errors += sum(int(n) for n in re.findall(r"\d+", socket_errors.group(1)))
    return rps, p50, p99, errors, requests


def profile_to(pid: int, path: Path, seconds: int) -> subprocess.Popen[bytes]:
    spy = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
    command = [spy, "record", "--pid", str(pid), "--duration", str(seconds), "--rate", "200",
               "--format", "raw", "--output", str(path), "--nonblocking"]  # fmt: skip
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
