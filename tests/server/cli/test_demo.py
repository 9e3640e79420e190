"""`shipwise serve --demo`: what it prints is enough to run a comparison to the end."""

from __future__ import annotations

import http.client
import re
import select
from pathlib import Path

import httpx
import pytest

from bench.kit.waiting import eventually_blocking
from tests.demo_server import Printed, demo_server

pytestmark = pytest.mark.slow


def _check_start_up(base: str, printed: Printed, *, migrated: bool) -> None:
    """One banner, after start-up; no per-plugin migration lines; no line twice."""
    lines = printed.lines
    ready = [i for i, line in enumerate(lines) if "shipwise demo is ready" in line]
    started = [i for i, line in enumerate(lines) if "Application startup complete" in line]
    assert len(ready) == 1 and len(started) == 1 and started[0] < ready[0], lines
    assert sum(f"{base}/graphql" in line for line in lines) == 1
    assert not [log for log in printed.logs if log["logger"].startswith("alembic")]
    assert not [line for line in lines if "setup plugin" in line or "Running upgrade" in line]
    messages = [(log["logger"], log["message"]) for log in printed.logs]
    assert len(messages) == len(set(messages)), messages
    assert (("shipwise.migrate", "database migrated") in messages) is migrated


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
    with demo_server(data_dir) as (base, output):
        _check_start_up(base, output, migrated=True)
        printed = output.banner
        assert f"export SHIPWISE_URL={base} SHIPWISE_TOKEN=sw_" in printed
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
        found = eventually_blocking(
            lambda: _run(base, token.group(1), verdict_query)["comparison"],
            until=lambda c: isinstance(c, dict) and c["verdictState"] == "FINALIZED",
            timeout=60,
            interval=0.1,
            what="the demo comparison finalized",
        )
        assert isinstance(found, dict)
        card = found["scorecard"]
        (verdict,) = card["verdicts"]
        assert verdict["summary"] == "Regressed vs capitals v1: −11.7 points, outside the noise"
        assert (verdict["outcome"], verdict["worseCount"], verdict["betterCount"]) == (
            "REGRESSED",
            10,
            3,
        )
        assert found["cases"]["totalCount"] == 10
        decision = found["decision"]
        assert decision["outcome"] == "DONT_SHIP"
        assert decision["sentence"].startswith(
            "Don't ship capitals v2: more than 2 points worse than capitals v1 (Δ −11.7 points"
        )
        quality = decision["criteria"][0]
        assert (quality["kind"], quality["status"], quality["threshold"]) == (
            "QUALITY",
            "VIOLATED",
            -2.0,
        )
    with demo_server(data_dir) as (base, output_again):
        _check_start_up(base, output_again, migrated=False)
        _an_idle_connection_outlives_the_clients_keep_alive(base)
        again = re.search(r"Token:\s+(sw_\S+)", output_again.banner)
        assert again and again.group(1) != token.group(1)
        me = _run(base, again.group(1), "{ me { role workspace { name } } }")
        assert me["me"] == {"role": "OWNER", "workspace": {"name": "shipwise demo"}}


CLIENT_KEEP_ALIVE_SECONDS = 5.0
"""httpx's default keep-alive expiry (the SDK's and the CLI's client)."""


def _an_idle_connection_outlives_the_clients_keep_alive(base: str) -> None:
    """A connection idle as long as a client keeps it is still open, and answers, then: a
    server that closed it first reset the request the client sent on it at that moment."""
    host, port = base.removeprefix("http://").split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=10)
    try:
        for request in range(2):
            if request:
                assert connection.sock is not None
                # Readable would mean the server closed the connection (nothing else is sent).
                idle = CLIENT_KEEP_ALIVE_SECONDS + 1
                closed, _, _ = select.select([connection.sock], [], [], idle)
                assert not closed, "the server closed an idle keep-alive connection"
            connection.request("GET", "/healthz")
            answer = connection.getresponse()
            answer.read()
            assert answer.status == 200
    finally:
        connection.close()
