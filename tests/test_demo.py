"""`shipwise serve --demo`: what it prints is enough to run a comparison to the end."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

pytestmark = pytest.mark.slow


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextmanager
def demo_server(data_dir: Path) -> Iterator[tuple[str, str]]:
    """Start `serve --demo`; yield (base URL, everything it printed before serving)."""
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("SHIPWISE_")}
    env["SHIPWISE_DATA_DIR"] = str(data_dir)
    out_path = data_dir.parent / f"demo-{port}.out"
    with open(out_path, "wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "server.cli", "serve", "--demo", "--port", str(port)],
            env=env,
            stdout=out,
            stderr=subprocess.DEVNULL,
        )
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(200):
            try:
                if httpx.get(f"{base}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
        yield base, out_path.read_text()
    finally:
        process.terminate()
        process.wait(timeout=30)


def _run(base: str, token: str, document: str) -> dict[str, object]:
    response = httpx.post(
        f"{base}/graphql",
        json={"query": document},
        headers={"Authorization": f"Bearer {token}"},
        timeout=120,
    )
    body = response.json()
    assert not body.get("errors"), body
    data: dict[str, object] = body["data"]
    return data


def test_the_printed_queries_run_a_comparison_to_the_end(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    with demo_server(data_dir) as (base, printed):
        token = re.search(r"Token:\s+(sw_\S+)", printed)
        assert token, printed
        assert f"{base}/graphql" in printed
        create = printed.split("mutation Compare", 1)[1].split("then, with the id", 1)[0]
        created = _run(base, token.group(1), "mutation Compare" + create)
        comparison = created["createComparison"]
        assert isinstance(comparison, dict)
        assert comparison["progress"] == {"totalCalls": 60 * 3 * 2}
        run = printed.split("mutation Run", 1)[1].split("and once it is DONE", 1)[0]
        run = run.replace("<the id>", str(comparison["id"]))
        ended = _run(base, token.group(1), "mutation Run" + run)["startComparison"]
        assert isinstance(ended, dict)
        assert ended["status"] == "DONE" and ended["stopReason"] == "COMPLETED"
        rates = [c["passRate"] for c in ended["cohorts"]]
        assert rates == [45 / 60, 52 / 60]  # the script: the candidate regresses
        assert ended["spentCentsSoFar"] > 0  # simulated, but priced
        banner = printed.replace(token.group(1), "sw_…")
        assert "SIMULATED" in banner and "priced" in banner
        assert "free" not in banner and "no cost" not in banner
        verdict_query = "query Verdict" + printed.split("query Verdict", 1)[1].replace(
            "<the id>", str(comparison["id"])
        )
        for _ in range(300):
            found = _run(base, token.group(1), verdict_query)["comparison"]
            assert isinstance(found, dict)
            if found["verdictState"] == "FINALIZED":
                break
            time.sleep(0.1)
        card = found["scorecard"]
        (verdict,) = card["verdicts"]
        assert verdict["summary"] == "Regressed vs capitals v1: −11.7 points, outside the noise"
        assert (verdict["outcome"], verdict["worseCount"], verdict["betterCount"]) == (
            "REGRESSED",
            10,
            3,
        )
        assert found["cases"]["totalCount"] == 10
    with demo_server(data_dir) as (base, printed_again):
        again = re.search(r"Token:\s+(sw_\S+)", printed_again)
        assert again and again.group(1) != token.group(1)
        me = _run(base, again.group(1), "{ me { role workspace { name } } }")
        assert me["me"] == {"role": "OWNER", "workspace": {"name": "shipwise demo"}}
