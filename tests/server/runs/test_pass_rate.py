"""`Run.passRate`: the mean pass fraction over graded items with its 95% interval, from SQL
aggregates, equal to `stats.intervals.pass_rate_interval` over the same items."""

from __future__ import annotations

import random

import pytest

from bench.kit.factories import make_workspace
from bench.kit.harness import Backend
from server.runs.pass_rates import PassMoments, interval_of
from server.workspaces.roles import Role
from stats.intervals import pass_rate_interval
from tests.server.runs.api import experiment, import_run, item

PASS_RATES = """
query($id: ID!) { runs(experimentId: $id, first: 10) { edges { node {
  id passRate { value low high n method } } } } }
"""


def _expected(grades: list[list[bool | None]]) -> tuple[float, float, float, int, str]:
    passed = [sum(1 for g in trials if g) for trials in grades]
    graded = [sum(1 for g in trials if g is not None) for trials in grades]
    found = pass_rate_interval(passed, graded)
    return found.estimate, found.low, found.high, found.n, found.method


async def test_each_run_reads_its_pass_rate_and_interval(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    member = ws.tokens[Role.MEMBER]
    exp = await experiment(backend, member)
    rng = random.Random(7)
    one_trial: list[list[bool | None]] = [[rng.random() < 0.7] for _ in range(30)]
    three_trials: list[list[bool | None]] = [
        [rng.random() < 0.6, rng.random() < 0.6, None] for _ in range(25)
    ]
    ungraded: list[list[bool | None]] = [[None], [None]]
    runs = {}
    for key, grades in (("one", one_trial), ("three", three_trials), ("none", ungraded)):
        items = [item(g, item_id=f"i{n}") for n, g in enumerate(grades)]
        runs[key] = await import_run(backend, member, exp, items, key=key)
    data = (await backend.gql(PASS_RATES, {"id": exp}, token=ws.tokens[Role.VIEWER])).ok()
    found = {e["node"]["id"]: e["node"]["passRate"] for e in data["runs"]["edges"]}
    assert found[runs["none"]] is None
    for key, grades in (("one", one_trial), ("three", three_trials)):
        rate = found[runs[key]]
        value, low, high, n, method = _expected(grades)
        assert (rate["n"], rate["method"]) == (n, method), key
        assert rate["value"] == pytest.approx(value)
        assert (rate["low"], rate["high"]) == (pytest.approx(low), pytest.approx(high))
    assert found[runs["one"]]["method"] == "WILSON"
    assert found[runs["three"]]["method"] == "CLUSTERED_CR1"


def test_equal_fractions_fall_back_to_wilson_on_the_effective_n() -> None:
    same = PassMoments(
        items=4, passes=4, most_graded=2, fraction_sum=2.0, fraction_square_sum=1.0,
        lowest_fraction=0.5, highest_fraction=0.5,
    )  # fmt: skip
    found = interval_of(same)
    expected = pass_rate_interval([1, 1, 1, 1], [2, 2, 2, 2])
    assert found is not None
    assert (found.estimate, found.low, found.high, found.method) == (
        expected.estimate, expected.low, expected.high, expected.method,
    )  # fmt: skip
    assert interval_of(PassMoments(0, 0, 0, 0.0, 0.0, 0.0, 0.0)) is None
