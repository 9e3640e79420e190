"""Money and enum words read the same everywhere (issue 34 g): one money rule, checked on the
table the portal's Vitest checks too, and the same run's cost in the CLI and on the report
page; the server's metric names are the portal's."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from bench.kit.factories import make_comparison_setup, make_workspace
from bench.kit.harness import Backend
from bench.kit.scenarios import run_comparison, wait_finalized
from server.money import dollars
from server.words import METRIC_NAMES, comparison_status, metric_name, words
from server.workspaces.roles import Role
from tests.server.cli.invoke import shipwise
from tests.server.reports.api import GENERATE

WEB = Path(__file__).resolve().parents[2] / "web" / "src"
EXAMPLES = json.loads((WEB / "lib" / "money.examples.json").read_text())
STATUSES = json.loads((WEB / "lib" / "status.examples.json").read_text())


@pytest.mark.parametrize(("status", "stop_reason", "text"), STATUSES)
def test_the_cli_says_a_status_as_the_portal_does(
    status: str, stop_reason: str | None, text: str
) -> None:
    assert comparison_status(status, stop_reason) == text


@pytest.mark.parametrize(("cents", "text"), EXAMPLES)
def test_the_server_formats_money_as_the_portal_does(cents: float, text: str) -> None:
    assert dollars(cents) == text


def test_a_nonzero_amount_never_reads_as_zero_and_stays_within_5_percent() -> None:
    for micros in (1, 7, 54, 160, 999, 1_234, 99_999):
        cents = micros / 10_000
        text = dollars(cents)
        if text.endswith(" ¢"):
            shown = float(text.removesuffix(" ¢"))
        else:
            shown = 100 * float(text.removeprefix("$").replace(",", ""))
        assert shown > 0 and abs(shown - cents) <= 0.05 * cents, text


def test_metric_names_are_the_portals() -> None:
    source = (WEB / "pages" / "comparison" / "metrics.ts").read_text()
    block = source.split("const NAMES", 1)[1].split("};", 1)[0]
    portal = dict(re.findall(r"(\w+): \"([^\"]+)\"", block))
    assert portal == METRIC_NAMES
    assert metric_name("pass_rate.CONTAINS") == "Pass rate (CONTAINS)"
    assert words("CLUSTERED_CR1") == "Cluster-robust interval over cases (CR1)"
    assert words("NO_DISCORDANT_PAIRS") == "No discordant pairs"


async def test_one_runs_cost_reads_the_same_in_the_cli_and_the_report(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    setup = await make_comparison_setup(
        backend.sessionmaker, ws, cases=4, output_cents_per_million_tokens=1000.0
    )
    member = ws.tokens[Role.MEMBER]
    comparison_id = await run_comparison(backend, member, setup.input(trialsPerCase=1))
    assert (await wait_finalized(backend, member, comparison_id))["verdictState"] == "FINALIZED"
    spent_query = "query($id: ID!) { comparison(id: $id) { spentCentsSoFar } }"
    spent = (await backend.gql(spent_query, {"id": comparison_id}, token=member)).ok()
    cents = spent["comparison"]["spentCentsSoFar"]
    assert 0 < cents < 0.1  # below a tenth of a cent: "$0.00" before, then "$0.000…"
    expected = dollars(cents)
    assert re.fullmatch(r"0\.0\d{1,2} ¢", expected), expected  # in cents, two digits

    env = {"SHIPWISE_URL": backend.base_url, "SHIPWISE_TOKEN": member}
    status = await shipwise("comparison", "status", comparison_id, env=env)
    assert status.code == 0, status.stderr
    assert f"spent {expected}" in status.stdout and "$0.00" not in status.stdout

    report = (await backend.gql(GENERATE, {"id": comparison_id}, token=member)).ok()
    page = await backend.client.get(
        report["generateReport"]["pagePath"], headers={"Authorization": f"Bearer {member}"}
    )
    assert page.status_code == 200
    assert f"Cost of this comparison: {expected}." in page.text
